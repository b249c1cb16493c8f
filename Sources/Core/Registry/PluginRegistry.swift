import Foundation
import Synchronization

/// Holds the plugins a loader uses, and the named factories a configuration can refer to.
///
/// Lookups ask the plugins in order, most recently registered first, and the first that accepts wins, so a
/// user's plugin registered after the built-ins overrides them.
public final class PluginRegistry: Sendable {
    struct State {
        var transports: [any ImageTransport] = []
        var decoders: [any ImageDecoder] = []
        var encoders: [any ImageEncoder] = []
        var imageCache: (any ImageCache)?
        var dataCache: (any DataCache)?
        var transportFactories: [String: PluginFactory<any ImageTransport>] = [:]
        var codecFactories: [String: PluginFactory<Codec>] = [:]
        var imageCacheFactories: [String: PluginFactory<any ImageCache>] = [:]
        var dataCacheFactories: [String: PluginFactory<any DataCache>] = [:]
        var processorFactories: [String: PluginFactory<any ImageProcessor>] = [:]
        var presets: [String: [any ImageProcessor]] = [:]
    }
    let state: Mutex<State>

    /// An empty registry.
    public init() { state = Mutex(State()) }

    init(state: State) { self.state = Mutex(state) }

    // MARK: Plugins

    /// Adds a transport; it takes precedence over earlier ones for the schemes it serves.
    public func register(_ transport: any ImageTransport) { state.withLock { $0.transports.append(transport) } }
    /// Adds a decoder; it is asked before the earlier ones.
    public func register(_ decoder: any ImageDecoder) { state.withLock { $0.decoders.append(decoder) } }
    /// Adds an encoder; it takes precedence over earlier ones for its format.
    public func register(_ encoder: any ImageEncoder) { state.withLock { $0.encoders.append(encoder) } }
    /// Adds a codec's decoder and encoder.
    public func register(_ codec: Codec) {
        if let decoder = codec.decoder { register(decoder) }
        if let encoder = codec.encoder { register(encoder) }
    }

    /// The memory cache of decoded images, if any.
    public var imageCache: (any ImageCache)? {
        get { state.withLock { $0.imageCache } }
        set { state.withLock { $0.imageCache = newValue } }
    }
    /// The disk cache of encoded bytes, if any.
    public var dataCache: (any DataCache)? {
        get { state.withLock { $0.dataCache } }
        set { state.withLock { $0.dataCache = newValue } }
    }

    /// Every transport, most recent first.
    public var transports: [any ImageTransport] { state.withLock { $0.transports.reversed() } }
    /// Every decoder, in the order they are asked (most recent first).
    public var decoders: [any ImageDecoder] { state.withLock { $0.decoders.reversed() } }
    /// Every encoder, most recent first.
    public var encoders: [any ImageEncoder] { state.withLock { $0.encoders.reversed() } }

    /// The transport for `url`'s scheme, or `nil` when none serves it.
    public func transport(for url: URL) -> (any ImageTransport)? {
        let scheme = url.scheme?.lowercased() ?? ""
        // Plugin code (`schemes`, `canDecode`) runs outside the lock, on a copy of the list.
        return transports.first { $0.schemes.contains(scheme) }
    }

    /// The decoder for `data`, chosen by sniffing its first bytes, or `nil` when none recognises them.
    public func decoder(for data: Data) -> (any ImageDecoder)? {
        let header = data.prefix(ImageFormat.sniffLength)
        return decoders.first { $0.canDecode(header) }
    }

    /// The decoder of `format`, if one is registered.
    public func decoder(for format: ImageFormat) -> (any ImageDecoder)? {
        decoders.first { $0.format == format }
    }

    /// The encoder of `format`, if one is registered.
    public func encoder(for format: ImageFormat) -> (any ImageEncoder)? {
        encoders.first { $0.format == format }
    }

    // MARK: Factories

    /// Makes a transport nameable in configurations.
    public func registerFactory(_ factory: PluginFactory<any ImageTransport>) {
        state.withLock { $0.transportFactories[factory.name] = factory }
    }
    /// Makes a codec nameable in configurations.
    public func registerFactory(_ factory: PluginFactory<Codec>) {
        state.withLock { $0.codecFactories[factory.name] = factory }
    }
    /// Makes a memory cache nameable in configurations.
    public func registerFactory(_ factory: PluginFactory<any ImageCache>) {
        state.withLock { $0.imageCacheFactories[factory.name] = factory }
    }
    /// Makes a data cache nameable in configurations.
    public func registerFactory(_ factory: PluginFactory<any DataCache>) {
        state.withLock { $0.dataCacheFactories[factory.name] = factory }
    }
    /// Makes a processor nameable in configurations.
    public func registerFactory(_ factory: PluginFactory<any ImageProcessor>) {
        state.withLock { $0.processorFactories[factory.name] = factory }
    }

    /// Names of the registered transport factories, sorted.
    public var transportFactoryNames: [String] { state.withLock { $0.transportFactories.keys.sorted() } }
    /// Names of the registered codec factories, sorted.
    public var codecFactoryNames: [String] { state.withLock { $0.codecFactories.keys.sorted() } }

    /// Names of the registered processor factories, sorted.
    public var processorFactoryNames: [String] { state.withLock { $0.processorFactories.keys.sorted() } }

    /// Builds a processor by name, for example `resize` with `{"width": 100, "height": 100}`; an unknown name
    /// throws `invalidConfiguration` listing the known ones.
    public func makeProcessor(named name: String, settings: JSONValue = .object([:]), path: String = "processor") throws
        -> any ImageProcessor
    {
        let (factory, known) = state.withLock { ($0.processorFactories[name], $0.processorFactories.keys.sorted()) }
        guard let factory else {
            throw ConfigReader.error(path, "unknown processor \"\(name)\" (known: \(Self.list(known)))")
        }
        return try factory.build(settings, path: path)
    }

    // MARK: Processing presets

    /// Makes `processors` a named preset a load can ask for (`processors(named:)`), replacing one of that name.
    public func registerPreset(_ name: String, _ processors: [any ImageProcessor]) {
        state.withLock { $0.presets[name] = processors }
    }

    /// Names of the processing presets, sorted.
    public var presetNames: [String] { state.withLock { $0.presets.keys.sorted() } }

    /// The processors of the preset `name`; an unknown name throws `invalidConfiguration` listing the known ones.
    public func processors(named name: String) throws -> [any ImageProcessor] {
        let (preset, known) = state.withLock { ($0.presets[name], $0.presets.keys.sorted()) }
        guard let preset else {
            throw ImagoError(
                .invalidConfiguration, "unknown processing preset \"\(name)\" (known: \(Self.list(known)))")
        }
        return preset
    }

    /// `"a", "b"`, or `none`.
    static func list(_ names: [String]) -> String {
        names.isEmpty ? "none" : names.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}

extension PluginRegistry {
    /// The transport for `url`'s scheme; throws `unsupportedScheme` naming the URL when none serves it.
    public func transport(serving url: URL) throws -> any ImageTransport {
        guard let transport = transport(for: url) else {
            throw ImagoError(
                .unsupportedScheme, "unsupported scheme \"\(url.scheme ?? "")\"", source: url.absoluteString)
        }
        return transport
    }

    /// The decoder for `data`, after the byte limit is checked; throws `decodingFailed` ("not an image") when no
    /// decoder recognises the bytes. The one way the loader and the tools choose a decoder.
    public func decoder(for data: Data, limits: DecodeLimits) throws -> any ImageDecoder {
        try limits.check(byteCount: data.count)
        guard let decoder = decoder(for: data) else {
            throw ImagoError(.decodingFailed(format: nil), "not an image: unknown format")
        }
        return decoder
    }
}
