/// The built-in processor factories.
extension PluginRegistry {
    static let resizeFactory = PluginFactory<any ImageProcessor>(
        name: "resize",
        defaultSettings: .object(["mode": .string("fit"), "upscale": .bool(false), "filter": .string("catmullRom")])
    ) { reader in
        let width = try required(reader, "width")
        let height = try required(reader, "height")
        let mode = try reader.string("mode", allowed: ["fit", "fill"]).flatMap(ContentMode.init(rawValue:)) ?? .fit
        let upscale = try reader.bool("upscale", default: false)
        let filter =
            try reader.string("filter", allowed: ResizeFilter.allCases.map(\.rawValue)).flatMap(
                ResizeFilter.init(rawValue:))
            ?? .catmullRom
        return ResizeProcessor(width: width, height: height, mode: mode, upscale: upscale, filter: filter)
    }

    static let cropFactory = PluginFactory<any ImageProcessor>(name: "crop") { reader in
        CropProcessor(
            x: try reader.int("x", default: 0, in: 0...Int(Int32.max)),
            y: try reader.int("y", default: 0, in: 0...Int(Int32.max)),
            width: try required(reader, "width"), height: try required(reader, "height"))
    }

    /// A positive whole number that must be present.
    private static func required(_ reader: ConfigReader, _ key: String) throws -> Int {
        guard let value = try reader.optionalInt(key, in: 1...Int(Int32.max)) else {
            throw ConfigReader.error(reader.path(of: key), "missing \(key)")
        }
        return value
    }
}

extension PluginRegistry.Builder {
    /// Registers the built-in processor factories: `resize` (`width`, `height`, `mode` fit/fill, `upscale`,
    /// `filter`), `crop` (`x`, `y`, `width`, `height`) and `orientation`.
    mutating func registerStandardProcessorFactories() {
        registerFactory(PluginRegistry.resizeFactory)
        registerFactory(PluginRegistry.cropFactory)
        registerFactory(
            PluginFactory<any ImageProcessor>(name: "orientation") { _ in OrientationProcessor() })
    }
}
