import Foundation

/// Loaders built from the standard plugins and from configurations.
extension ImageLoader {
    /// A loader of every built-in plugin with the embedded default configuration.
    public static func standard(settings: LoaderSettings = LoaderSettings()) -> ImageLoader {
        ImageLoader(registry: PluginRegistry.standard(), settings: settings)
    }

    /// A loader of the plugins `configuration` names (resolved by the standard factories) with its loader
    /// settings. An unknown plugin name or a bad setting throws `invalidConfiguration` naming the key's path.
    public convenience init(configuration: ImagoConfiguration) throws {
        let registry = try PluginRegistry.standardFactories().configured(by: configuration)
        self.init(registry: registry, settings: configuration.loader)
    }

    /// A loader configured by a JSON file; keys left out take the embedded defaults. Errors name the file and
    /// the key's path.
    public convenience init(contentsOf url: URL) throws {
        let defaults = PluginRegistry.standardFactories().standardConfiguration()
        let configuration = try ImagoConfiguration(contentsOf: url, defaults: defaults)
        let registry: PluginRegistry
        do {
            registry = try PluginRegistry.standardFactories().configured(by: configuration)
        } catch let error as ImagoError {
            throw error.naming(url.path)
        }
        self.init(registry: registry, settings: configuration.loader)
    }
}
