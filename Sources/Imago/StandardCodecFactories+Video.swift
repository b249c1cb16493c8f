import ImagoVideo

extension PluginRegistry.Builder {
    /// `video` (ImagoVideo, over FFmpeg; decoding only): settings `maxDuration` (seconds, 1–86400), `posterSearch`
    /// (seconds the default poster is looked for in, 0–60), `threads` (1–16). Not in the standard configuration: a
    /// configuration names it among its `codecs`. Building it loads FFmpeg, so a configuration that names it on a
    /// machine without FFmpeg fails at start saying why.
    mutating func registerVideoFactory() {
        add(
            PluginFactory<Codec>(
                name: "video",
                defaultSettings: .object([
                    "maxDuration": .number(10800), "posterSearch": .number(5), "threads": .number(1),
                ])
            ) { reader in
                if let reason = VideoCodec.unavailableReason {
                    throw ConfigReader.error(reader.path, "the video codec cannot run: " + reason)
                }
                return Codec(
                    decoder: VideoCodec(
                        maxDuration: try reader.double("maxDuration", default: 10800, in: 1...86400),
                        posterSearch: try reader.double("posterSearch", default: 5, in: 0...60),
                        threads: try reader.int("threads", default: 1, in: 1...16)))
            })
    }
}
