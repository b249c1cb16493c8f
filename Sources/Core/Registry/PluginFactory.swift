/// A named way to build a plugin from its configuration settings, so a configuration file can name it.
public struct PluginFactory<Plugin>: Sendable {
    /// The name a configuration uses, for example `"http"`.
    public let name: String
    /// The settings the plugin uses when a configuration gives none (printed by `imago config --print-default`).
    public let defaultSettings: JSONValue
    private let make: @Sendable (ConfigReader, PluginBuildContext) throws -> Plugin

    /// Creates a factory. `make` reads its settings from the reader; unknown keys are refused after it returns.
    public init(
        name: String, defaultSettings: JSONValue = .object([:]),
        make: @escaping @Sendable (ConfigReader) throws -> Plugin
    ) {
        self.init(name: name, defaultSettings: defaultSettings) { reader, _ in try make(reader) }
    }

    /// Creates a factory whose plugin is made of other plugins, which `make` builds through the context (the
    /// factories of the registry being built), never by capturing a registry.
    public init(
        name: String, defaultSettings: JSONValue = .object([:]),
        make: @escaping @Sendable (ConfigReader, PluginBuildContext) throws -> Plugin
    ) {
        self.name = name
        self.defaultSettings = defaultSettings
        self.make = make
    }

    /// Builds the plugin from `settings`, reporting bad or unknown keys under `path`; `context` gives the
    /// factories a composite plugin may build its parts with (none by default).
    public func build(_ settings: JSONValue, path: String, context: PluginBuildContext = .empty) throws -> Plugin {
        let reader = try ConfigReader(settings, path: path)
        let plugin = try make(reader, context)
        try reader.finish()
        return plugin
    }
}

/// A codec: a decoder and an encoder of one format, either of which may be missing.
public struct Codec: Sendable {
    public var decoder: (any ImageDecoder)?
    public var encoder: (any ImageEncoder)?

    /// Creates a codec.
    public init(decoder: (any ImageDecoder)? = nil, encoder: (any ImageEncoder)? = nil) {
        self.decoder = decoder
        self.encoder = encoder
    }
}

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
    /// Interceptor factories, for the configuration's `interceptors`.
    public var interceptors: [PluginFactory<any ImageInterceptor>]
    /// Detector factories, for the configuration's `detectors`.
    public var detectors: [PluginFactory<any ImageDetector>] = []

    /// Creates a set of factories.
    public init(
        transports: [PluginFactory<any ImageTransport>] = [], codecs: [PluginFactory<Codec>] = [],
        imageCaches: [PluginFactory<any ImageCache>] = [], dataCaches: [PluginFactory<any DataCache>] = [],
        processors: [PluginFactory<any ImageProcessor>] = [],
        interceptors: [PluginFactory<any ImageInterceptor>] = []
    ) {
        self.transports = transports
        self.codecs = codecs
        self.imageCaches = imageCaches
        self.dataCaches = dataCaches
        self.processors = processors
        self.interceptors = interceptors
    }
}
