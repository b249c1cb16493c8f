import Foundation
import Imago
import Synchronization

/// An image service over HTTP: `GET|HEAD /{signature}/{options}/{source}` answers the source resized and
/// re-encoded, `/info/…` reports on it, `/health` and `/metrics` serve operators. See Docs/Server.md for the
/// contract; the handler chain every request goes through is `ImageServer+Chain.swift`.
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
    /// The loader that fetches, decodes and renders sources: the server's only one.
    public let loader: ImageLoader
    /// Requests answered from memory: a cache of finished responses.
    let results: ResultCache
    let metrics = ServerMetrics()
    let dialects: DialectRouter
    let policy: SourcePolicy
    /// String presets of the configuration's `processing` section, for `pr`.
    let presets: [String: String]
    let gate: AdmissionGate
    /// Identical requests in flight share one render (the package's one coalescer), the fleet's lease around it.
    let renders = TaskCoalescer<ResultKey, RenderedImage>()
    /// Keys whose render holds a processing slot now: a request waiting for one of them has begun (504, not 503).
    let rendering = Mutex<Set<ResultKey>>([])
    /// The operator's watermark and fallback image, loaded at start.
    let trusted: TrustedSources
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
    /// Throws when the address cannot be bound, `settings.resultStore` cannot be built, or the watermark or the
    /// fallback image cannot be loaded (the error names the key).
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
        self.trusted = try TrustedSources(settings: settings, registry: loader.registry, limits: loader.settings.limits)
        self.results = ResultCache(capacity: settings.resultCacheBytes)
        self.dialects = DialectRouter(settings: settings.dialects, signer: URLSigner(keys: settings.signingKeys))
        self.policy = SourcePolicy(settings: settings)
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
                self?.answer(request)
                    ?? .now(
                        HTTPResponse(failure: ServeFailure(answering: RequestError(.shuttingDown, "shutting down"))))
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

    /// Whether the server is stopping (draining after SIGTERM): `/health` then answers 503, so a balancer takes the
    /// instance out.
    var isDraining: Bool { daemonBox.daemon?.isDraining ?? true }

    private func log(_ request: HTTPRequest, _ response: HTTPResponse, seconds: Double) {
        metrics.recordRequest(status: response.status, seconds: seconds)
        if response.status == HTTPDaemon.clientLeft.status { metrics.recordDisconnect() }
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
