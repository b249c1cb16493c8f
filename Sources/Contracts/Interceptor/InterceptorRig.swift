import Foundation
import ImagoCore
import Synchronization

/// A loader whose chain is: the outer probe, the interceptor under test, the inner probe (which answers as the test's
/// `downstream` says), then the loader's stages over any `contract`, `http` or `https` URL (a 4×3 image in a tiny
/// format of the contract's own).
final class InterceptorRig: Sendable {
    let log = ChainLog()
    let outer: OuterProbe
    let inner: InnerProbe
    let loader: ImageLoader

    init(_ interceptor: any ImageInterceptor, downstream: @escaping @Sendable (ImageRequest) -> InterceptorDownstream)
        throws
    {
        let (outer, inner) = (OuterProbe(log: log), InnerProbe(log: log, downstream: downstream))
        (self.outer, self.inner) = (outer, inner)
        loader = ImageLoader(
            registry: PluginRegistry().with { builder in
                builder.add(ContractSourceTransport())
                builder.add(ContractSourceDecoder())
                builder.add(outer)
                builder.add(interceptor)
                builder.add(inner)
            })
    }
}

/// Entries `name>` and `<name` as links are entered and left.
final class ChainLog: Sendable {
    private let state = Mutex<[String]>([])
    func append(_ entry: String) { state.withLock { $0.append(entry) } }
    var entries: [String] { state.withLock { $0 } }
}

/// The first link: records what the interceptor under test gave back.
final class OuterProbe: ImageInterceptor {
    let log: ChainLog
    private let state = Mutex<(error: ImagoError?, foreign: (any Error)?)>((nil, nil))
    init(log: ChainLog) { self.log = log }

    var lastError: ImagoError? { state.withLock { $0.error } }
    var lastForeignError: (any Error)? { state.withLock { $0.foreign } }

    func intercept(_ chain: ImageInterceptorChain) async throws -> ImageResponse {
        log.append("outer>")
        defer { log.append("<outer") }
        do {
            return try await chain.proceed()
        } catch let error as ImagoError {
            state.withLock { $0.error = error }
            throw error
        } catch {
            state.withLock { $0.foreign = error }
            throw error
        }
    }
}

/// The link after the interceptor: counts how often a load is passed on, answers it as `downstream` says, and can
/// fail every load (a 503) or hold it.
final class InnerProbe: ImageInterceptor {
    let log: ChainLog
    let downstream: @Sendable (ImageRequest) -> InterceptorDownstream
    private let state = Mutex((proceeds: 0, failing: false, blocking: false))
    init(log: ChainLog, downstream: @escaping @Sendable (ImageRequest) -> InterceptorDownstream) {
        self.log = log
        self.downstream = downstream
    }

    var proceeds: Int { state.withLock { $0.proceeds } }
    var failing: Bool {
        get { state.withLock { $0.failing } }
        set { state.withLock { $0.failing = newValue } }
    }
    var blocking: Bool {
        get { state.withLock { $0.blocking } }
        set { state.withLock { $0.blocking = newValue } }
    }

    func intercept(_ chain: ImageInterceptorChain) async throws -> ImageResponse {
        let (failing, blocking) = state.withLock { state in
            state.proceeds += 1
            return (state.failing, state.blocking)
        }
        log.append("inner>")
        defer { log.append("<inner") }
        if blocking {
            do {
                try await Task.sleep(nanoseconds: 60_000_000_000)
            } catch {
                throw ImagoError(.cancelled, "cancelled", source: chain.request.sourceString)
            }
        }
        if failing {
            throw ImagoError(
                .transportFailed(status: 503), "503 Service Unavailable", source: chain.request.sourceString)
        }
        switch downstream(chain.request) {
        case .image: return try await chain.proceed()
        case .failure(let error): throw error.naming(chain.request.sourceString)
        }
    }
}

/// Serves any `contract`, `http` or `https` URL: the bytes `ContractSourceDecoder` reads.
struct ContractSourceTransport: ImageTransport {
    var schemes: Set<String> { ["contract", "http", "https"] }
    func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        AsyncThrowingStream { continuation in
            continuation.yield(.response(TransportMetadata(statusCode: 200)))
            continuation.yield(.bytes(ContractSourceDecoder.bytes))
            continuation.finish()
        }
    }
}

/// `CTRC` then width and height: a grey image of that size.
struct ContractSourceDecoder: ImageDecoder {
    static let bytes = Data("CTRC".utf8) + Data([4, 3])
    var format: ImageFormat { ImageFormat("contract") }
    func canDecode(_ header: Data) -> Bool { header.starts(with: Array("CTRC".utf8)) }
    func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        let bytes = [UInt8](data)
        guard bytes.count >= 6 else { throw ImagoError(.decodingFailed(format: format), "truncated") }
        let raster = try Raster(width: Int(bytes[4]), height: Int(bytes[5]), fill: RGBA(128, 128, 128))
        return DecodedImage(raster: raster, format: format, encodedSize: data.count)
    }
}
