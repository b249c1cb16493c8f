import Foundation

/// A registry's plugins at one moment, in lookup order, read without any lock.
///
/// A loader takes one when it is made, so plugin code (`schemes`, `canDecode`) never runs under the registry's
/// lock, and registering a plugin later does not change a loader already made.
struct PluginSnapshot: Sendable {
    /// Transports, most recent first.
    let transports: [any ImageTransport]
    /// Decoders, in the order they are asked (most recent first).
    let decoders: [any ImageDecoder]
    let imageCache: (any ImageCache)?
    let dataCache: (any DataCache)?
    /// The named processing presets.
    let presets: [String: [any ImageProcessor]]

    /// The transport for `url`'s scheme; throws `unsupportedScheme` naming the URL when none serves it.
    func transport(serving url: URL) throws -> any ImageTransport {
        let scheme = url.scheme?.lowercased() ?? ""
        guard let transport = transports.first(where: { $0.schemes.contains(scheme) }) else {
            throw ImagoError(
                .unsupportedScheme, "unsupported scheme \"\(url.scheme ?? "")\"", source: url.absoluteString)
        }
        return transport
    }

    /// The decoder that recognises `data`'s first bytes, after the byte limit is checked; throws `decodingFailed`
    /// ("not an image") when none does.
    func decoder(for data: Data, limits: DecodeLimits) throws -> any ImageDecoder {
        try limits.check(byteCount: data.count)
        let header = data.prefix(ImageFormat.sniffLength)
        guard let decoder = decoders.first(where: { $0.canDecode(header) }) else {
            throw ImagoError(.decodingFailed(format: nil), "not an image: unknown format")
        }
        return decoder
    }
}

extension PluginRegistry {
    /// The plugins registered now, copied under the lock and used outside it.
    var snapshot: PluginSnapshot {
        state.withLock { state in
            PluginSnapshot(
                transports: state.transports.reversed(), decoders: state.decoders.reversed(),
                imageCache: state.imageCache, dataCache: state.dataCache, presets: state.presets)
        }
    }
}
