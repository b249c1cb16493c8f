extension PluginRegistry {
    /// Collects plugins, factories, presets and interceptors, then builds the immutable `PluginRegistry` a loader
    /// uses (as Coil's `ComponentRegistry.Builder`). One verb adds anything: `add(_:)`.
    ///
    /// ```swift
    /// let registry = PluginRegistry.standard().with {
    ///     $0.add(MemoryTransport())  // serves mem://, asked before the built-in transports
    ///     $0.add(OfflineInterceptor())
    /// }
    /// ```
    public struct Builder: Sendable {
        /// What the registry will hold, in lookup order.
        var contents: Contents

        /// An empty builder.
        public init() { contents = Contents() }

        /// A builder holding everything `registry` holds, to build a changed copy of it.
        public init(_ registry: PluginRegistry) { contents = registry.contents }

        /// The registry of everything added so far.
        public func build() -> PluginRegistry {
            var contents = contents
            contents.dataCacheName = contents.dataCache.map {
                contents.dataCacheName ?? String(describing: type(of: $0))
            }
            return PluginRegistry(contents)
        }

        /// The memory cache of decoded images, if any.
        public var imageCache: (any ImageCache)? {
            get { contents.imageCache }
            set { contents.imageCache = newValue }
        }
        /// The data cache of encoded bytes, if any; its hits are reported under its type's name unless it is set
        /// with `setDataCache(_:named:)`.
        public var dataCache: (any DataCache)? {
            get { contents.dataCache }
            set { setDataCache(newValue, named: nil) }
        }

        /// Sets the data cache, with the name its hits are reported under when its entries name no layer.
        public mutating func setDataCache(_ cache: (any DataCache)?, named name: String?) {
            contents.dataCache = cache
            contents.dataCacheName = name
        }

        // MARK: Plugins

        // Generic, so that a type that decodes and encodes (`PNGCodec()`) takes the overload that adds it as both.

        /// Adds a transport; it takes precedence over earlier ones for the schemes it serves.
        public mutating func add<Transport: ImageTransport>(_ transport: Transport) {
            add(transport as any ImageTransport)
        }
        /// Adds a decoder; it is asked before the earlier ones.
        public mutating func add<Decoder: ImageDecoder>(_ decoder: Decoder) { add(decoder as any ImageDecoder) }
        /// Adds an encoder; it takes precedence over earlier ones for its format.
        public mutating func add<Encoder: ImageEncoder>(_ encoder: Encoder) { add(encoder as any ImageEncoder) }
        /// Adds a type that decodes and encodes (a codec such as `PNGCodec()`) as both.
        public mutating func add<Plugin: ImageDecoder & ImageEncoder>(_ codec: Plugin) {
            add(codec as any ImageDecoder)
            add(codec as any ImageEncoder)
        }
        /// Adds a codec's decoder and encoder.
        public mutating func add(_ codec: Codec) {
            if let decoder = codec.decoder { add(decoder) }
            if let encoder = codec.encoder { add(encoder) }
        }
        /// Wraps every load in `interceptor`, inside the ones added before it.
        public mutating func add<Interceptor: ImageInterceptor>(_ interceptor: Interceptor) {
            add(interceptor as any ImageInterceptor)
        }

        // For a value already typed `any ImageTransport` (`cond ? a as any ImageTransport : b`), which a generic
        // overload cannot take; a concrete plugin takes the generic ones above.

        /// Adds a transport.
        @_disfavoredOverload public mutating func add(_ transport: any ImageTransport) {
            contents.transports.insert(transport, at: 0)
        }
        /// Adds a decoder.
        @_disfavoredOverload public mutating func add(_ decoder: any ImageDecoder) {
            contents.decoders.insert(decoder, at: 0)
        }
        /// Adds an encoder.
        @_disfavoredOverload public mutating func add(_ encoder: any ImageEncoder) {
            contents.encoders.insert(encoder, at: 0)
        }
        /// Wraps every load in `interceptor`.
        @_disfavoredOverload public mutating func add(_ interceptor: any ImageInterceptor) {
            contents.interceptors.append(interceptor)
        }

        // MARK: Factories and presets

        /// Makes a transport nameable in configurations (`transports`).
        public mutating func add(_ factory: PluginFactory<any ImageTransport>) { add(factory, as: .transport) }
        /// Makes a codec nameable in configurations (`codecs`).
        public mutating func add(_ factory: PluginFactory<Codec>) { add(factory, as: .codec) }
        /// Makes a memory cache nameable in configurations (`imageCache`).
        public mutating func add(_ factory: PluginFactory<any ImageCache>) { add(factory, as: .imageCache) }
        /// Makes a data cache nameable in configurations (`dataCache`).
        public mutating func add(_ factory: PluginFactory<any DataCache>) { add(factory, as: .dataCache) }
        /// Makes a processor nameable in configurations (`processing`).
        public mutating func add(_ factory: PluginFactory<any ImageProcessor>) { add(factory, as: .processor) }
        /// Makes an interceptor nameable in configurations (`interceptors`).
        public mutating func add(_ factory: PluginFactory<any ImageInterceptor>) { add(factory, as: .interceptor) }

        private mutating func add<Plugin>(_ factory: PluginFactory<Plugin>, as kind: PluginKind) {
            contents.factories.add(factory, as: kind)
        }

        /// Adds every factory of `factories`; one of a name already added replaces it.
        public mutating func add(_ factories: PluginFactories) {
            factories.transports.forEach { add($0) }
            factories.codecs.forEach { add($0) }
            factories.imageCaches.forEach { add($0) }
            factories.dataCaches.forEach { add($0) }
            factories.processors.forEach { add($0) }
            factories.interceptors.forEach { add($0) }
            factories.detectors.forEach { add($0) }
        }

        /// Makes `processors` a named preset a load can ask for (`processors(named:)`), replacing one of that name.
        public mutating func add(preset name: String, _ processors: [any ImageProcessor]) {
            contents.presets[name] = processors
        }
    }

    /// A copy of this registry changed by `changes`, made on a builder holding everything this one holds:
    /// `registry.with { $0.add(MemoryTransport()) }`.
    public func with(_ changes: (inout Builder) throws -> Void) rethrows -> PluginRegistry {
        var builder = Builder(self)
        try changes(&builder)
        return builder.build()
    }
}
