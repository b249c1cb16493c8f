import CWebP
import CWebPDemux
import Foundation
import ImagoCore

extension WebPCodec {
    /// Decodes a still image straight into the raster's pooled buffer, scaled down by libwebp when a target
    /// size allows it; `orientation` (the EXIF one, reported, not applied) says how an upright target compares
    /// with the stored size.
    static func decodeStill(
        _ bytes: UnsafeRawBufferPointer, features: WebPBitstreamFeatures, orientation: ImageOrientation,
        options: DecodeOptions, scaled: Bool
    ) throws -> DecodedImage {
        let width = Int(features.width)
        let height = Int(features.height)
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { throw WebPErrors.decoding("libwebp version mismatch") }
        let size =
            scaled
            ? scaledSize(width: width, height: height, orientation: orientation, options: options)
            : (width: width, height: height)
        if size.width != width || size.height != height {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(size.width)
            config.options.scaled_height = Int32(size.height)
        }
        let raster = try Raster(width: size.width, height: size.height) { buffer in
            config.output.colorspace = MODE_RGBA
            config.output.is_external_memory = 1
            config.output.u.RGBA.rgba = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            config.output.u.RGBA.stride = Int32(size.width * 4)
            config.output.u.RGBA.size = buffer.count
            let status = WebPDecode(bytes.baseAddress, bytes.count, &config)
            WebPFreeDecBuffer(&config.output)
            guard status == VP8_STATUS_OK else { throw WebPErrors.decoding("cannot decode the image", status: status) }
            // A lossless bitstream always carries alpha values; when the file says it has no alpha, they are
            // not shown (Pillow and ImageMagick decode such files as RGB, browsers as opaque), so make them 255.
            if features.has_alpha == 0, features.format == 2 {
                let pixels = buffer.bindMemory(to: UInt32.self)
                let opaque = UInt32(littleEndian: 0xFF00_0000)
                for index in pixels.indices { pixels[index] |= opaque }
            }
        }
        return DecodedImage(
            frames: [ImageFrame(raster: raster)], format: .webp, hasAlpha: false, encodedSize: bytes.count)
    }

    /// The smallest size (never larger than the stored `width` × `height`) that still covers `options.targetSize`
    /// under its content mode once turned by `orientation`, so the resize processor only has rounding left to do.
    static func scaledSize(
        width: Int, height: Int, orientation: ImageOrientation, options: DecodeOptions
    ) -> (width: Int, height: Int) {
        guard let target = options.targetSize(forStoredOrientation: orientation), target.width > 0, target.height > 0
        else { return (width, height) }
        let sx = Double(target.width) / Double(width)
        let sy = Double(target.height) / Double(height)
        let scale = options.contentMode == .fit ? Swift.min(sx, sy) : Swift.max(sx, sy)
        guard scale < 1 else { return (width, height) }
        let scaledWidth = Swift.min(width, Swift.max(1, Int((Double(width) * scale).rounded(.up))))
        let scaledHeight = Swift.min(height, Swift.max(1, Int((Double(height) * scale).rounded(.up))))
        return (scaledWidth, scaledHeight)
    }
}
