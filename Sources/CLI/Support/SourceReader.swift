import Foundation
import Imago

/// Fetches and decodes sources directly through the registry (transport by scheme, decoder by sniffing), for the
/// commands that need the image as stored: `info`, `convert`, `show`, `sheet`, `bench decode`.
struct SourceReader: Sendable {
    let registry: PluginRegistry
    let limits: DecodeLimits

    init(registry: PluginRegistry = .standard(), limits: DecodeLimits = .default) {
        self.registry = registry
        self.limits = limits
    }

    /// Every byte of `source`; errors name it as the user wrote it.
    func fetch(_ source: String) async throws(ImagoError) -> Data {
        do {
            let url = try ImageRequest.url(from: source)
            return try await registry.transport(serving: url).fetchAll(
                TransportRequest(url: url), maxBytes: limits.maxBytes
            ).data
        } catch {
            throw Self.named(error, source)
        }
    }

    /// Decodes `data` with the decoder that recognises it.
    func decode(_ data: Data, source: String, options: DecodeOptions = .default) throws(ImagoError) -> DecodedImage {
        do {
            var options = options
            options.limits = limits
            return try registry.decoder(for: data, limits: limits).decode(checked: data, options: options)
        } catch {
            throw Self.named(error, source)
        }
    }

    /// Fetches and decodes `source`.
    func image(_ source: String, options: DecodeOptions = .default) async throws(ImagoError) -> DecodedImage {
        try decode(try await fetch(source), source: source, options: options)
    }

    /// The error as a toolkit error naming `source` as the user wrote it.
    static func named(_ error: any Error, _ source: String) -> ImagoError {
        var wrapped = ImagoError.wrapping(error)
        wrapped.source = source
        return wrapped
    }
}
