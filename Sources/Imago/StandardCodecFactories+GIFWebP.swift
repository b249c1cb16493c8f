/// The GIF and WebP codec factories.
extension PluginRegistry {
    /// Registers the `gif` and `webp` codec factories (neither takes settings).
    func registerGIFAndWebPFactories() {
        registerFactory(PluginFactory<Codec>(name: "gif") { _ in Codec(decoder: GIFCodec(), encoder: GIFCodec()) })
        registerFactory(PluginFactory<Codec>(name: "webp") { _ in Codec(decoder: WebPCodec(), encoder: WebPCodec()) })
    }
}
