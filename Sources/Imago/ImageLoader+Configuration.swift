import Foundation

/// Loaders built from the standard plugins and from configurations.
extension ImageLoader {
    /// A loader of every built-in plugin with the embedded default configuration.
    public static func standard(settings: LoaderSettings = LoaderSettings()) -> ImageLoader {
        ImageLoader(registry: PluginRegistry.standard(), settings: settings)
    }

    /// A loader of every built-in plugin and what `configure` adds and sets (plugins, listeners, the source
    /// policy): `ImageLoader.standard { $0.add(MemoryTransport()) }`.
    public static func standard(
        settings: LoaderSettings = LoaderSettings(), _ configure: (inout Builder) throws -> Void
    ) rethrows -> ImageLoader {
        try ImageLoader(registry: PluginRegistry.standard(), settings: settings, configure: configure)
    }

    /// A loader of the plugins `configuration` names, resolved by the standard factories and `factories` (the
    /// caller's own), with its loader settings and processing presets. An unknown plugin name or a bad setting
    /// throws `invalidConfiguration` naming the key's path and the known names.
    public convenience init(configuration: ImagoConfiguration, factories: PluginFactories = PluginFactories()) throws {
        let registry = try PluginRegistry.standardFactories(adding: factories).configured(by: configuration)
        self.init(registry: registry, settings: configuration.loader)
    }

    /// A loader configured by a JSON file; keys left out take the embedded defaults (every built-in transport
    /// and codec, a memory cache and a disk cache). Errors name the file and the key's path.
    public convenience init(contentsOf url: URL) throws {
        try self.init(contentsOf: url, factories: PluginFactories())
    }

    /// A loader configured by a JSON file that may also name the caller's own plugins and processors, made by
    /// `factories`: keys left out take the embedded defaults exactly as `init(contentsOf:)` does. Errors name the
    /// file and the key's path.
    public convenience init(contentsOf url: URL, factories: PluginFactories) throws {
        let available = PluginRegistry.standardFactories(adding: factories)
        let configuration = try ImagoConfiguration(contentsOf: url, defaults: available.standardConfiguration())
        let registry: PluginRegistry
        do {
            registry = try available.configured(by: configuration)
        } catch let error as ImagoError {
            throw error.naming(url.path)
        }
        self.init(registry: registry, settings: configuration.loader)
    }
}
