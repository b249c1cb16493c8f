/// The GIF and WebP codec factories.
extension PluginRegistry {
}

extension PluginRegistry.Builder {
    /// `gif` (no settings) and `webp` (settings `scaledDecoding`: whether a target size may make libwebp decode a
    /// still image at reduced scale; `method`: libwebp's lossy effort, 0-6).
    mutating func registerGIFAndWebPFactories() {
        add(PluginFactory<Codec>(name: "gif") { _ in Codec(decoder: GIFCodec(), encoder: GIFCodec()) })
        add(
            PluginFactory<Codec>(
                name: "webp", defaultSettings: .object(["scaledDecoding": .bool(true), "method": .number(4)])
            ) { reader in
                let codec = WebPCodec(
                    scaledDecoding: try reader.bool("scaledDecoding", default: true),
                    method: try reader.int("method", default: 4, in: 0...6))
                return Codec(decoder: codec, encoder: codec)
            })
    }
}
