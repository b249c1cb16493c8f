import Imago

/// How the processes of a fleet share their work (issue 25): `serve.fleet`, the Redis that holds the leases, and
/// `serve.resultStore`, the data cache that holds finished responses.
public struct FleetSettings: Sendable, Hashable {
    /// `redis://[[user]:password@]host[:port][/db]` of the leases; nil: no leases (each process renders and
    /// fetches on its own, as a single server does).
    public var redis: String?
    /// Prefix of the lease keys in Redis.
    public var keyPrefix = "imago:lease:"
    /// How long a lease lives without renewal: the longest a process that died holding one delays the others.
    public var leaseMilliseconds = 5000
    /// Seconds each Redis call may take (connecting included) before the process works alone.
    public var timeout: Double = 0.25
    /// Seconds a process works alone after a Redis failure before it asks Redis again.
    public var retryInterval: Double = 2

    /// The defaults: no Redis.
    public init() {}

    /// Reads `serve.fleet` (`null` or absent: the defaults).
    init(_ reader: ConfigReader) throws {
        redis = try reader.string("redis")
        if let redis { _ = try RedisEndpoint(url: redis, path: reader.path(of: "redis")) }
        keyPrefix = try reader.string("keyPrefix") ?? keyPrefix
        if keyPrefix.isEmpty { throw ConfigReader.error(reader.path(of: "keyPrefix"), "empty prefix") }
        leaseMilliseconds = try reader.int("leaseMilliseconds", default: leaseMilliseconds, in: 100...600_000)
        timeout = try reader.double("timeout", default: timeout, in: 0.001...60)
        retryInterval = try reader.double("retryInterval", default: retryInterval, in: 0...3600)
        try reader.finish()
    }

    /// The JSON form.
    var json: JSONValue {
        .object([
            "redis": redis.map(JSONValue.string) ?? .null, "keyPrefix": .string(keyPrefix),
            "leaseMilliseconds": .number(Double(leaseMilliseconds)), "timeout": .number(timeout),
            "retryInterval": .number(retryInterval),
        ])
    }
}

extension ServeSettings {
    /// Reads `resultStore` (a data cache spec, built and checked when the server starts) and `fleet`.
    mutating func readFleetKeys(_ reader: ConfigReader) throws {
        resultStore = reader.value("resultStore")
        switch resultStore {
        case nil, .object?: break
        case .string(let name)? where !name.isEmpty: break
        default: throw ConfigReader.error(reader.path(of: "resultStore"), "expected a data cache name or spec")
        }
        fleet =
            try reader.value("fleet").map { try FleetSettings(ConfigReader($0, path: reader.path(of: "fleet"))) }
            ?? FleetSettings()
    }

    /// `resultStore` and `fleet` in the JSON form.
    var fleetJSON: [String: JSONValue] { ["resultStore": resultStore ?? .null, "fleet": fleet.json] }
}
