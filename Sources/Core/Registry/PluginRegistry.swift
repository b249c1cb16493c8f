import Foundation

/// The plugins a loader uses, and the named factories a configuration can refer to: an immutable value, made once
/// by a `PluginRegistry.Builder`.
///
/// Lookups ask the plugins in order, most recently registered first, and the first that accepts wins, so a user's
/// plugin registered after the built-ins overrides them. Nothing can be registered into a registry once built:
/// to change one, make a builder from it (`PluginRegistry.Builder(registry)`), change that, and build a new
/// registry for a new loader.
public struct PluginRegistry: Sendable {
    /// Every transport, most recent first.
    public let transports: [any ImageTransport]
    /// Every decoder, in the order they are asked (most recent first).
    public let decoders: [any ImageDecoder]
    /// Every encoder, most recent first.
    public let encoders: [any ImageEncoder]
    /// The memory cache of decoded images, if any.
    public let imageCache: (any ImageCache)?
    /// The data cache of encoded bytes, if any.
    public let dataCache: (any DataCache)?
    /// The name the data cache's hits are reported under when its entries do not name a layer (`disk`, `redis`, or
    /// the factory or type name of a user's cache).
    public let dataCacheName: String?
    /// The interceptors wrapped around every load, outermost first (the first added sees the request first).
    public let interceptors: [any ImageInterceptor]
    /// Every detector, most recent first (`detector(finding:)` asks them in this order).
    public let detectors: [any ImageDetector]
    /// The named processing presets.
    public let presets: [String: [any ImageProcessor]]
    /// The factories a configuration can name, by kind.
    let factories: PluginFactoryTable

    /// An empty registry.
    public init() { self.init(Builder()) }

    init(_ builder: Builder) {
        transports = builder.transports.reversed()
        decoders = builder.decoders.reversed()
        encoders = builder.encoders.reversed()
        imageCache = builder.imageCache
        dataCache = builder.dataCache
        dataCacheName = builder.dataCache.map { cache in
            builder.dataCacheName ?? String(describing: type(of: cache))
        }
        interceptors = builder.interceptors
        detectors = builder.detectors.reversed()
        presets = builder.presets
        factories = builder.factories
    }

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
