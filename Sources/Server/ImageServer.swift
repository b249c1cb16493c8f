import Foundation
import Imago
import Synchronization

/// An image service over HTTP: `GET|HEAD /{signature}/{options}/{source}` answers the source resized and
/// re-encoded, `/health` and `/metrics` serve operators. See Docs/Server.md for the contract.
///
/// ```swift
/// var settings = ServeSettings()
/// settings.listen = "127.0.0.1:0"
/// let server = try ImageServer(configuration: ImagoConfiguration(), settings: settings)
/// print(server.port)
/// await server.shutdown()
/// ```
public final class ImageServer: Sendable {
    /// The `serve` settings in force.
    public let settings: ServeSettings
    /// The loader that fetches and decodes sources.
    public let loader: ImageLoader
    /// Requests answered from memory: a cache of finished responses.
    let results: ResultCache
    let metrics = ServerMetrics()
    let signer: URLSigner
    let dialects: DialectRouter
    private let policy: SourcePolicy
    let renderer: ImageRenderer
    /// String presets of the configuration's `processing` section, for `pr`.
    let presets: [String: String]
    let gate: AdmissionGate
    let inflight = InFlightRenders<RenderedImage>()
    /// The fleet's leases and the finished responses it shares (`serve.fleet`, `serve.resultStore`).
    let fleet: ServeFleet
    let resultStore: ResultStore?
    private let accessLog: (@Sendable (AccessLogEntry) -> Void)?
    private let daemonBox = DaemonBox()
    private let maintenance: MemoryMaintenance
    /// Longest request target accepted (414 beyond): far above any real image URL, far below the header limit.
    static let maxTargetBytes = 8192

    /// Starts serving with `loader` (use `ImageServer.loader(configuration:settings:)` for one that obeys the
    /// settings' limits) on `settings.listen`, or on `listen` when given. `accessLog` receives one entry per
    /// request; `fleet` (by default the one `settings.fleet` describes) shares renders with other processes.
    /// Throws when the address cannot be bound or `settings.resultStore` cannot be built.
    public init(
        settings: ServeSettings, loader: ImageLoader, listen: ListenAddress? = nil,
        accessLog: (@Sendable (AccessLogEntry) -> Void)? = nil, fleet: ServeFleet? = nil
    ) throws {
        self.settings = settings
        self.loader = loader
        let fleet = try fleet ?? ServeFleet(settings: settings)
        self.fleet = fleet
        self.resultStore = try settings.resultStore.map { spec in
            ResultStore(cache: try loader.registry.makeDataCache(spec, path: "serve.resultStore"), fleet: fleet)
        }
        self.results = ResultCache(capacity: settings.resultCacheBytes)
        self.signer = URLSigner(keys: settings.signingKeys)
        self.dialects = DialectRouter(settings: settings.dialects, signer: signer)
        self.policy = SourcePolicy(settings: settings)
        self.renderer = ImageRenderer(loader: loader, settings: settings, trusted: TrustedSources(loader: loader))
        self.presets = loader.registry.presets.compactMapValues { processors in
            processors.count == 1 ? (processors[0] as? OptionsProcessor)?.text : nil
        }
        self.gate = AdmissionGate(limit: settings.maxConcurrentRequests, queueLimit: settings.maxQueuedRequests)
        self.accessLog = accessLog
        // Idle pixel buffers are kept for reuse within a share of the pixel budget, not beside all of it.
        let pool = PixelBufferPool.shared
        pool.capacityLimit = min(pool.capacityLimit, loader.settings.effectivePixelMemoryBudget / 3)
        let metrics = self.metrics
        self.maintenance = MemoryMaintenance { metrics.inflightCount }
        let address = try listen ?? ListenAddress(parsing: settings.listen, path: "serve.listen")
        let cores = ProcessInfo.processInfo.activeProcessorCount
        // libmicrohttpd answers a request line longer than its per-connection memory with its own HTML 414 (no
        // Content-Type, no Cache-Control): 128 KiB lets targets up to about 127 KiB reach `maxTargetBytes`'s plain
        // 414. Only bytes received are resident (measured: 1000 connections holding 50 KB each add 52 MB).
        let daemon = try HTTPDaemon(
            address: address, threads: max(1, cores), connectionLimit: 4096, idleTimeout: 30, memoryLimit: 128 * 1024,
            handler: { [weak self] request in
                self?.answer(request) ?? .now(HTTPResponse(failure: ServeFailure(503, "shutting down")))
            },
            logger: { [weak self] request, response, seconds in self?.log(request, response, seconds: seconds) })
        daemonBox.set(daemon)
    }

    /// A server with the plugins and loader of `configuration` (built by `factories`), its `serve` section (or
    /// `settings` when given) applied to the loader's limits and transports.
    public convenience init(
        configuration: ImagoConfiguration, settings: ServeSettings? = nil, listen: ListenAddress? = nil,
        factories: PluginRegistry = .standardFactories(), accessLog: (@Sendable (AccessLogEntry) -> Void)? = nil
    ) throws {
        let settings = try settings ?? ServeSettings(configuration: configuration)
        let fleet = try ServeFleet(settings: settings)
        let loader = try ImageServer.loader(
            configuration: configuration, settings: settings, factories: factories, fleet: fleet)
        try self.init(settings: settings, loader: loader, listen: listen, accessLog: accessLog, fleet: fleet)
    }

    /// The port listened on (the one chosen when the address asked for port 0).
    public var port: Int { daemonBox.daemon?.port ?? 0 }

    /// Stops accepting, lets requests in flight finish (at most `shutdownGrace` seconds; later ones get 503),
    /// and stops.
    public func shutdown() async {
        await daemonBox.daemon?.drain(grace: settings.shutdownGrace)
    }

    /// Stops at once, closing every connection.
    public func stop() { daemonBox.daemon?.stop() }

    // MARK: Answering

    func answer(_ request: HTTPRequest) -> HTTPAnswer {
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = HTTPResponse(failure: ServeFailure(405, "only GET and HEAD are served"))
            response.headers.append(("Allow", "GET, HEAD"))
            return .now(response)
        }
        guard request.target.utf8.count <= Self.maxTargetBytes else {
            return .now(HTTPResponse(failure: ServeFailure(414, "the path is over \(Self.maxTargetBytes) bytes")))
        }
        switch request.path {
        case "/health": return .now(.text("ok"))
        case "/metrics":
            let text = metrics.text(loader: loader.statistics, resultCacheBytes: results.bytes, fleet: fleet)
            return .now(.text(text, contentType: "text/plain; version=0.0.4; charset=utf-8"))
        default: break
        }
        if request.path.hasPrefix("/info/") { return answerInfo(request) }
        do {
            let job = try imageJob(for: request)
            if let hit = results.image(for: job.key) {
                metrics.recordResultHit()
                return .now(imageResponse(hit, to: request, varies: job.varies, cache: "result"))
            }
            return .later { await self.render(job, for: request) }
        } catch {
            return .now(HTTPResponse(failure: ServeFailure(answering: error)))
        }
    }

    /// What an image request asks for, checked: signature, options, source policy, negotiated format.
    struct ImageJob: Sendable {
        var url: URL
        var options: ImageOptions
        /// Each option as the user wrote it in their grammar, for messages about the render.
        var spellings: [String: String]
        var format: ImageFormat?
        var varies: Bool
        var key: String
    }

    func imageJob(for request: HTTPRequest, target: Substring? = nil) throws -> ImageJob {
        // Imago's own grammar or a dialect's (by path prefix) gives the source and options; the rest is shared.
        let requested = try requestedImage(target ?? Substring(request.target), time: request.time)
        let options = requested.options
        // What the policy allows is the normalised source: it is what is fetched, and what the result is keyed by.
        let url = try policy.check(ImagePath.sourceURL(requested.source))
        var format: ImageFormat?
        switch options.format {
        case .format(let named): format = named
        case .auto: format = ContentNegotiation.format(accept: request.accept, preferred: settings.autoFormats)
        case nil: format = nil
        }
        let encoding = renderer.encodeOptions(for: options, format: format).cacheKeyComponent
        let key = "\(options.canonical)|\(encoding)|\(format?.rawValue ?? "-")|\(url.absoluteString)"
        return ImageJob(
            url: url, options: options, spellings: requested.spellings, format: format, varies: options.format == .auto,
            key: key)
    }

    private func render(_ job: ImageJob, for request: HTTPRequest) async -> HTTPResponse {
        metrics.enter()
        defer { metrics.leave() }
        do {
            let (image, shared) = try await inflight.value(for: job.key) { [self] in
                do {
                    return try await renderOnce(job)
                } catch {
                    let failure = ServeFailure(answering: error)
                    // A fallback replaces a source that failed; it is not kept in the result cache.
                    guard let fallback = settings.fallbackImage, ServeSettings.fallbackStatuses.contains(failure.status)
                    else { throw failure }
                    return try await gate.withSlot {
                        try await renderer.renderFallback(fallback, job: job)
                    }
                }
            }
            if shared { metrics.recordCoalesced() }
            return imageResponse(image, to: request, varies: job.varies, cache: image.sourceOrigin)
        } catch {
            let failure = ServeFailure(answering: error)
            if failure.status == 503 { metrics.recordShed() }
            return HTTPResponse(failure: failure)
        }
    }

    /// 200 with the image (HEAD: the same head), or 304 when `If-None-Match` names its ETag or, without one,
    /// `If-Modified-Since` is not before the source's `Last-Modified`.
    func imageResponse(_ image: RenderedImage, to request: HTTPRequest, varies: Bool, cache: String) -> HTTPResponse {
        var headers = [
            ("ETag", image.etag), ("Cache-Control", "public, max-age=\(image.maxAge ?? settings.cacheMaxAge)"),
        ]
        if let lastModified = image.lastModified { headers.append(("Last-Modified", lastModified)) }
        if varies { headers.append(("Vary", "Accept")) }
        if image.status == 200, Self.notModified(image, request) {
            return HTTPResponse(status: 304, headers: headers, cache: cache)
        }
        headers.insert(("Content-Type", image.contentType), at: 0)
        return HTTPResponse(status: image.status, headers: headers, body: image.body, cache: cache)
    }

    /// `If-None-Match` when present (RFC 9110 §13.2.2), else `If-Modified-Since` against `Last-Modified`.
    static func notModified(_ image: RenderedImage, _ request: HTTPRequest) -> Bool {
        if let condition = request.ifNoneMatch { return matches(condition, etag: image.etag) }
        guard let since = request.ifModifiedSince.flatMap(HTTPDate.parse),
            let modified = image.lastModified.flatMap(HTTPDate.parse)
        else { return false }
        return modified <= since
    }

    /// `If-None-Match` (a list, `*`, weak tags compared weakly as RFC 9110 says) against `etag`.
    static func matches(_ condition: String, etag: String) -> Bool {
        condition.split(separator: ",").contains { item in
            var tag = item.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag
        }
    }

    private func log(_ request: HTTPRequest, _ response: HTTPResponse, seconds: Double) {
        metrics.recordRequest(status: response.status, seconds: seconds)
        guard let accessLog else { return }
        let bytes = request.method == "HEAD" || response.status == 304 ? 0 : response.body.count
        accessLog(
            AccessLogEntry(
                time: request.time, method: request.method, path: request.target, status: response.status,
                bytes: bytes, milliseconds: seconds * 1000, cache: response.cache))
    }
}

/// Holds the daemon, set once after the server is initialised (the daemon's callbacks need the server).
private final class DaemonBox: Sendable {
    private let stored = Mutex<HTTPDaemon?>(nil)
    var daemon: HTTPDaemon? { stored.withLock { $0 } }
    func set(_ daemon: HTTPDaemon) { stored.withLock { $0 = daemon } }
}
