/// The GIF and WebP codec factories.
extension PluginRegistry {
}

extension PluginRegistry.Builder {
    /// `gif` (no settings) and `webp` (setting `scaledDecoding`: whether a target size may make libwebp decode a
    /// still image at reduced scale).
    mutating func registerGIFAndWebPFactories() {
        add(PluginFactory<Codec>(name: "gif") { _ in Codec(decoder: GIFCodec(), encoder: GIFCodec()) })
        add(
            PluginFactory<Codec>(name: "webp", defaultSettings: .object(["scaledDecoding": .bool(true)])) { reader in
                let codec = WebPCodec(scaledDecoding: try reader.bool("scaledDecoding", default: true))
                return Codec(decoder: codec, encoder: codec)
            })
    }
}
