import Foundation

/// The built-in plugins, ready to use or to name in a configuration.
extension PluginRegistry {
    /// A registry with every built-in factory (transports `curl`, `urlsession`, `http`, `file`, `data`; codecs `png`,
    /// `jpeg`, `gif`, `webp`, `avif`, `heic`, `jxl`; caches `memory`, `disk`, `redis`, `tiered`; processors `resize`,
    /// `crop`, `orientation`) and the default plugins built.
    public static func standard() -> PluginRegistry {
        let factories = standardFactories()
        // The default configuration only names factories registered just above, so it cannot fail.
        return (try? factories.configured(by: factories.standardConfiguration())) ?? factories
    }

    /// A registry with every built-in factory and no plugin built yet.
    public static func standardFactories() -> PluginRegistry {
        let registry = PluginRegistry()
        registry.registerStandardTransportFactories()
        registry.registerStandardCodecFactories()
        registry.registerStandardCacheFactories()
        registry.registerSharedCacheFactories()
        registry.registerStandardProcessorFactories()
        return registry
    }

    /// The embedded default configuration: the platform's HTTP(S) transport (`defaultHTTPTransportName`), the
    /// file and `data:` transports, every built-in codec, a memory cache and a disk cache.
    public func standardConfiguration() -> ImagoConfiguration {
        defaultConfiguration(
            transports: [Self.defaultHTTPTransportName, "file", "data"],
            codecs: ["png", "jpeg", "gif", "webp", "avif", "heic", "jxl"],
            imageCache: "memory",
            dataCache: "disk")
    }
}
