/// Building data caches from specs nested in other settings (the layers of a tiered cache).
extension PluginRegistry {
    /// Builds the data cache `value` names (`"disk"` or `{"name": "redis", "settings": {…}}`) with this registry's
    /// factories, with the factory's name; unknown names and bad settings throw `invalidConfiguration` naming `path`.
    public func makeDataCache(_ value: JSONValue, path: String) throws -> (name: String, cache: any DataCache) {
        let spec = try PluginSpec(value, path: path)
        guard let factory = state.withLock({ $0.dataCacheFactories[spec.name] }) else {
            let known = state.withLock { $0.dataCacheFactories.keys.sorted() }.map { "\"\($0)\"" }
            throw ConfigReader.error(
                path, "unknown data cache \"\(spec.name)\" (known: \(known.joined(separator: ", ")))")
        }
        return (spec.name, try factory.build(spec.settings, path: "\(path).settings"))
    }
}
