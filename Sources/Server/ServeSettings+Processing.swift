import Imago

/// The `serve` keys of issue 24: the watermark, only-presets mode, per-format quality and the fallback image.
extension ServeSettings {
    mutating func readProcessingKeys(_ reader: ConfigReader) throws {
        watermark = try reader.string("watermark")
        if watermark?.isEmpty == true { throw ConfigReader.error(reader.path(of: "watermark"), "empty source") }
        onlyPresets = try reader.bool("onlyPresets", default: onlyPresets)
        if reader.value("quality") != nil {
            let qualities = try reader.object("quality")
            var read = Self.defaultQuality
            for name in Self.defaultQuality.keys {
                read[name] = try qualities.int(name, default: Self.defaultQuality[name]!, in: 1...100)
            }
            try qualities.finish()
            quality = read
        }
        fallbackImage = try reader.string("fallbackImage")
        if fallbackImage?.isEmpty == true { throw ConfigReader.error(reader.path(of: "fallbackImage"), "empty source") }
        fallbackStatus = try reader.int("fallbackStatus", default: fallbackStatus, in: 200...599)
        fallbackMaxAge = try reader.int("fallbackMaxAge", default: fallbackMaxAge, in: 0...Int(Int32.max))
    }

    /// The quality `format` is encoded with: `q`, else `quality`'s entry, else 85.
    func quality(for format: ImageFormat, options: ImageOptions) -> Int {
        options.quality ?? quality[format.rawValue] ?? 85
    }

    /// The statuses a fallback image replaces.
    static let fallbackStatuses: Set<Int> = [404, 415, 502, 504]
}
