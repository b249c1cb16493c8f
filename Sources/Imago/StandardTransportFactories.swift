/// The built-in transport factories.
extension PluginRegistry {
    /// Registers the built-in transport factories.
    func registerStandardTransportFactories() {}
}
