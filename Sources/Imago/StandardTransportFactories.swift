/// The built-in transport factories.
extension PluginRegistry {
    /// Registers the built-in transport factories: `http` (http and https), `file` and `data`, each reading its
    /// settings from a configuration and listing them, with their defaults, in `defaultSettings`.
    func registerStandardTransportFactories() {
        registerFactory(HTTPTransport.factory)
        registerFactory(FileTransport.factory)
        registerFactory(DataURITransport.factory)
    }
}
