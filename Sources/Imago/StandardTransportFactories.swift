/// The built-in transport factories.
extension PluginRegistry {
    /// The name of the default HTTP(S) transport's factory: `curl` on Linux (URLSession there spins a core while
    /// it waits for the network), `urlsession` on Apple platforms.
    public static var defaultHTTPTransportName: String {
        #if os(Linux)
            CurlTransport.factory.name
        #else
            HTTPTransport.factory.name
        #endif
    }

    /// The default HTTP(S) transport's factory under `name`; `http` keeps configurations written before the
    /// transports had names of their own working.
    static func defaultHTTPTransportFactory(named name: String) -> PluginFactory<any ImageTransport> {
        #if os(Linux)
            CurlTransport.factory(named: name)
        #else
            HTTPTransport.factory(named: name)
        #endif
    }
}

extension PluginRegistry.Builder {
    /// Registers the built-in transport factories: `curl` (`CurlTransport`) and `urlsession` (`HTTPTransport`) for
    /// http and https, `http` (the platform's default of the two), `file` and `data`, each reading its settings
    /// from a configuration and listing them, with their defaults, in `defaultSettings`.
    mutating func registerStandardTransportFactories() {
        add(CurlTransport.factory)
        add(HTTPTransport.factory)
        add(PluginRegistry.defaultHTTPTransportFactory(named: "http"))
        add(FileTransport.factory)
        add(DataURITransport.factory)
    }
}
