/// The built-in codec factories.
extension PluginRegistry.Builder {
    /// Registers the built-in codec factories.
    mutating func registerStandardCodecFactories() {
        registerPNGAndJPEGFactories()
        registerGIFAndWebPFactories()
        registerAVIFHEIFJXLFactories()
        registerVideoFactory()
    }

    /// `png` (settings `compressionLevel`, 0-9, and `strategy`, `runLength` or `deflate`) and `jpeg` (setting
    /// `scaledDecoding`: whether a target size may decode at 1/8 to 1/2 scale).
    mutating func registerPNGAndJPEGFactories() {
        add(
            PluginFactory<Codec>(
                name: "png",
                defaultSettings: .object(["compressionLevel": .number(6), "strategy": .string("runLength")])
            ) { reader in
                let strategy = try reader.string(
                    "strategy", allowed: PNGCodec.Strategy.allCases.map(\.rawValue)
                ).flatMap(PNGCodec.Strategy.init(rawValue:))
                let codec = PNGCodec(
                    compressionLevel: try reader.int("compressionLevel", default: 6, in: 0...9),
                    strategy: strategy ?? .runLength)
                return Codec(decoder: codec, encoder: codec)
            })
        add(
            PluginFactory<Codec>(name: "jpeg", defaultSettings: .object(["scaledDecoding": .bool(true)])) { reader in
                let codec = JPEGCodec(scaledDecoding: try reader.bool("scaledDecoding", default: true))
                return Codec(decoder: codec, encoder: codec)
            })
    }
}
