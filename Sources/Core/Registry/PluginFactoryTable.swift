/// The kinds of plugin a configuration can name, each with its own factories.
public enum PluginKind: String, Sendable, CaseIterable {
    case transport
    case codec
    case imageCache = "image cache"
    case dataCache = "data cache"
    case processor
    case interceptor
    case detector
}

/// One table of factories keyed by plugin kind and name (the builder's `add(_:)` of factories fills it).
struct PluginFactoryTable: Sendable {
    private var factories: [PluginKind: [String: any Sendable]] = [:]

    mutating func add<Plugin>(_ factory: PluginFactory<Plugin>, as kind: PluginKind) {
        factories[kind, default: [:]][factory.name] = factory
    }

    func names(_ kind: PluginKind) -> [String] { factories[kind]?.keys.sorted() ?? [] }

    func factory<Plugin>(_ kind: PluginKind, named name: String) -> PluginFactory<Plugin>? {
        factories[kind]?[name] as? PluginFactory<Plugin>
    }

    /// Builds the plugin `spec` names; an unknown name throws `invalidConfiguration` at `path` listing the known
    /// ones, bad settings throw naming `settingsPath`.
    func build<Plugin>(_ spec: PluginSpec, kind: PluginKind, path: String, settingsPath: String) throws -> Plugin {
        guard let factory: PluginFactory<Plugin> = factory(kind, named: spec.name) else {
            let known = PluginRegistry.list(names(kind))
            throw ConfigReader.error(path, "unknown \(kind.rawValue) \"\(spec.name)\" (known: \(known))")
        }
        return try factory.build(spec.settings, path: settingsPath, context: PluginBuildContext(factories: self))
    }
}

/// What a factory's `make` may use besides its own settings: the other factories of the registry being built,
/// for a plugin made of plugins (the `tiered` data cache builds its layers here).
public struct PluginBuildContext: Sendable {
    let factories: PluginFactoryTable

    /// A context without factories: a composite plugin built in it finds none of its parts.
    public static let empty = PluginBuildContext(factories: PluginFactoryTable())

    /// Builds the data cache `value` names (`"disk"` or `{"name": "redis", "settings": {…}}`), with the factory's
    /// name; unknown names and bad settings throw `invalidConfiguration` naming `path`.
    public func makeDataCache(_ value: JSONValue, path: String) throws -> (name: String, cache: any DataCache) {
        let spec = try PluginSpec(value, path: path)
        let cache: any DataCache = try factories.build(
            spec, kind: .dataCache, path: path, settingsPath: "\(path).settings")
        return (spec.name, cache)
    }
}
