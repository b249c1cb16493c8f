import Foundation
import Imago

extension ImageServer {
    /// The response for `job`, rendered once per fleet: from the shared result store when a process rendered it
    /// already, else under the render lease (the holder renders and stores; the others wait and read the store).
    /// Without a result store (or a coordinator) this process renders, as a single server does.
    func renderOnce(_ job: ImageJob) async throws -> RenderedImage {
        guard let resultStore else {
            let image = try await render(job)
            results.store(image, for: job.key)
            return image
        }
        let stored = { @Sendable [metrics, results] () async -> RenderedImage? in
            guard let image = await resultStore.image(for: job.key) else { return nil }
            metrics.recordStoreHit()
            results.store(image, for: job.key)
            return image
        }
        if let image = await stored() { return image }
        return try await fleet.once("render:" + SHA256.hex(Array(job.key.utf8)), lookup: stored) { [self] in
            let image = try await render(job)
            results.store(image, for: job.key)
            let expires = Date().addingTimeInterval(Double(image.maxAge ?? settings.cacheMaxAge))
            await resultStore.store(image, for: job.key, expires: expires)
            return image
        }
    }

    /// Fetches, processes and encodes `job` here, within a processing slot.
    private func render(_ job: ImageJob) async throws -> RenderedImage {
        let image = try await gate.withSlot {
            try await renderer.render(job)
        }
        metrics.recordRender()
        return image
    }
}
