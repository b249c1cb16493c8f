/// Building registries from configurations.
extension PluginRegistry {
    /// A new registry with this one's factories and the plugins `configuration` names, built with their
    /// settings. Unknown names and bad settings throw `invalidConfiguration` naming the key's path.
    public func configured(by configuration: ImagoConfiguration) throws -> PluginRegistry {
        let snapshot = state.withLock { $0 }
        var fresh = PluginRegistry.State()
        fresh.transportFactories = snapshot.transportFactories
        fresh.codecFactories = snapshot.codecFactories
        fresh.imageCacheFactories = snapshot.imageCacheFactories
        fresh.dataCacheFactories = snapshot.dataCacheFactories
        fresh.processorFactories = snapshot.processorFactories
        fresh.presets = snapshot.presets
        let registry = PluginRegistry(state: fresh)

        for (index, spec) in configuration.transports.enumerated() {
            let path = "transports[\(index)]"
            registry.register(try Self.build(spec, from: snapshot.transportFactories, kind: "transport", path: path))
        }
        for (index, spec) in configuration.codecs.enumerated() {
            let path = "codecs[\(index)]"
            registry.register(try Self.build(spec, from: snapshot.codecFactories, kind: "codec", path: path))
        }
        if let spec = configuration.imageCache {
            registry.imageCache = try Self.build(
                spec, from: snapshot.imageCacheFactories, kind: "image cache", path: "imageCache")
        }
        if let spec = configuration.dataCache {
            registry.dataCache = try Self.build(
                spec, from: snapshot.dataCacheFactories, kind: "data cache", path: "dataCache")
        }
        for (name, specs) in configuration.processing.sorted(by: { $0.key < $1.key }) {
            let processors = try specs.enumerated().map { index, spec in
                try Self.build(
                    spec, from: snapshot.processorFactories, kind: "processor", path: "processing.\(name)[\(index)]")
            }
            registry.registerPreset(name, processors)
        }
        return registry
    }

    /// The configuration that names every registered factory with its default settings, in name order
    /// (for codecs and transports), with the given caches and loader settings.
    public func defaultConfiguration(
        transports: [String]? = nil, codecs: [String]? = nil, imageCache: String? = "memory",
        dataCache: String? = "disk",
        loader: LoaderSettings = LoaderSettings()
    ) -> ImagoConfiguration {
        state.withLock { state in
            func spec<P>(_ name: String?, _ factories: [String: PluginFactory<P>]) -> PluginSpec? {
                guard let name, let factory = factories[name] else { return nil }
                return PluginSpec(name, settings: factory.defaultSettings)
            }
            return ImagoConfiguration(
                transports: (transports ?? state.transportFactories.keys.sorted()).compactMap {
                    spec($0, state.transportFactories)
                },
                codecs: (codecs ?? state.codecFactories.keys.sorted()).compactMap { spec($0, state.codecFactories) },
                imageCache: spec(imageCache, state.imageCacheFactories),
                dataCache: spec(dataCache, state.dataCacheFactories),
                loader: loader)
        }
    }

    private static func build<P>(
        _ spec: PluginSpec, from factories: [String: PluginFactory<P>], kind: String, path: String
    )
        throws -> P
    {
        guard let factory = factories[spec.name] else {
            throw ConfigReader.error(path, "unknown \(kind) \"\(spec.name)\" (known: \(list(factories.keys.sorted())))")
        }
        return try factory.build(spec.settings, path: "\(path).settings")
    }
}
