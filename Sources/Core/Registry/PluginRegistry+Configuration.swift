/// Building registries from configurations.
extension PluginRegistry {
    /// A new registry with this one's factories, presets and interceptors, and the plugins `configuration` names,
    /// built with their settings. Unknown names and bad settings throw `invalidConfiguration` naming the key's path.
    public func configured(by configuration: ImagoConfiguration) throws -> PluginRegistry {
        var builder = Builder()
        builder.contents.factories = factories
        builder.contents.presets = presets
        builder.contents.interceptors = interceptors
        for (index, spec) in configuration.transports.enumerated() {
            let transport: any ImageTransport = try build(spec, .transport, path: "transports[\(index)]")
            builder.add(transport)
        }
        for (index, spec) in configuration.codecs.enumerated() {
            builder.add(try build(spec, .codec, path: "codecs[\(index)]") as Codec)
        }
        for (index, spec) in configuration.interceptors.enumerated() {
            let interceptor: any ImageInterceptor = try build(spec, .interceptor, path: "interceptors[\(index)]")
            builder.add(interceptor)
        }
        for (index, spec) in configuration.detectors.enumerated() {
            let detector: any ImageDetector = try build(spec, .detector, path: "detectors[\(index)]")
            builder.add(detector)
        }
        if let spec = configuration.imageCache {
            builder.imageCache = try build(spec, .imageCache, path: "imageCache") as any ImageCache
        }
        if let spec = configuration.dataCache {
            builder.setDataCache(try build(spec, .dataCache, path: "dataCache") as any DataCache, named: spec.name)
        }
        for (name, specs) in configuration.processing.sorted(by: { $0.key < $1.key }) {
            let processors = try specs.enumerated().map { index, spec in
                try build(spec, .processor, path: "processing.\(name)[\(index)]") as any ImageProcessor
            }
            builder.add(preset: name, processors)
        }
        return builder.build()
    }

    /// The configuration that names every registered factory with its default settings, in name order
    /// (for codecs and transports), with the given caches and loader settings.
    public func defaultConfiguration(
        transports: [String]? = nil, codecs: [String]? = nil, imageCache: String? = "memory",
        dataCache: String? = "disk",
        loader: LoaderSettings = LoaderSettings()
    ) -> ImagoConfiguration {
        func spec<Plugin>(_ name: String?, _ kind: PluginKind, _: Plugin.Type) -> PluginSpec? {
            guard let name, let factory: PluginFactory<Plugin> = factories.factory(kind, named: name) else {
                return nil
            }
            return PluginSpec(name, settings: factory.defaultSettings)
        }
        return ImagoConfiguration(
            transports: (transports ?? factoryNames(.transport)).compactMap {
                spec($0, .transport, (any ImageTransport).self)
            },
            codecs: (codecs ?? factoryNames(.codec)).compactMap { spec($0, .codec, Codec.self) },
            imageCache: spec(imageCache, .imageCache, (any ImageCache).self),
            dataCache: spec(dataCache, .dataCache, (any DataCache).self),
            loader: loader)
    }

    private func build<Plugin>(_ spec: PluginSpec, _ kind: PluginKind, path: String) throws -> Plugin {
        try factories.build(spec, kind: kind, path: path, settingsPath: "\(path).settings")
    }
}
