/// The built-in codec factories.
extension PluginRegistry.Builder {
    /// Registers the built-in codec factories.
    mutating func registerStandardCodecFactories() {
        registerPNGAndJPEGFactories()
        registerGIFAndWebPFactories()
        registerAVIFHEIFJXLFactories()
    }

    /// `png` (setting `compressionLevel`, 0-9) and `jpeg` (setting `scaledDecoding`: whether a target size may
    /// decode at 1/2, 1/4 or 1/8 scale).
    mutating func registerPNGAndJPEGFactories() {
        add(
            PluginFactory<Codec>(name: "png", defaultSettings: .object(["compressionLevel": .number(6)])) { reader in
                let codec = PNGCodec(compressionLevel: try reader.int("compressionLevel", default: 6, in: 0...9))
                return Codec(decoder: codec, encoder: codec)
            })
        add(
            PluginFactory<Codec>(name: "jpeg", defaultSettings: .object(["scaledDecoding": .bool(true)])) { reader in
                let codec = JPEGCodec(scaledDecoding: try reader.bool("scaledDecoding", default: true))
                return Codec(decoder: codec, encoder: codec)
            })
    }
}
