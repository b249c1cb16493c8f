extension PluginRegistry {
    /// Collects plugins, factories, presets and interceptors, then builds the immutable `PluginRegistry` a loader
    /// uses (as Coil's `ComponentRegistry.Builder`).
    ///
    /// ```swift
    /// var builder = PluginRegistry.Builder(.standard())
    /// builder.register(MemoryTransport())  // serves mem://, asked before the built-in transports
    /// builder.add(OfflineInterceptor())
    /// let loader = ImageLoader(registry: builder.build())
    /// ```
    public struct Builder: Sendable {
        var transports: [any ImageTransport] = []
        var decoders: [any ImageDecoder] = []
        var encoders: [any ImageEncoder] = []
        var interceptors: [any ImageInterceptor] = []
        var detectors: [any ImageDetector] = []
        var factories = PluginFactoryTable()
        var presets: [String: [any ImageProcessor]] = [:]
        var dataCacheName: String?
        /// The memory cache of decoded images, if any.
        public var imageCache: (any ImageCache)?
        /// The data cache of encoded bytes, if any; its hits are reported under its type's name unless it is set
        /// with `setDataCache(_:named:)`.
        public var dataCache: (any DataCache)? {
            didSet { dataCacheName = nil }
        }

        /// An empty builder.
        public init() {}

        /// A builder holding everything `registry` holds, to build a changed copy of it.
        public init(_ registry: PluginRegistry) {
            transports = registry.transports.reversed()
            decoders = registry.decoders.reversed()
            encoders = registry.encoders.reversed()
            interceptors = registry.interceptors
            detectors = registry.detectors.reversed()
            factories = registry.factories
            presets = registry.presets
            imageCache = registry.imageCache
            dataCache = registry.dataCache
            dataCacheName = registry.dataCacheName
        }

        /// The registry of everything registered so far.
        public func build() -> PluginRegistry { PluginRegistry(self) }

        // MARK: Plugins

        /// Adds a transport; it takes precedence over earlier ones for the schemes it serves.
        public mutating func register(_ transport: any ImageTransport) { transports.append(transport) }
        /// Adds a decoder; it is asked before the earlier ones.
        public mutating func register(_ decoder: any ImageDecoder) { decoders.append(decoder) }
        /// Adds an encoder; it takes precedence over earlier ones for its format.
        public mutating func register(_ encoder: any ImageEncoder) { encoders.append(encoder) }
        /// Adds a codec's decoder and encoder.
        public mutating func register(_ codec: Codec) {
            if let decoder = codec.decoder { register(decoder) }
            if let encoder = codec.encoder { register(encoder) }
        }

        /// Sets the data cache, with the name its hits are reported under when its entries name no layer.
        public mutating func setDataCache(_ cache: (any DataCache)?, named name: String) {
            dataCache = cache
            dataCacheName = name
        }

        /// Wraps every load in `interceptor`, inside the ones added before it.
        public mutating func add(_ interceptor: any ImageInterceptor) { interceptors.append(interceptor) }

        // MARK: Factories and presets

        /// Makes a transport nameable in configurations.
        public mutating func registerFactory(_ factory: PluginFactory<any ImageTransport>) {
            factories.add(factory, as: .transport)
        }
        /// Makes a codec nameable in configurations.
        public mutating func registerFactory(_ factory: PluginFactory<Codec>) { factories.add(factory, as: .codec) }
        /// Makes a memory cache nameable in configurations.
        public mutating func registerFactory(_ factory: PluginFactory<any ImageCache>) {
            factories.add(factory, as: .imageCache)
        }
        /// Makes a data cache nameable in configurations.
        public mutating func registerFactory(_ factory: PluginFactory<any DataCache>) {
            factories.add(factory, as: .dataCache)
        }
        /// Makes a processor nameable in configurations.
        public mutating func registerFactory(_ factory: PluginFactory<any ImageProcessor>) {
            factories.add(factory, as: .processor)
        }

        /// Registers every factory of `factories`; one of a name already registered replaces it.
        public mutating func registerFactories(_ factories: PluginFactories) {
            factories.transports.forEach { registerFactory($0) }
            factories.codecs.forEach { registerFactory($0) }
            factories.imageCaches.forEach { registerFactory($0) }
            factories.dataCaches.forEach { registerFactory($0) }
            factories.processors.forEach { registerFactory($0) }
            factories.detectors.forEach { registerFactory($0) }
        }

        /// Makes `processors` a named preset a load can ask for (`processors(named:)`), replacing one of that name.
        public mutating func registerPreset(_ name: String, _ processors: [any ImageProcessor]) {
            presets[name] = processors
        }
    }
}
