/// The built-in cache factories.
extension PluginRegistry {
    /// Registers the built-in cache factories.
    func registerStandardCacheFactories() {}
}
