import Foundation
import Imago
import ImagoTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A fleet as Docs/Deployment.md describes it, every part a child on 127.0.0.1: a redis-server, the originals
/// (a counting HTTP origin, or a bucket in moto with authentication enforced) as `originals` solid-colour PNGs (each of its own size and colour, so a wrong image cannot pass), three
/// `imago serve` processes sharing leases, source bytes and results through that Redis, and nginx in front with
/// the site configuration of Docs/Deployment.md.
final class FleetRig: @unchecked Sendable {  // the children are started in `init` and only signalled after
    struct Original {
        var name: String
        var width: Int
        var height: Int
        var color: RGBA
    }

    /// A variant URL and what its answer must be.
    struct Variant {
        var path: String
        var original: Original
        var width: Int
        var format: ImageFormat
    }

    let fixtures: Fixtures
    /// Where the originals are, and where results go besides Redis.
    enum Store { case http, s3 }

    let redis: RedisServer
    let store: Store
    /// The HTTP origin (`.http`).
    let origin: CountingOrigin?
    /// moto (`.s3`): the originals under `originals/` of the bucket `fleet`, the results under `results/`.
    let moto: MotoServer?
    static let bucket = "fleet"
    let originals: [Original]
    private(set) var serves: [ServeProcess] = []
    let nginx: NginxProcess
    let configPath: String
    /// An allowed origin nothing listens on.
    let deadOrigin: String

    init(originals count: Int = 30, store: Store = .http) throws {
        self.store = store
        fixtures = try Fixtures()
        redis = try RedisServer()
        var originals: [Original] = []
        var files: [String: Data] = [:]
        for index in 0..<count {
            let color = RGBA(UInt8(40 + index * 7), UInt8(255 - index * 6), UInt8((index * 83) % 256))
            let original = Original(
                name: "original-\(index).png", width: 64 + index * 11, height: 48 + index * 5, color: color)
            let raster = try Raster(width: original.width, height: original.height, fill: color)
            files[original.name] = try fixtures.encode(DecodedImage(raster: raster, format: .png), as: .png)
            originals.append(original)
        }
        self.originals = originals
        deadOrigin = "http://127.0.0.1:\(try RedisServer.freePort())/"
        let redisURL = redis.url()
        let redisSettings = { (prefix: String) -> [String: Any] in
            ["url": redisURL, "keyPrefix": prefix, "timeout": 2, "retryInterval": 0.5]
        }
        var configuration = PluginRegistry.standardFactories().standardConfiguration()
        var resultStore: [String: Any] = ["name": "redis", "settings": redisSettings("fleet-results:")]
        let allowed: String
        switch store {
        case .http:
            let origin = try CountingOrigin(files: files)
            (self.origin, moto, allowed) = (origin, nil, origin.url("").absoluteString)
        case .s3:
            let moto = try MotoServer()
            try moto.createBucket(Self.bucket)
            for (name, data) in files { try moto.putObject(bucket: Self.bucket, key: "originals/\(name)", data: data) }
            let keys = try moto.enforceAuthentication()
            let s3: [String: Any] = [
                "endpoint": moto.endpoint, "region": MotoServer.region, "pathStyle": true,
                "accessKeyId": keys.accessKeyId, "secretAccessKey": keys.secretAccessKey,
            ]
            let transport = try JSONValue.parse(try JSONSerialization.data(withJSONObject: s3))
            configuration.transports.removeAll { $0.name == "s3" }
            configuration.transports.append(PluginSpec("s3", settings: transport))
            resultStore = ["name": "s3", "settings": s3.merging(["bucket": Self.bucket, "prefix": "results/"]) { $1 }]
            (origin, self.moto, allowed) = (nil, moto, "s3://\(Self.bucket)/originals/")
        }
        let sections: [String: Any] = [
            "dataCache": ["name": "redis", "settings": redisSettings("fleet-sources:")],
            "serve": [
                "allowedSources": [allowed, deadOrigin], "allowPrivateAddresses": true, "resultStore": resultStore,
                "fleet": ["redis": redisURL, "leaseMilliseconds": 1000, "timeout": 2, "retryInterval": 0.5],
            ],
        ]
        guard case .object(var merged) = configuration.json,
            case .object(let added) = try JSONValue.parse(try JSONSerialization.data(withJSONObject: sections))
        else { throw TestFailure("a configuration is an object") }
        merged.merge(added) { _, new in new }
        configPath = fixtures.path("fleet.json")
        try Data(JSONValue.object(merged).jsonText().utf8).write(to: URL(fileURLWithPath: configPath))
        // IMAGO_FLEET_EXECUTABLE: another build for the figures (a release one), else the tests' own.
        let executable = ProcessInfo.processInfo.environment["IMAGO_FLEET_EXECUTABLE"].map(URL.init(fileURLWithPath:))
        for _ in 0..<3 {
            serves.append(
                try ServeProcess(["--listen", "127.0.0.1:0", "--config", configPath], executable: executable))
        }
        nginx = try NginxProcess(site: try Self.siteConfiguration(backends: serves.map(\.port)))
    }

    /// The `nginx` block of Docs/Deployment.md with the backends' and the listener's ports replaced.
    static func siteConfiguration(backends: [Int]) throws -> (text: String, port: Int) {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../../Docs/Deployment.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        guard let start = text.range(of: "```nginx\n"),
            let end = text.range(of: "```", range: start.upperBound..<text.endIndex)
        else { throw TestFailure("Docs/Deployment.md has no nginx block") }
        var site = String(text[start.upperBound..<end.lowerBound])
        let port = try RedisServer.freePort()
        for (index, backend) in backends.enumerated() {
            let documented = "server 127.0.0.1:\(8081 + index) "
            guard site.contains(documented) else { throw TestFailure("the nginx block lacks \(documented)") }
            site = site.replacingOccurrences(of: documented, with: "server 127.0.0.1:\(backend) ")
        }
        guard site.contains("listen 80;") else { throw TestFailure("the nginx block lacks listen 80;") }
        site = site.replacingOccurrences(of: "listen 80;", with: "listen 127.0.0.1:\(port);")
        return (site, port)
    }

    /// `/unsafe/w=W,f=F/plain/SOURCE` for ten variants of each original (five widths, PNG and JPEG).
    var variants: [Variant] {
        originals.flatMap { original in
            [16, 24, 32, 40, 48].flatMap { width in
                [ImageFormat.png, .jpeg].map { format in
                    let source = sourceURL(original).addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                    return Variant(
                        path: "/unsafe/w=\(width),f=\(format.rawValue)/plain/\(source)", original: original,
                        width: width, format: format)
                }
            }
        }
    }

    /// The source URL of `original`.
    func sourceURL(_ original: Original) -> String {
        switch store {
        case .http: origin!.url(original.name).absoluteString
        case .s3: "s3://\(Self.bucket)/originals/\(original.name)"
        }
    }

    /// How many times the fleet fetched `original` from where it is kept (S3: the GETs answered with the object;
    /// an object uploaded without Cache-Control is soon stale, and its revalidations are 304s without it).
    func fetches(_ original: Original) async throws -> Int {
        switch store {
        case .http: try await origin!.count(original.name)
        case .s3: try moto!.responseCount(status: 200, bucket: Self.bucket, key: "originals/\(original.name)")
        }
    }

    /// Why `body` is not the answer `variant` must get (format, size, colour), or nil when it is.
    func problem(with body: Data, for variant: Variant) -> String? {
        guard let decoder = fixtures.registry.decoder(for: body), let image = try? decoder.decode(body) else {
            return "not an image (\(body.count) bytes)"
        }
        let height = Double(variant.width * variant.original.height) / Double(variant.original.width)
        let raster = image.raster
        guard image.format == variant.format, raster.width == variant.width, abs(Double(raster.height) - height) <= 1
        else {
            return "\(image.format) \(raster.width)x\(raster.height), expected \(variant.format) \(variant.width) wide"
        }
        let pixel = raster[raster.width / 2, raster.height / 2]
        let expected = variant.original.color
        let differences: [Int] = [
            abs(Int(pixel.r) - Int(expected.r)), abs(Int(pixel.g) - Int(expected.g)),
            abs(Int(pixel.b) - Int(expected.b)),
        ]
        let distance = differences.max() ?? 0
        return distance <= 12 ? nil : "colour \(pixel), expected \(expected) (\(variant.original.name))"
    }

    /// The counters of `/metrics` of a serve process (name with labels to value).
    func metrics(_ serve: ServeProcess) throws -> [String: Double] {
        let text = String(decoding: try serve.get("/metrics").body, as: UTF8.self)
        var values: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let value = Double(parts[1]) { values[String(parts[0])] = value }
        }
        return values
    }

    /// `name` summed over the processes still running.
    func total(_ name: String) throws -> Double {
        try serves.filter { $0.process.isRunning }.reduce(0) { $0 + (try metrics($1)[name] ?? 0) }
    }

    /// The 95th percentile of the time the processes took (their access logs' `ms`) for answers whose `cache` is
    /// one of `caches`, and how many there were.
    func serverP95(caches: Set<String>) -> (milliseconds: Double, count: Int) {
        let seconds = serves.flatMap { serve in
            serve.stdout.split(separator: "\n").compactMap { line -> Double? in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    let cache = object["cache"] as? String, caches.contains(cache), let ms = object["ms"] as? Double
                else { return nil }
                return ms / 1000
            }
        }
        return (LoadRunner.p95(seconds), seconds.count)
    }

    /// Kills serve process `index` with SIGKILL, as a crash would.
    func kill(serve index: Int) { serves[index].stop() }
}

/// One answer of a load: status (0 when the connection failed), body, and seconds taken.
struct LoadAnswer: Sendable {
    var status: Int
    var body: Data
    var seconds: Double
    var error: String?
}

/// Requests over `connections` client threads at once (not the cooperative pool: the sockets block).
enum LoadRunner {
    /// GETs every path of `paths` from 127.0.0.1:`port`, `connections` at a time; `progress` sees the count of
    /// answers so far after each one (it may block, to act at a given point of the load).
    static func run(
        port: Int, paths: [String], connections: Int = 16, progress: (@Sendable (Int) -> Void)? = nil
    ) async -> [LoadAnswer] {
        let state = LoadState(count: paths.count)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let group = DispatchGroup()
            for _ in 0..<connections {
                group.enter()
                Thread {
                    while let index = state.next() {
                        let start = ContinuousClock.now
                        var answer: LoadAnswer
                        do {
                            let (status, body) = try HTTPGet.get(port: port, path: paths[index], timeout: 60)
                            answer = LoadAnswer(status: status, body: body, seconds: 0)
                        } catch {
                            answer = LoadAnswer(status: 0, body: Data(), seconds: 0, error: "\(error)")
                        }
                        let elapsed = start.duration(to: .now).components
                        answer.seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
                        let done = state.finish(index, answer)
                        progress?(done)
                    }
                    group.leave()
                }.start()
            }
            group.notify(queue: .global()) { continuation.resume() }
        }
        return state.answers
    }

    /// The 95th percentile of `seconds`, in milliseconds.
    static func p95(_ seconds: [Double]) -> Double {
        guard !seconds.isEmpty else { return 0 }
        let sorted = seconds.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.95))] * 1000
    }
}

private final class LoadState: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var nextIndex = 0
    private var done = 0
    private var results: [LoadAnswer?]

    init(count: Int) { results = Array(repeating: nil, count: count) }

    func next() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard nextIndex < results.count else { return nil }
        nextIndex += 1
        return nextIndex - 1
    }

    func finish(_ index: Int, _ answer: LoadAnswer) -> Int {
        lock.lock()
        defer { lock.unlock() }
        results[index] = answer
        done += 1
        return done
    }

    var answers: [LoadAnswer] {
        lock.lock()
        defer { lock.unlock() }
        return results.map { $0 ?? LoadAnswer(status: 0, body: Data(), seconds: 0, error: "not sent") }
    }
}
