import Foundation

/// The whole toolkit's configuration: which plugins, their settings, and the loader's.
///
/// JSON form (every key optional; absent keys take the defaults, unknown keys are errors naming their path):
/// ```json
/// {"transports": ["http", "file", "data"], "codecs": ["png", "jpeg", "gif", "webp"],
///  "imageCache": {"name": "memory", "settings": {…}}, "dataCache": {"name": "disk", "settings": {…}},
///  "loader": {"maxConcurrentLoads": 8, "retry": {"maxAttempts": 3}, "limits": {"maxPixels": 100000000}},
///  "processing": {"thumbnail": [{"name": "resize", "settings": {"width": 200, "height": 200, "mode": "fill"}}]},
///  "interceptors": [{"name": "headers", "settings": {…}}],
///  "detectors": [{"name": "faces", "settings": {…}}]}
/// ```
public struct ImagoConfiguration: Sendable, Hashable {
    /// Transports, by factory name; later ones win for a scheme.
    public var transports: [PluginSpec]
    /// Codecs, by factory name; later ones are asked first when sniffing.
    public var codecs: [PluginSpec]
    /// The memory cache, or `nil` for none.
    public var imageCache: PluginSpec?
    /// The disk cache, or `nil` for none.
    public var dataCache: PluginSpec?
    /// The loader's scheduling, limits and retries.
    public var loader: LoaderSettings
    /// Named processing presets: processors, by factory name, a load can ask for by the preset's name
    /// (`ImageLoader.processors(named:)`). A preset written as a string in the options grammar
    /// (`"card": "w=600,h=400,fit=cover,g=sm"`) is one spec of the `options` factory (`optionsPresetName`).
    public var processing: [String: [PluginSpec]]
    /// Interceptors wrapped around every load, by factory name, outermost first (after any the registry already
    /// has).
    public var interceptors: [PluginSpec]
    /// Detectors, by factory name (none by default); later ones are asked first for the kinds they find.
    public var detectors: [PluginSpec] = []
    /// Sections owned by applications built on the toolkit (`serve` for `imago serve`), kept as JSON for them to
    /// read. A file may hold a section only when `defaults` has it, so a misspelt key is still an error.
    public var sections: [String: JSONValue]

    /// Creates a configuration.
    public init(
        transports: [PluginSpec] = [], codecs: [PluginSpec] = [], imageCache: PluginSpec? = nil,
        dataCache: PluginSpec? = nil, loader: LoaderSettings = LoaderSettings(),
        processing: [String: [PluginSpec]] = [:], sections: [String: JSONValue] = [:],
        interceptors: [PluginSpec] = []
    ) {
        self.processing = processing
        self.interceptors = interceptors
        self.transports = transports
        self.codecs = codecs
        self.imageCache = imageCache
        self.dataCache = dataCache
        self.loader = loader
        self.sections = sections
    }

    /// Reads a configuration from JSON, starting from `defaults` for every key left out.
    public init(json value: JSONValue, defaults: ImagoConfiguration = ImagoConfiguration()) throws {
        let reader = try ConfigReader(value)
        func specs(_ key: String, _ fallback: [PluginSpec]) throws -> [PluginSpec] {
            guard let items = try reader.array(key) else { return fallback }
            return try items.enumerated().map { try PluginSpec($1, path: "\(key)[\($0)]") }
        }
        func spec(_ key: String, _ fallback: PluginSpec?) throws -> PluginSpec? {
            // An explicit null or false turns the cache off; an absent key keeps the default.
            guard let item = reader.value(key) else { return Self.isPresent(value, key) ? nil : fallback }
            if case .bool(false) = item { return nil }
            return try PluginSpec(item, path: key)
        }
        self.init(
            transports: try specs("transports", defaults.transports),
            codecs: try specs("codecs", defaults.codecs),
            imageCache: try spec("imageCache", defaults.imageCache),
            dataCache: try spec("dataCache", defaults.dataCache),
            loader: try Self.loaderSettings(reader, defaults: defaults.loader),
            processing: try Self.presets(reader, defaults: defaults.processing),
            sections: defaults.sections.reduce(into: [:]) { sections, section in
                sections[section.key] = reader.value(section.key) ?? section.value
            },
            interceptors: try specs("interceptors", defaults.interceptors))
        detectors = try specs("detectors", defaults.detectors)
        try reader.finish()
    }

    /// Reads a configuration file; errors name the file and the key's path.
    public init(contentsOf url: URL, defaults: ImagoConfiguration = ImagoConfiguration()) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ImagoError(.invalidConfiguration, "cannot read the configuration file", source: url.path)
        }
        do {
            try self.init(json: try JSONValue.parse(data), defaults: defaults)
        } catch let error as ImagoError {
            throw error.naming(url.path)
        }
    }

    /// The JSON form, which `init(json:)` reads back to an equal configuration.
    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "transports": .array(transports.map(\.json)),
            "codecs": .array(codecs.map(\.json)),
            "imageCache": imageCache?.json ?? .null,
            "dataCache": dataCache?.json ?? .null,
            "loader": loader.json,
        ]
        if !processing.isEmpty {
            object["processing"] = .object(
                processing.mapValues { specs in
                    Self.optionsText(of: specs).map(JSONValue.string) ?? .array(specs.map(\.json))
                })
        }
        if !interceptors.isEmpty { object["interceptors"] = .array(interceptors.map(\.json)) }
        if !detectors.isEmpty { object["detectors"] = .array(detectors.map(\.json)) }
        object.merge(sections) { builtIn, _ in builtIn }
        return .object(object)
    }

    /// `processing`: an object of preset names to arrays of processor specs; presets given replace or add to the
    /// defaults' of the same name.
    private static func presets(_ reader: ConfigReader, defaults: [String: [PluginSpec]]) throws
        -> [String: [PluginSpec]]
    {
        guard let value = reader.value("processing") else { return defaults }
        guard case .object(let entries) = value else {
            throw ConfigReader.error("processing", "expected an object of preset names, found \(value.typeName)")
        }
        var presets = defaults
        for (name, item) in entries {
            let path = "processing.\(name)"
            if case .string(let text) = item {
                presets[name] = [PluginSpec(optionsPresetName, settings: .object(["options": .string(text)]))]
                continue
            }
            guard case .array(let items) = item else {
                throw ConfigReader.error(
                    path, "expected an array of processors or an options string, found \(item.typeName)")
            }
            presets[name] = try items.enumerated().map { try PluginSpec($1, path: "\(path)[\($0)]") }
        }
        return presets
    }

    /// The factory name of presets written as option strings (the umbrella registers it).
    public static let optionsPresetName = "options"

    /// The options string of a preset written as one (`"w=600,h=400"`), or nil for a processor list.
    public static func optionsText(of specs: [PluginSpec]) -> String? {
        guard specs.count == 1, specs[0].name == optionsPresetName, case .object(let settings) = specs[0].settings,
            settings.count == 1, case .string(let text)? = settings["options"]
        else { return nil }
        return text
    }

    private static func isPresent(_ value: JSONValue, _ key: String) -> Bool {
        if case .object(let values) = value { return values[key] != nil }
        return false
    }

    private static func loaderSettings(_ reader: ConfigReader, defaults: LoaderSettings) throws -> LoaderSettings {
        guard reader.value("loader") != nil else { return defaults }
        let loader = try reader.object("loader")
        let settings = try LoaderSettings(loader, defaults: defaults)
        try loader.finish()
        return settings
    }
}
