/// A named way to build a plugin from its configuration settings, so a configuration file can name it.
public struct PluginFactory<Plugin>: Sendable {
    /// The name a configuration uses, for example `"http"`.
    public let name: String
    /// The settings the plugin uses when a configuration gives none (printed by `imago config --print-default`).
    public let defaultSettings: JSONValue
    private let make: @Sendable (ConfigReader) throws -> Plugin

    /// Creates a factory. `make` reads its settings from the reader; unknown keys are refused after it returns.
    public init(
        name: String, defaultSettings: JSONValue = .object([:]),
        make: @escaping @Sendable (ConfigReader) throws -> Plugin
    ) {
        self.name = name
        self.defaultSettings = defaultSettings
        self.make = make
    }

    /// Builds the plugin from `settings`, reporting bad or unknown keys under `path`.
    public func build(_ settings: JSONValue, path: String) throws -> Plugin {
        let reader = try ConfigReader(settings, path: path)
        let plugin = try make(reader)
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
