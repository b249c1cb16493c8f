import Foundation

/// The built-in plugins, ready to use or to name in a configuration.
extension PluginRegistry {
    /// A registry with every built-in factory (transports `curl`, `urlsession`, `http`, `file`, `data`, `s3`; codecs
    /// `png`, `jpeg`, `gif`, `webp`, `avif`, `heic`, `jxl`; caches `memory`, `disk`, `redis`, `s3`, `tiered`;
    /// processors `resize`, `crop`, `orientation`; detector `faces`, built only when a configuration names it) and
    /// the default plugins built.
    ///
    /// The default configuration names only built-in factories, so building it fails only if a built-in is
    /// broken; that stops the program with the reason rather than handing out a registry without plugins.
    public static func standard() -> PluginRegistry {
        do {
            return try standard(from: standardFactories())
        } catch {
            preconditionFailure("the built-in plugins cannot be built from their defaults: \(error)")
        }
    }

    /// The standard configuration built by `factories`; throws when a plugin it names has no factory there or
    /// cannot be built.
    static func standard(from factories: PluginRegistry) throws -> PluginRegistry {
        let configuration = factories.standardConfiguration()
        var missing = Set(standardTransports).subtracting(factories.factoryNames(.transport))
            .union(Set(standardCodecs).subtracting(factories.factoryNames(.codec)))
        if configuration.imageCache == nil { missing.insert("memory") }
        if configuration.dataCache == nil { missing.insert("disk") }
        guard missing.isEmpty else {
            throw ImagoError(
                .invalidConfiguration, "no factory for the standard plugins \(missing.sorted().joined(separator: ", "))"
            )
        }
        return try factories.configured(by: configuration)
    }

    static var standardTransports: [String] { [defaultHTTPTransportName, "file", "data"] }
    static let standardCodecs = ["png", "jpeg", "gif", "webp", "avif", "heic", "jxl"]

    /// A registry with every built-in factory, then `factories` (the caller's, which replace built-ins of the
    /// same name), and no plugin built yet.
    public static func standardFactories(adding factories: PluginFactories = PluginFactories()) -> PluginRegistry {
        var builder = Builder()
        builder.registerStandardTransportFactories()
        builder.registerStandardCodecFactories()
        builder.registerStandardCacheFactories()
        builder.registerSharedCacheFactories()
        builder.registerS3Factories()
        builder.registerStandardProcessorFactories()
        builder.registerStandardDetectorFactories()
        builder.add(factories)
        return builder.build()
    }

    /// The embedded default configuration: the platform's HTTP(S) transport (`defaultHTTPTransportName`), the
    /// file and `data:` transports, every built-in codec, a memory cache and a disk cache.
    public func standardConfiguration() -> ImagoConfiguration {
        defaultConfiguration(
            transports: Self.standardTransports, codecs: Self.standardCodecs, imageCache: "memory", dataCache: "disk")
    }
}
