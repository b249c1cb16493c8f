import CWebP
import CWebPDemux
import CWebPMux
import Foundation
import ImagoCore

extension WebPCodec {
    /// Encodes one raster, lossy at `options.quality` or lossless (keeping the RGB under transparent pixels).
    static func encodeStill(_ raster: Raster, options: EncodeOptions, method: Int = 4) throws -> Data {
        var config = try makeConfig(options, method: method)
        var picture = try makePicture(raster, lossless: options.lossless)
        defer { WebPPictureFree(&picture) }
        let writer = UnsafeMutablePointer<WebPMemoryWriter>.allocate(capacity: 1)
        WebPMemoryWriterInit(writer)
        defer {
            WebPMemoryWriterClear(writer)
            writer.deallocate()
        }
        picture.writer = WebPMemoryWrite
        picture.custom_ptr = UnsafeMutableRawPointer(writer)
        guard WebPEncode(&config, &picture) != 0 else {
            throw WebPErrors.encoding("libwebp refused the image (error \(picture.error_code.rawValue))")
        }
        return Data(bytes: writer.pointee.mem, count: writer.pointee.size)
    }

    static func makeConfig(_ options: EncodeOptions, method: Int = 4) throws -> WebPConfig {
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else { throw WebPErrors.encoding("libwebp version mismatch") }
        config.lossless = options.lossless ? 1 : 0
        // Lossless keeps libwebp's default effort: `method` trades bytes for CPU in lossy encoding only.
        if !options.lossless { config.method = Int32(method) }
        // For lossless, quality is the effort spent; a fixed middle value keeps the output exact and small.
        config.quality = options.lossless ? 75 : Float(options.quality)
        config.exact = options.lossless ? 1 : 0
        guard WebPValidateConfig(&config) != 0 else { throw WebPErrors.encoding("invalid encoder settings") }
        return config
    }

    /// A picture holding a copy of the raster (ARGB for lossless, YUVA for lossy).
    static func makePicture(_ raster: Raster, lossless: Bool) throws -> WebPPicture {
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw WebPErrors.encoding("libwebp version mismatch") }
        guard raster.width <= 16383, raster.height <= 16383 else {
            throw WebPErrors.encoding("\(raster.width)x\(raster.height) is larger than WebP's 16383x16383")
        }
        picture.width = Int32(raster.width)
        picture.height = Int32(raster.height)
        picture.use_argb = lossless ? 1 : 0
        let imported = raster.withUnsafeBytes { bytes in
            WebPPictureImportRGBA(
                &picture, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(raster.bytesPerRow))
        }
        guard imported != 0 else {
            WebPPictureFree(&picture)
            throw WebPErrors.encoding("out of memory importing \(raster.width)x\(raster.height)")
        }
        return picture
    }

}
