import Foundation

/// Object storage: the `s3` transport (`S3Transport`) and the `s3` data cache (`S3DataCache`).
extension PluginRegistry {
    /// `s3`: `endpoint` (null: `https://s3.REGION.amazonaws.com`), `region`, `pathStyle`, `accessKeyId`,
    /// `secretAccessKey`, `sessionToken` (null: the `AWS_*` environment variables), and the HTTP transport's
    /// `idleTimeout`, `totalDeadline`, `maxBytes`, `maxConnectionsPerHost`, `userAgent`, `proxy`, `caFile`.
    static let s3TransportFactory = PluginFactory<any ImageTransport>(
        name: "s3", defaultSettings: S3Configuration().settings
    ) { reader in
        try S3Transport(configuration: try S3Configuration(reading: reader))
    }

    /// `s3` data cache: `bucket` (required), `prefix` (`imago-cache/`; not empty), `maxEntryBytes`,
    /// `retryInterval` (seconds to stand aside after a failure), and every setting of the `s3` transport.
    static let s3CacheFactory = PluginFactory<any DataCache>(
        name: "s3",
        defaultSettings: {
            guard case .object(var settings) = S3Configuration().settings else { return .null }
            settings["bucket"] = .null
            settings["prefix"] = .string("imago-cache/")
            settings["maxEntryBytes"] = .number(Double(50 << 20))
            settings["retryInterval"] = .number(5)
            return .object(settings)
        }()
    ) { reader in
        guard let bucket = try reader.string("bucket") else {
            throw ConfigReader.error(reader.path(of: "bucket"), "the bucket to keep the entries in is required")
        }
        let prefix = try reader.string("prefix") ?? "imago-cache/"
        guard !prefix.isEmpty else {
            // An empty prefix would let `removeAll` delete every object of the bucket.
            throw ConfigReader.error(reader.path(of: "prefix"), "empty prefix")
        }
        let configuration = S3DataCache.Configuration(
            connection: try S3Configuration(reading: reader), bucket: bucket, prefix: prefix,
            maxEntryBytes: try reader.int("maxEntryBytes", default: 50 << 20, in: 0...(5 << 30)),
            retryInterval: try reader.double("retryInterval", default: 5, in: 0...86_400))
        do {
            return try S3DataCache(configuration: configuration)
        } catch let error as ImagoError {
            throw ConfigReader.error(reader.path(of: "bucket"), error.reason)
        }
    }
}

extension PluginRegistry.Builder {
    /// Registers the `s3` transport and the `s3` data cache.
    mutating func registerS3Factories() {
        add(PluginRegistry.s3TransportFactory)
        add(PluginRegistry.s3CacheFactory)
    }
}
