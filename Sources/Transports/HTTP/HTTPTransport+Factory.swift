import ImagoCore

extension HTTPTransport {
    /// The `urlsession` factory: builds a transport from a configuration's settings (see `Configuration`).
    public static let factory = factory(named: "urlsession")

    /// The same factory under another name (the standard registry's `http` is this one on Apple platforms).
    public static func factory(named name: String) -> PluginFactory<any ImageTransport> {
        PluginFactory<any ImageTransport>(name: name, defaultSettings: Configuration().settings) { reader in
            HTTPTransport(configuration: try Configuration(reading: reader))
        }
    }
}
