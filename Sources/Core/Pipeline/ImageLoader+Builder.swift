/// Making loaders, and changed copies of them, on a builder (as Coil's `ImageLoader.Builder` and `newBuilder()`).
extension ImageLoader {
    /// Everything a loader is made of: its plugins (a registry builder), settings, listeners and source policy.
    /// `add(_:)` adds anything: a plugin, a factory, an interceptor, a listener.
    ///
    /// ```swift
    /// let loader = ImageLoader(registry: .standard()) { builder in
    ///     builder.add(MemoryTransport())
    ///     builder.add(ImageLoadEventClosure { print($0.kind) })
    ///     builder.sourcePolicy = AllowedHosts(["images.example.com"])
    /// }
    /// let traced = loader.with { $0.add(TracingInterceptor()) }  // the same loader, one interceptor more
    /// ```
    public struct Builder: Sendable {
        /// The plugins, interceptors, presets and factories.
        public var plugins: PluginRegistry.Builder
        /// Scheduling, limits and retries.
        public var settings: LoaderSettings
        /// The listeners told about every load.
        public var eventListeners: [any ImageLoadEventListener]
        /// What may be fetched and connected to (`nil`: anything).
        public var sourcePolicy: (any SourceAccessPolicy)?
        /// How the loader waits between retries.
        var sleep: @Sendable (Double) async throws -> Void = ImageLoader.taskSleep

        /// A builder of a loader over `registry`'s plugins.
        public init(registry: PluginRegistry = PluginRegistry(), settings: LoaderSettings = LoaderSettings()) {
            plugins = PluginRegistry.Builder(registry)
            self.settings = settings
            eventListeners = []
        }

        /// A builder holding everything `loader` was made of, to make a changed copy of it.
        public init(_ loader: ImageLoader) {
            plugins = PluginRegistry.Builder(loader.registry)
            settings = loader.settings
            eventListeners = loader.eventListeners
            sourcePolicy = loader.sourcePolicy
            sleep = loader.fetchStage.sleep
        }

        /// A new loader of everything added so far. Loaders share nothing but their plugins: each has its own
        /// queues, in-flight work and statistics.
        public func build() -> ImageLoader {
            ImageLoader(
                registry: plugins.build(), settings: settings, eventListeners: eventListeners,
                sourcePolicy: sourcePolicy, sleep: sleep)
        }

        /// Tells `listener` about every load.
        public mutating func add<Listener: ImageLoadEventListener>(_ listener: Listener) {
            add(listener as any ImageLoadEventListener)
        }

        // The plugins' verbs, so one builder takes everything (`PluginRegistry.Builder` documents them).

        /// Adds a transport; it takes precedence over earlier ones for the schemes it serves.
        public mutating func add<Transport: ImageTransport>(_ transport: Transport) { plugins.add(transport) }
        /// Adds a decoder; it is asked before the earlier ones.
        public mutating func add<Decoder: ImageDecoder>(_ decoder: Decoder) { plugins.add(decoder) }
        /// Adds an encoder; it takes precedence over earlier ones for its format.
        public mutating func add<Encoder: ImageEncoder>(_ encoder: Encoder) { plugins.add(encoder) }
        /// Adds a type that decodes and encodes as both.
        public mutating func add<Plugin: ImageDecoder & ImageEncoder>(_ codec: Plugin) { plugins.add(codec) }
        /// Adds a codec's decoder and encoder.
        public mutating func add(_ codec: Codec) { plugins.add(codec) }
        /// Wraps every load in `interceptor`, inside the ones added before it.
        public mutating func add<Interceptor: ImageInterceptor>(_ interceptor: Interceptor) { plugins.add(interceptor) }
        /// Adds a transport typed `any ImageTransport`.
        @_disfavoredOverload public mutating func add(_ transport: any ImageTransport) { plugins.add(transport) }
        /// Adds a decoder typed `any ImageDecoder`.
        @_disfavoredOverload public mutating func add(_ decoder: any ImageDecoder) { plugins.add(decoder) }
        /// Adds an encoder typed `any ImageEncoder`.
        @_disfavoredOverload public mutating func add(_ encoder: any ImageEncoder) { plugins.add(encoder) }
        /// Adds an interceptor typed `any ImageInterceptor`.
        @_disfavoredOverload public mutating func add(_ interceptor: any ImageInterceptor) { plugins.add(interceptor) }
        /// Tells a listener typed `any ImageLoadEventListener` about every load.
        @_disfavoredOverload public mutating func add(_ listener: any ImageLoadEventListener) {
            eventListeners.append(listener)
        }
        /// Makes a transport nameable in configurations.
        public mutating func add(_ factory: PluginFactory<any ImageTransport>) { plugins.add(factory) }
        /// Makes a codec nameable in configurations.
        public mutating func add(_ factory: PluginFactory<Codec>) { plugins.add(factory) }
        /// Makes a memory cache nameable in configurations.
        public mutating func add(_ factory: PluginFactory<any ImageCache>) { plugins.add(factory) }
        /// Makes a data cache nameable in configurations.
        public mutating func add(_ factory: PluginFactory<any DataCache>) { plugins.add(factory) }
        /// Makes a processor nameable in configurations.
        public mutating func add(_ factory: PluginFactory<any ImageProcessor>) { plugins.add(factory) }
        /// Makes an interceptor nameable in configurations.
        public mutating func add(_ factory: PluginFactory<any ImageInterceptor>) { plugins.add(factory) }
        /// Adds every factory of `factories`.
        public mutating func add(_ factories: PluginFactories) { plugins.add(factories) }
        /// Makes `processors` a named preset.
        public mutating func add(preset name: String, _ processors: [any ImageProcessor]) {
            plugins.add(preset: name, processors)
        }

        /// The memory cache of decoded images, if any.
        public var imageCache: (any ImageCache)? {
            get { plugins.imageCache }
            set { plugins.imageCache = newValue }
        }
        /// The data cache of encoded bytes, if any.
        public var dataCache: (any DataCache)? {
            get { plugins.dataCache }
            set { plugins.dataCache = newValue }
        }
    }

    /// A loader over `registry`'s plugins, with what `configure` adds to them and sets: plugins, listeners, the
    /// source policy, settings (`ImageLoader(registry: .standard()) { $0.add(MemoryTransport()) }`).
    public convenience init(
        registry: PluginRegistry = PluginRegistry(), settings: LoaderSettings = LoaderSettings(),
        configure: (inout Builder) throws -> Void
    ) rethrows {
        var builder = Builder(registry: registry, settings: settings)
        try configure(&builder)
        self.init(
            registry: builder.plugins.build(), settings: builder.settings, eventListeners: builder.eventListeners,
            sourcePolicy: builder.sourcePolicy, sleep: builder.sleep)
    }

    /// A new loader with everything this one has (plugins, settings, listeners, source policy), changed by
    /// `changes`: `loader.with { $0.add(TracingInterceptor()) }`. This loader is unchanged; the two share no work in
    /// flight, only their plugins (and so their caches).
    public func with(_ changes: (inout Builder) throws -> Void) rethrows -> ImageLoader {
        var builder = Builder(self)
        try changes(&builder)
        return builder.build()
    }
}
