import ImagoCore

extension CurlTransport {
    /// The `curl` factory: builds a transport from a configuration's settings (see `Configuration`).
    public static let factory = factory(named: "curl")

    /// The same factory under another name (the standard registry's `http` is this one on Linux).
    public static func factory(named name: String) -> PluginFactory<any ImageTransport> {
        PluginFactory<any ImageTransport>(name: name, defaultSettings: Configuration().settings) { reader in
            CurlTransport(configuration: try Configuration(reading: reader))
        }
    }
}
