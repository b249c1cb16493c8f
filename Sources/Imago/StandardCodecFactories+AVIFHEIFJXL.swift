import ImagoAVIF
import ImagoHEIF
import ImagoJXL

/// The AVIF, HEIC and JPEG XL codec factories (each codec is its own module over its own C library).
extension PluginRegistry {
}

extension PluginRegistry.Builder {
    /// `avif` (settings `speed` 0-10, `threads`), `heic` (settings `speed` 0-9, `threads`, `thumbnails`: whether a
    /// small target may decode an embedded thumbnail) and `jxl` (setting `effort` 1-9).
    mutating func registerAVIFHEIFJXLFactories() {
        add(
            PluginFactory<Codec>(
                name: "avif", defaultSettings: .object(["speed": .number(8), "threads": .number(1)])
            ) { reader in
                let codec = AVIFCodec(
                    threads: try reader.int("threads", default: 1, in: 1...64),
                    speed: try reader.int("speed", default: 8, in: 0...10))
                return Codec(decoder: codec, encoder: codec)
            })
        add(
            PluginFactory<Codec>(
                name: "heic",
                defaultSettings: .object(["speed": .number(4), "threads": .number(1), "thumbnails": .bool(true)])
            ) { reader in
                let codec = HEIFCodec(
                    threads: try reader.int("threads", default: 1, in: 1...64),
                    speed: try reader.int("speed", default: 4, in: 0...9),
                    usesThumbnails: try reader.bool("thumbnails", default: true))
                return Codec(decoder: codec, encoder: codec)
            })
        add(
            PluginFactory<Codec>(name: "jxl", defaultSettings: .object(["effort": .number(7)])) { reader in
                let codec = JXLCodec(effort: try reader.int("effort", default: 7, in: 1...9))
                return Codec(decoder: codec, encoder: codec)
            })
    }
}
