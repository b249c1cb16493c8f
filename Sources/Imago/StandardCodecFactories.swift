/// The built-in codec factories.
extension PluginRegistry {
    /// Registers the built-in codec factories.
    func registerStandardCodecFactories() {
        registerGIFAndWebPFactories()
    }
}
