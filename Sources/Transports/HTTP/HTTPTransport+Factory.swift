import ImagoCore

extension HTTPTransport {
    /// The `http` factory: builds a transport from a configuration's settings (see `Configuration`).
    public static let factory = PluginFactory<any ImageTransport>(
        name: "http", defaultSettings: Configuration().settings
    ) { reader in
        HTTPTransport(configuration: try Configuration(reading: reader))
    }
}
