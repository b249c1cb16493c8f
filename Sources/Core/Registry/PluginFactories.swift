/// A caller's own factories, to add to the built-in ones so a configuration file can name the caller's plugins
/// (`ImageLoader(contentsOf:factories:)`).
public struct PluginFactories: Sendable {
    /// Transport factories.
    public var transports: [PluginFactory<any ImageTransport>]
    /// Codec factories.
    public var codecs: [PluginFactory<Codec>]
    /// Memory-cache factories.
    public var imageCaches: [PluginFactory<any ImageCache>]
    /// Data-cache factories.
    public var dataCaches: [PluginFactory<any DataCache>]
    /// Processor factories, for the configuration's `processing` presets.
    public var processors: [PluginFactory<any ImageProcessor>]

    /// Creates a set of factories.
    public init(
        transports: [PluginFactory<any ImageTransport>] = [], codecs: [PluginFactory<Codec>] = [],
        imageCaches: [PluginFactory<any ImageCache>] = [], dataCaches: [PluginFactory<any DataCache>] = [],
        processors: [PluginFactory<any ImageProcessor>] = []
    ) {
        self.transports = transports
        self.codecs = codecs
        self.imageCaches = imageCaches
        self.dataCaches = dataCaches
        self.processors = processors
    }
}

extension PluginRegistry {
    /// Registers every factory of `factories`; one of a name already registered replaces it.
    public func registerFactories(_ factories: PluginFactories) {
        factories.transports.forEach { registerFactory($0) }
        factories.codecs.forEach { registerFactory($0) }
        factories.imageCaches.forEach { registerFactory($0) }
        factories.dataCaches.forEach { registerFactory($0) }
        factories.processors.forEach { registerFactory($0) }
    }
}
