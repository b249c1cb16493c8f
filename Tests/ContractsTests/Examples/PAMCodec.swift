import Foundation
import ImagoCore

/// A complete example codec for the Netpbm formats: reads binary PPM (`P6`) and PAM (`P7`: grayscale, RGB, with or
/// without alpha, 8-bit samples), writes `P6` for opaque images and `P7 RGB_ALPHA` for the rest.
///
/// It shows what every decoder must do: sniff cheaply, check `options.limits` from the header before allocating,
/// and throw `ImagoError` (never crash) on bad bytes.
struct PAMCodec: ImageDecoder, ImageEncoder {
    /// The format name; `ImageFormat("pam")` in the registry.
    static let pam = ImageFormat("pam")

    var format: ImageFormat { Self.pam }
    var supportsAnimation: Bool { false }

    func canDecode(_ header: Data) -> Bool {
        // "P6" or "P7" followed by whitespace: two bytes of magic, one of separator.
        let bytes = [UInt8](header.prefix(3))
        return bytes.count == 3 && bytes[0] == UInt8(ascii: "P")
            && (bytes[1] == UInt8(ascii: "6") || bytes[1] == UInt8(ascii: "7"))
            && PAMHeader.isWhitespace(bytes[2])
    }

    func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        try options.limits.check(byteCount: data.count)
        let bytes = [UInt8](data)
        let header = try PAMHeader.parse(bytes)
        // Limits are checked from the header, before any pixel memory is taken.
        try options.limits.check(width: header.width, height: header.height, format: format)
        let needed = header.width * header.height * header.depth
        guard bytes.count - header.dataOffset >= needed else {
            throw ImagoError(
                .decodingFailed(format: format),
                "truncated pam: \(bytes.count - header.dataOffset) of \(needed) pixel bytes")
        }
        let hasAlpha = header.depth == 2 || header.depth == 4
        let raster = try Raster(width: header.width, height: header.height) { buffer in
            var source = header.dataOffset
            for pixel in 0..<(header.width * header.height) {
                let target = pixel * 4
                let samples = (0..<header.depth).map { header.scale(bytes[source + $0]) }
                source += header.depth
                switch header.depth {
                case 1, 2:
                    buffer[target] = samples[0]
                    buffer[target + 1] = samples[0]
                    buffer[target + 2] = samples[0]
                default:
                    buffer[target] = samples[0]
                    buffer[target + 1] = samples[1]
                    buffer[target + 2] = samples[2]
                }
                buffer[target + 3] = hasAlpha ? samples[header.depth - 1] : 255
            }
        }
        // A target size is a hint: full size always covers it, and the resize processor does the rest.
        return DecodedImage(raster: raster, format: format, hasAlpha: hasAlpha, encodedSize: data.count)
    }

    func encode(_ image: DecodedImage, options: EncodeOptions) throws -> Data {
        // Netpbm is uncompressed and lossless: quality and lossless change nothing. Only the first frame is kept.
        let raster = image.raster
        let alpha = image.hasAlpha || raster.hasTransparency
        let head =
            alpha
            ? "P7\nWIDTH \(raster.width)\nHEIGHT \(raster.height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
            : "P6\n\(raster.width) \(raster.height)\n255\n"
        var data = Data(head.utf8)
        let pixels = raster.pixels
        if alpha {
            data.append(contentsOf: pixels)
        } else {
            data.reserveCapacity(data.count + raster.width * raster.height * 3)
            for offset in stride(from: 0, to: pixels.count, by: 4) {
                data.append(contentsOf: pixels[offset..<(offset + 3)])
            }
        }
        return data
    }
}
