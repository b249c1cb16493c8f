import Foundation
import ImagoTestSupport
import Synchronization
import Testing

@testable import ImagoCore

/// Decodes like `FakeDecoder`, tells its size from the header, and records where and under what budget it ran;
/// with a gate, each decode blocks its thread until the gate opens (a long decode).
final class ObservedDecoder: DecodedSizeEstimating {
    let format = ImageFormat("fake")
    let gate: ThreadGate?
    let budget = Mutex<PixelMemoryBudget?>(nil)
    private let seen = Mutex((executors: [String?](), usedBytes: [Int]()))

    init(gate: ThreadGate? = nil) { self.gate = gate }

    var executors: [String?] { seen.withLock { $0.executors } }
    var usedBytes: [Int] { seen.withLock { $0.usedBytes } }

    func canDecode(_ header: Data) -> Bool { header.starts(with: Array("FAKE".utf8)) }

    func decodedByteCount(_ data: Data, options: DecodeOptions) -> Int? {
        data.count >= 6 ? Int(data[data.startIndex + 4]) * Int(data[data.startIndex + 5]) * 4 : nil
    }

    func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        let used = budget.withLock { $0?.usedBytes } ?? 0
        seen.withLock {
            $0.executors.append(WorkExecutor.currentName)
            $0.usedBytes.append(used)
        }
        gate?.pass()
        return try FakeDecoder().decode(data, options: options)
    }
}

@Suite struct ImageLoaderExecutorTests {
    func environment(decoder: ObservedDecoder, settings: LoaderSettings) -> (FakeTransport, ImageLoader) {
        let transport = FakeTransport()
        var builder = PluginRegistry.Builder()
        builder.add(transport)
        builder.add(decoder)
        let registry = builder.build()
        let loader = ImageLoader(registry: registry, settings: settings)
        decoder.budget.withLock { $0 = loader.pixelBudget }
        return (transport, loader)
    }

    func request(_ path: String) -> ImageRequest {
        ImageRequest(url: URL(string: "fake://host\(path)")!, cachePolicy: .none)
    }

    /// More decodes than the machine has cores, each holding its thread: the cooperative pool still answers,
    /// because decodes run on the compute executor. (Were they on the pool, the pool tasks below could not run
    /// until the gate opens; it opens by itself after a minute only so that such a failure cannot hang the run.)
    @Test func thePoolStaysResponsiveWhileLargeDecodesRun() async throws {
        let gate = ThreadGate()
        let decoder = ObservedDecoder(gate: gate)
        let decodes = 2 * ProcessInfo.processInfo.activeProcessorCount + 2
        let (transport, loader) = environment(
            decoder: decoder, settings: LoaderSettings(maxConcurrentLoads: 64, maxConcurrentDecodes: decodes))
        for index in 0..<decodes { transport.serve("/\(index)", data: FakeDecoder.encode(width: 200, height: 200)) }
        let loads = (0..<decodes).map { index in Task { try await loader.image(for: request("/\(index)")) } }
        await eventually { gate.enteredCount == WorkExecutor.compute.threadCount }
        #expect(gate.enteredCount == WorkExecutor.compute.threadCount)
        let fallback = Thread {
            Thread.sleep(forTimeInterval: 60)
            gate.open()
        }
        fallback.start()
        let answers = await withTaskGroup(of: Int.self) { group in
            for value in 0..<64 { group.addTask { value } }
            return await group.reduce(0, +)
        }
        let gateWasClosed = !gate.isOpen
        #expect(answers == 2016)
        #expect(gateWasClosed, "pool tasks completed only after the decodes were let go")
        gate.open()
        for load in loads { #expect(try await load.value.image.width == 200) }
        #expect(decoder.executors.count == decodes)
        #expect(decoder.executors.allSatisfy { $0 == "imago.compute" })
    }

    @Test func decodesWaitForRoomInThePixelBudget() async throws {
        let decoder = ObservedDecoder()
        let imageBytes = 100 * 100 * 4
        let (transport, loader) = environment(
            decoder: decoder,
            settings: LoaderSettings(maxConcurrentDecodes: 16, pixelMemoryBudget: 3 * imageBytes))
        for index in 0..<24 { transport.serve("/\(index)", data: FakeDecoder.encode(width: 100, height: 100)) }
        // Callers that hold their images (as `imago load --out` does until written) keep the budget full.
        let held = Updates<ImageResponse>()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<24 {
                group.addTask {
                    try await PixelMemoryBudget.holdingHandedOverImages {
                        let response = try await loader.image(for: request("/\(index)"))
                        held.append(response)
                        try await Task.sleep(nanoseconds: 2_000_000)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(held.values.count == 24)
        #expect(decoder.usedBytes.count == 24)
        // Inside each decode its own reservation is counted: never more than the budget.
        #expect(decoder.usedBytes.allSatisfy { $0 <= 3 * imageBytes && $0 >= imageBytes })
        #expect(loader.pixelBudget.usedBytes == 0, "every reservation was given back")
    }

    @Test func anImageLargerThanTheBudgetStillLoads() async throws {
        let decoder = ObservedDecoder()
        let (transport, loader) = environment(decoder: decoder, settings: LoaderSettings(pixelMemoryBudget: 1000))
        transport.serve("/big", data: FakeDecoder.encode(width: 250, height: 250))
        let response = try await loader.image(for: request("/big"))
        #expect(response.image.width == 250)
        #expect(decoder.usedBytes == [250 * 250 * 4])
        #expect(loader.pixelBudget.usedBytes == 0)
    }
}
