import Foundation

/// The plugins a loader uses, and the named factories a configuration can refer to: an immutable value, made once
/// by a `PluginRegistry.Builder`.
///
/// Lookups ask the plugins in order, most recently registered first, and the first that accepts wins, so a user's
/// plugin registered after the built-ins overrides them. Nothing can be registered into a registry once built:
/// to change one, make a builder from it (`PluginRegistry.Builder(registry)`), change that, and build a new
/// registry for a new loader.
public struct PluginRegistry: Sendable {
    /// Everything a registry holds, in lookup order (a builder keeps one and hands it over at `build()`).
    struct Contents: Sendable {
        var transports: [any ImageTransport] = []
        var decoders: [any ImageDecoder] = []
        var encoders: [any ImageEncoder] = []
        var imageCache: (any ImageCache)?
        var dataCache: (any DataCache)?
        var dataCacheName: String?
        var interceptors: [any ImageInterceptor] = []
        var detectors: [any ImageDetector] = []
        var presets: [String: [any ImageProcessor]] = [:]
        var factories = PluginFactoryTable()
    }
    private let stored: Contents
    /// What the deprecated mutators of 0.1.0's class (`PluginRegistry+Deprecated.swift`) changed, shared by the
    /// copies of this value as the class's state was; empty unless code written for 0.1.0 calls them.
    let legacy = LegacyRegistryChanges()
    /// What the registry holds now.
    var contents: Contents { legacy.contents ?? stored }

    /// Every transport, most recent first.
    public var transports: [any ImageTransport] { contents.transports }
    /// Every decoder, in the order they are asked (most recent first).
    public var decoders: [any ImageDecoder] { contents.decoders }
    /// Every encoder, most recent first.
    public var encoders: [any ImageEncoder] { contents.encoders }
    /// The name the data cache's hits are reported under when its entries do not name a layer (`disk`, `redis`, or
    /// the factory or type name of a user's cache).
    public var dataCacheName: String? { contents.dataCacheName }
    /// The interceptors wrapped around every load, outermost first (the first added sees the request first).
    public var interceptors: [any ImageInterceptor] { contents.interceptors }
    /// Every detector, most recent first (`detector(finding:)` asks them in this order).
    public var detectors: [any ImageDetector] { contents.detectors }
    /// The named processing presets.
    public var presets: [String: [any ImageProcessor]] { contents.presets }
    /// The factories a configuration can name, by kind.
    var factories: PluginFactoryTable { contents.factories }

    /// An empty registry.
    public init() { self.init(Contents()) }

    init(_ contents: Contents) { stored = contents }

    /// The memory cache of decoded images, if any.
    public var imageCache: (any ImageCache)? {
        get { contents.imageCache }
        @available(
            *, deprecated, message: "PluginRegistry is a value since 0.2.0: set imageCache on a PluginRegistry.Builder"
        )
        nonmutating set { legacy.change(stored) { $0.contents.imageCache = newValue } }
    }
    /// The data cache of encoded bytes, if any.
    public var dataCache: (any DataCache)? {
        get { contents.dataCache }
        @available(
            *, deprecated, message: "PluginRegistry is a value since 0.2.0: set dataCache on a PluginRegistry.Builder"
        )
        nonmutating set { legacy.change(stored) { $0.dataCache = newValue } }
    }

    /// This registry as it is now, unaffected by later changes through the deprecated mutators (a loader keeps one).
    var snapshot: PluginRegistry { PluginRegistry(contents) }

    // MARK: Lookups

    /// The transport for `url`'s scheme, or `nil` when none serves it.
    public func transport(for url: URL) -> (any ImageTransport)? {
        let scheme = url.scheme?.lowercased() ?? ""
        return transports.first { $0.schemes.contains(scheme) }
    }

    /// The transport for `url`'s scheme; throws `unsupportedScheme` naming the URL when none serves it.
    public func transport(serving url: URL) throws -> any ImageTransport {
        guard let transport = transport(for: url) else {
            throw ImagoError(
                .unsupportedScheme, "unsupported scheme \"\(url.scheme ?? "")\"", source: url.absoluteString)
        }
        return transport
    }

    /// The decoder for `data`, chosen by sniffing its first bytes, or `nil` when none recognises them.
    public func decoder(for data: Data) -> (any ImageDecoder)? {
        let header = data.prefix(ImageFormat.sniffLength)
        return decoders.first { $0.canDecode(header) }
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

    /// The decoder of `format`, if one is registered.
    public func decoder(for format: ImageFormat) -> (any ImageDecoder)? {
        decoders.first { $0.format == format }
    }

    /// The encoder of `format`, if one is registered.
    public func encoder(for format: ImageFormat) -> (any ImageEncoder)? {
        encoders.first { $0.format == format }
    }

    // MARK: Factories and presets

    /// Names of the registered factories of `kind`, sorted.
    public func factoryNames(_ kind: PluginKind) -> [String] { factories.names(kind) }

    /// Builds a processor by name, for example `resize` with `{"width": 100, "height": 100}`; an unknown name
    /// throws `invalidConfiguration` listing the known ones.
    public func makeProcessor(named name: String, settings: JSONValue = .object([:]), path: String = "processor") throws
        -> any ImageProcessor
    {
        try factories.build(PluginSpec(name, settings: settings), kind: .processor, path: path, settingsPath: path)
    }

    /// The processors of the preset `name`; an unknown name throws `invalidConfiguration` listing the known ones.
    public func processors(named name: String) throws -> [any ImageProcessor] {
        guard let preset = presets[name] else {
            throw ImagoError(
                .invalidConfiguration,
                "unknown processing preset \"\(name)\" (known: \(Self.list(presets.keys.sorted())))")
        }
        return preset
    }

    /// `"a", "b"`, or `none`.
    static func list(_ names: [String]) -> String {
        names.isEmpty ? "none" : names.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
