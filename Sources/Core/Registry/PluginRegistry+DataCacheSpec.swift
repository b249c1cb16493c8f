/// Data caches built outside a configuration's `dataCache` key (serve's `resultStore`).
extension PluginRegistry {
    /// Builds the data cache `value` names (`"disk"` or `{"name": "redis", "settings": {…}}`) with this registry's
    /// data cache factories; unknown names and bad settings throw `invalidConfiguration` naming `path`.
    public func makeDataCache(_ value: JSONValue, path: String) throws -> any DataCache {
        try PluginBuildContext(factories: factories).makeDataCache(value, path: path).cache
    }
}
