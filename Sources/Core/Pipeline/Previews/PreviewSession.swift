import Dispatch
import Foundation

/// One load's incremental decoder and its preview throttle.
///
/// Chunks are fed on a serial queue of the session's own (decoding is CPU work and stays off the cooperative
/// pool). A chunk that does not follow the ones seen (a tap added mid-fetch) ends the session: the load then
/// decodes its bytes in one shot. A fetch retried from its first byte starts a fresh decoder.
final class PreviewSession: @unchecked Sendable {  // Every mutable property is touched on `queue` only.
    private let queue = DispatchQueue(label: "imago.previews", qos: .userInitiated)
    private let decoders: PluginRegistry
    private let request: ImageRequest
    private let options: DecodeOptions
    private let policy: PreviewPolicy
    private let hub: PreviewHub
    private let key: ImageWorkKey
    private let start = ContinuousClock.now

    private var decoder: (any IncrementalImageDecoder)?
    private var head = Data()
    private var received = 0
    private var isActive = true
    private var shownSteps = 0
    private var nextAllowed = 0.0
    private var isCounted = false

    init(
        request: ImageRequest, options: DecodeOptions, policy: PreviewPolicy, decoders: PluginRegistry,
        hub: PreviewHub
    ) {
        self.request = request
        self.options = options
        self.policy = policy
        self.decoders = decoders
        self.hub = hub
        self.key = ImageWorkKey(request)
    }

    deinit { if isCounted { hub.liveSessions.wrappingAdd(-1, ordering: .relaxed) } }

    /// Takes the chunk of the body that starts at `offset`.
    func feed(_ chunk: Data, offset: Int) {
        queue.async { self.consume(chunk, offset: offset) }
    }

    /// Stops previews and gives the final image if the decoder saw exactly the `byteCount` bytes fetched and
    /// can finish them; `nil` means: decode the bytes in one shot (a disk hit, a tap added late, a decoder that
    /// failed: the one-shot decode then has the final word). Frees the decoder either way.
    func finalImage(byteCount: Int) async -> DecodedImage? {
        await withCheckedContinuation { continuation in
            queue.async {
                defer { self.release() }
                guard self.isActive, self.received == byteCount, let decoder = self.decoder else {
                    return continuation.resume(returning: nil)
                }
                self.isActive = false
                let final = try? decoder.finish()
                if final != nil { self.hub.incrementalFinals.wrappingAdd(1, ordering: .relaxed) }
                continuation.resume(returning: final)
            }
        }
    }

    /// Ends the session and frees the decoder (after any preview being rendered).
    func close() {
        queue.async { self.release() }
    }

    private func release() {
        isActive = false
        decoder = nil
        head = Data()
        if isCounted {
            isCounted = false
            hub.liveSessions.wrappingAdd(-1, ordering: .relaxed)
        }
    }

    private func consume(_ chunk: Data, offset: Int) {
        guard isActive else { return }
        if offset == 0, received > 0 { restart() }
        guard offset == received else { return release() }
        if received == 0 {
            // The first preview waits an interval too: bytes that all arrive within it need none.
            nextAllowed = start.duration(to: .now).seconds + policy.minimumInterval
        }
        received += chunk.count
        do {
            guard let progress = try append(chunk) else { return }
            guard progress.offersPreviews else { return release() }
            try previewIfDue(progress)
        } catch {
            release()
        }
    }

    private func restart() {
        decoder = nil
        head = Data()
        received = 0
        shownSteps = 0
    }

    /// Feeds the decoder, choosing it once the first bytes are in; `nil` while they are not.
    private func append(_ chunk: Data) throws -> IncrementalDecodeProgress? {
        if let decoder { return try decoder.append(chunk) }
        head.append(chunk)
        guard head.count >= ImageFormat.sniffLength else { return nil }
        guard
            let incremental = try? decoders.decoder(for: head, limits: options.limits) as? any IncrementalImageDecoding
        else {
            release()
            return nil
        }
        let decoder = incremental.makeIncrementalDecoder(options: options)
        self.decoder = decoder
        if !isCounted {
            isCounted = true
            hub.liveSessions.wrappingAdd(1, ordering: .relaxed)
        }
        let bytes = head
        head = Data()
        return try decoder.append(bytes)
    }

    private func previewIfDue(_ progress: IncrementalDecodeProgress) throws {
        guard let decoder, progress.completedSteps > shownSteps, !progress.isComplete else { return }
        let began = start.duration(to: .now).seconds
        guard began >= nextAllowed, hub.hasSubscribers(key) else { return }
        guard let preview = try decoder.makePreview() else { return }
        let upright = try OrientationStage.apply(to: preview, for: request)
        let image = try ProcessStage.run(request.processors, on: upright, scale: request.scale)
        let end = start.duration(to: .now).seconds
        shownSteps = progress.completedSteps
        nextAllowed = policy.nextAllowed(after: end, cost: end - began)
        hub.previewsMade.increment()
        var response = ImageResponse(
            image: image, request: request, origin: .network, attempts: 1,
            metrics: LoadMetrics(totalDuration: end, decodeDuration: end - began, byteCount: received))
        response.isPreview = true
        hub.publish(key, response)
    }
}
