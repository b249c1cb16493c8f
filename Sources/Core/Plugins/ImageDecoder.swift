import Foundation

/// Turns encoded bytes of one format into pixels.
///
/// Decoders are chosen by sniffing: the registry asks each, most recently registered first, whether it
/// `canDecode` the first bytes. A decoder checks `options.limits` from the header before it allocates pixels,
/// throws `ImagoError` (`decodingFailed` with its format, or `limitExceeded`) for bad input, and never crashes.
public protocol ImageDecoder: Sendable {
    /// The format decoded.
    var format: ImageFormat { get }

    /// Whether `header` (the first `ImageFormat.sniffLength` bytes, or fewer) starts an image of this format.
    /// Must be cheap and must not claim another format's bytes.
    func canDecode(_ header: Data) -> Bool

    /// Decodes `data` as `options` ask.
    func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage
}

extension ImageDecoder {
    /// Decodes with default options.
    public func decode(_ data: Data) throws -> DecodedImage { try decode(data, options: .default) }
}

extension ImageDecoder {
    /// Decodes, turning an error that is not an `ImagoError` (a plugin's own) into `decodingFailed` with this
    /// decoder's format, so every failure a user sees is a toolkit error.
    public func decode(checked data: Data, options: DecodeOptions) throws -> DecodedImage {
        do {
            return try decode(data, options: options)
        } catch let error as ImagoError {
            throw error
        } catch {
            throw ImagoError(.decodingFailed(format: format), "\(format) decoding failed: \(error)")
        }
    }
}
