import Foundation
import ImagoCore
import Synchronization

/// "STEP" images: a 32-byte header (`STEP`, width, height, step count, step length, zero padding), then each
/// step's `length` bytes of one grey value. The image is the grey of the last step received in full, so a
/// preview after step N is grey N and the final is the last step's grey: refinement without a real codec.
public final class SteppedDecoder: IncrementalImageDecoding {
    public let format = ImageFormat("step")
    private let counts = Mutex((oneShot: 0, incremental: 0))
    /// Incremental decoders of this decoder alive now.
    public let live = LiveCount()

    public init() {}

    public var oneShotDecodes: Int { counts.withLock { $0.oneShot } }
    public var incrementalDecoders: Int { counts.withLock { $0.incremental } }

    public func canDecode(_ header: Data) -> Bool { header.starts(with: Array("STEP".utf8)) }

    public func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        counts.withLock { $0.oneShot += 1 }
        let decoder = SteppedIncrementalDecoder(format: format, live: LiveCount())
        _ = try decoder.append(data)
        return try decoder.finish()
    }

    public func makeIncrementalDecoder(options: DecodeOptions) -> any IncrementalImageDecoder {
        counts.withLock { $0.incremental += 1 }
        return SteppedIncrementalDecoder(format: format, live: live)
    }

    public static func encode(width: Int = 8, height: Int = 6, steps: Int = 6, stepLength: Int = 64) -> Data {
        var bytes = Array("STEP".utf8) + [UInt8(width), UInt8(height), UInt8(steps), UInt8(stepLength)]
        bytes += [UInt8](repeating: 0, count: 32 - bytes.count)
        for step in 1...steps { bytes += [UInt8](repeating: UInt8(step * 40 % 256), count: stepLength) }
        return Data(bytes)
    }
}

/// Counts objects alive.
public final class LiveCount: Sendable {
    private let count = Atomic<Int>(0)
    public var value: Int { count.load(ordering: .relaxed) }
    public func add(_ delta: Int) { count.wrappingAdd(delta, ordering: .relaxed) }
}

public final class SteppedIncrementalDecoder: IncrementalImageDecoder {
    public let format: ImageFormat
    private let live: LiveCount
    private var bytes: [UInt8] = []

    public init(format: ImageFormat, live: LiveCount) {
        self.format = format
        self.live = live
        live.add(1)
    }

    deinit { live.add(-1) }

    private var header: (width: Int, height: Int, steps: Int, length: Int)? {
        guard bytes.count >= 32 else { return nil }
        return (Int(bytes[4]), Int(bytes[5]), Int(bytes[6]), max(Int(bytes[7]), 1))
    }

    private var completedSteps: Int {
        guard let header else { return 0 }
        return min((bytes.count - 32) / header.length, header.steps)
    }

    public func append(_ chunk: Data) throws -> IncrementalDecodeProgress {
        bytes += chunk
        guard bytes.starts(with: Array("STEP".utf8)) || bytes.count < 4 else {
            throw ImagoError(.decodingFailed(format: format), "not a step image")
        }
        let complete = header.map { completedSteps == $0.steps } ?? false
        return IncrementalDecodeProgress(completedSteps: completedSteps, offersPreviews: true, isComplete: complete)
    }

    public func makePreview() throws -> DecodedImage? {
        guard completedSteps > 0 else { return nil }
        return try image()
    }

    public func finish() throws -> DecodedImage {
        guard let header, completedSteps == header.steps else {
            throw ImagoError(.decodingFailed(format: format), "step image truncated")
        }
        return try image()
    }

    private func image() throws -> DecodedImage {
        guard let header else { throw ImagoError(.decodingFailed(format: format), "no header") }
        let grey = bytes[32 + (completedSteps - 1) * header.length]
        let raster = try Raster(width: header.width, height: header.height, fill: RGBA(grey, grey, grey))
        return DecodedImage(raster: raster, format: format, encodedSize: bytes.count)
    }
}

/// Serves bytes in chunks with a pause after each, and can stop for good after some bytes (a stalled server).
public final class TricklingTransport: ImageTransport {
    public let schemes: Set<String>
    public let data: Data
    public let chunkSize: Int
    public let pause: Double
    public let stallAfter: Int?
    private let counts = Mutex((fetches: 0, terminations: 0))

    public init(data: Data, chunkSize: Int, pause: Double, stallAfter: Int? = nil, scheme: String = "trickle") {
        self.schemes = [scheme]
        self.data = data
        self.chunkSize = chunkSize
        self.pause = pause
        self.stallAfter = stallAfter
    }

    public var fetches: Int { counts.withLock { $0.fetches } }
    public var terminations: Int { counts.withLock { $0.terminations } }

    public func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        counts.withLock { $0.fetches += 1 }
        let (data, chunkSize, pause, stallAfter) = (data, chunkSize, pause, stallAfter)
        return AsyncThrowingStream { continuation in
            let task = Task {
                continuation.yield(
                    .response(TransportMetadata(statusCode: 200, expectedLength: Int64(data.count))))
                var offset = 0
                while offset < data.count {
                    if let stallAfter, offset >= stallAfter { try? await Task.sleep(nanoseconds: 60_000_000_000) }
                    if Task.isCancelled { return continuation.finish(throwing: CancellationError()) }
                    let end = min(data.count, offset + chunkSize)
                    continuation.yield(.bytes(data.subdata(in: offset..<end)))
                    offset = end
                    if pause > 0 { try? await Task.sleep(nanoseconds: UInt64(pause * 1e9)) }
                }
                continuation.finish()
            }
            continuation.onTermination = { reason in
                if case .cancelled = reason {
                    self.counts.withLock { $0.terminations += 1 }
                    task.cancel()
                }
            }
        }
    }
}

/// A loader whose transport trickles one STEP image.
public struct SteppedEnvironment: Sendable {
    public let decoder = SteppedDecoder()
    public let transport: TricklingTransport
    public let imageCache = FakeImageCache()
    public let registry: PluginRegistry
    public let loader: ImageLoader
    public let data: Data

    public init(
        steps: Int = 6, chunkSize: Int = 16, pause: Double = 0.002, stallAfter: Int? = nil,
        extraTransport: (any ImageTransport)? = nil
    ) {
        data = SteppedDecoder.encode(steps: steps)
        transport = TricklingTransport(data: data, chunkSize: chunkSize, pause: pause, stallAfter: stallAfter)
        var builder = PluginRegistry.Builder()
        builder.add(transport)
        if let extraTransport { builder.add(extraTransport) }
        builder.add(decoder)
        builder.imageCache = imageCache
        registry = builder.build()
        loader = ImageLoader(registry: registry)
    }

    public var request: ImageRequest { ImageRequest(url: URL(string: "trickle://host/image")!) }

    /// A transport of scheme `truncated` that trickles `data`.
    public static func truncatedTransport(_ data: Data) -> TricklingTransport {
        TricklingTransport(data: data, chunkSize: 16, pause: 0.002, scheme: "truncated")
    }
}
