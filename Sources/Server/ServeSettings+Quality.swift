import Imago

/// The `serve` keys of issue 37: `autoQuality` (`q=auto`'s target and bounds) and `bestFormats` (`f=best`'s
/// candidates), checked when the server starts.
extension ServeSettings {
    mutating func readQualityKeys(_ reader: ConfigReader) throws {
        if reader.value("autoQuality") != nil {
            let section = try reader.object("autoQuality")
            var read = AutoQuality()
            read.target = try section.double("target", default: read.target, in: 0...1)
            read.minQuality = try section.int("min", default: read.minQuality, in: 1...100)
            read.maxQuality = try section.int("max", default: read.maxQuality, in: 1...100)
            try section.finish()
            do {
                try read.validate()
            } catch let error as QualityError {
                throw ConfigReader.error(reader.path(of: "autoQuality"), error.reason)
            }
            autoQuality = read
        }
        if let names = try Self.strings(reader, "bestFormats") {
            guard !names.isEmpty else { throw ConfigReader.error(reader.path(of: "bestFormats"), "no format") }
            for (index, name) in names.enumerated()
            where !OutputFormat.names.contains(name) || names.firstIndex(of: name) != index {
                throw ConfigReader.error(
                    "\(reader.path(of: "bestFormats"))[\(index)]",
                    "\"\(name)\" is not one of \(OutputFormat.names.joined(separator: ", ")), or is named twice")
            }
            bestFormats = names.map { ImageFormat($0) }
        }
    }

    /// `autoQuality` and `bestFormats` in the JSON form.
    var qualityJSON: [String: JSONValue] {
        [
            "autoQuality": .object([
                "target": .number(autoQuality.target), "min": .number(Double(autoQuality.minQuality)),
                "max": .number(Double(autoQuality.maxQuality)),
            ]),
            "bestFormats": .array(bestFormats.map { .string($0.rawValue) }),
        ]
    }

    /// The formats `f=best` tries for a client whose `Accept` is `accept`: `bestFormats` in order, those the
    /// client names (JPEG and PNG always: every client shows them).
    func bestFormats(accept: String?) -> [ImageFormat] {
        let named = accept.map(ContentNegotiation.acceptedTypes) ?? []
        return bestFormats.filter { format in
            format == .jpeg || format == .png || named.contains(OutputFormat.contentType(of: format))
        }
    }
}
