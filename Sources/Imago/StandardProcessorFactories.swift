/// The built-in processor factories.
extension PluginRegistry {
    /// Registers the built-in processor factories.
    func registerStandardProcessorFactories() {}
}
