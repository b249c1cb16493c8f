/// The built-in processor factories.
extension PluginRegistry {
    static let resizeFactory = PluginFactory<any ImageProcessor>(
        name: "resize",
        defaultSettings: .object(["mode": .string("fit"), "upscale": .bool(false), "filter": .string("lanczos3")])
    ) { reader in
        let width = try required(reader, "width")
        let height = try required(reader, "height")
        let mode = try reader.string("mode", allowed: ["fit", "fill"]).flatMap(ContentMode.init(rawValue:)) ?? .fit
        let upscale = try reader.bool("upscale", default: false)
        let filter =
            try reader.string("filter", allowed: ResizeFilter.allCases.map(\.rawValue)).flatMap(
                ResizeFilter.init(rawValue:))
            ?? .lanczos3
        return ResizeProcessor(width: width, height: height, mode: mode, upscale: upscale, filter: filter)
    }

    static let cropFactory = PluginFactory<any ImageProcessor>(name: "crop") { reader in
        CropProcessor(
            x: try reader.int("x", default: 0, in: 0...Int(Int32.max)),
            y: try reader.int("y", default: 0, in: 0...Int(Int32.max)),
            width: try required(reader, "width"), height: try required(reader, "height"))
    }

    /// `options`: a preset in the options grammar (`{"options": "w=600,h=400,fit=cover,g=sm"}`, or the string
    /// itself in `processing`); a bad item names the preset's path.
    static let optionsFactory = PluginFactory<any ImageProcessor>(name: ImagoConfiguration.optionsPresetName) {
        reader in
        guard let text = try reader.string("options") else {
            throw ConfigReader.error(reader.path(of: "options"), "missing options")
        }
        do {
            return try OptionsProcessor(text)
        } catch let error as OptionError {
            throw ConfigReader.error(reader.path, error.message)
        }
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
    /// `filter`), `crop` (`x`, `y`, `width`, `height`), `options` (a string in the
    /// options grammar) and `orientation`.
    mutating func registerStandardProcessorFactories() {
        add(PluginRegistry.resizeFactory)
        add(PluginRegistry.cropFactory)
        add(PluginRegistry.optionsFactory)
        add(
            PluginFactory<any ImageProcessor>(name: "orientation") { _ in OrientationProcessor() })
    }
}
