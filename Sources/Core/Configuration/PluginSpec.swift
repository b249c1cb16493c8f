/// A plugin named in a configuration: `"http"`, or `{"name": "http", "settings": {…}}`.
public struct PluginSpec: Sendable, Hashable {
    /// The factory's name.
    public var name: String
    /// The plugin's settings (an object; empty means the plugin's defaults).
    public var settings: JSONValue

    /// Creates a spec.
    public init(_ name: String, settings: JSONValue = .object([:])) {
        self.name = name
        self.settings = settings
    }

    /// Reads a spec at `path`.
    init(_ value: JSONValue, path: String) throws {
        switch value {
        case .string(let name):
            self.init(name)
        case .object:
            let reader = try ConfigReader(value, path: path)
            guard let name = try reader.string("name") else {
                throw ConfigReader.error(reader.path(of: "name"), "missing plugin name")
            }
            self.init(name, settings: reader.value("settings") ?? .object([:]))
            try reader.finish()
        default:
            throw ConfigReader.error(
                path, "expected a plugin name or {\"name\": …, \"settings\": {…}}, found \(value.typeName)")
        }
    }

    /// The JSON form.
    var json: JSONValue { .object(["name": .string(name), "settings": settings]) }
}
