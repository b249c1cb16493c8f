import Foundation
import Imago
import Synchronization

// The app's own plugins, written against Imago 0.1.0's protocols.

/// Serves `gallery://NAME` from the app's bundled pictures, in chunks, with HTTP-style caching headers.
struct GalleryTransport: ImageTransport {
    let pictures: [String: Data]
    var schemes: Set<String> { ["gallery"] }
    var cachePolicy: (any TransportCachePolicy)? { HTTPCachePolicy() }

    func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        let source = request.url.absoluteString
        guard let data = pictures[request.url.host ?? ""] else {
            return AsyncThrowingStream {
                $0.finish(throwing: ImagoError(.transportFailed(status: 404), "404 Not Found", source: source))
            }
        }
        return AsyncThrowingStream { continuation in
            continuation.yield(
                .response(
                    TransportMetadata(
                        statusCode: 200, expectedLength: Int64(data.count), cacheControl: "max-age=3600")))
            var offset = 0
            while offset < data.count {
                let end = min(offset + 7, data.count)
                continuation.yield(.bytes(data.subdata(in: offset..<end)))
                offset = end
            }
            continuation.finish()
        }
    }
}

/// The app's source policy: http(s) only from the hosts it trusts, checked before anything is sent.
struct AllowListTransport: ImageTransport {
    let inner: any ImageTransport
    let hosts: Set<String>
    var schemes: Set<String> { ["http", "https"] }
    var cachePolicy: (any TransportCachePolicy)? { inner.cachePolicy }

    func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        guard let host = request.url.host?.lowercased(), hosts.contains(host) else {
            let error = ImagoError(
                .addressRefused, "not an allowed host", source: request.url.absoluteString)
            return AsyncThrowingStream { $0.finish(throwing: error) }
        }
        return inner.fetch(request)
    }
}

/// The app's own format: `GLRY`, width and height (big-endian 16 bits), then RGBA.
struct GLRYCodec: ImageDecoder, ImageEncoder {
    var format: ImageFormat { ImageFormat("glry") }
    var supportsAnimation: Bool { false }

    func canDecode(_ header: Data) -> Bool { header.starts(with: Array("GLRY".utf8)) }

    func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        try options.limits.check(byteCount: data.count)
        let bytes = [UInt8](data)
        guard bytes.count >= 8, canDecode(data) else {
            throw ImagoError(.decodingFailed(format: format), "truncated GLRY header")
        }
        let width = Int(bytes[4]) << 8 | Int(bytes[5])
        let height = Int(bytes[6]) << 8 | Int(bytes[7])
        try options.limits.check(width: width, height: height, format: format)
        guard width > 0, height > 0, bytes.count == 8 + width * height * 4 else {
            throw ImagoError(.decodingFailed(format: format), "GLRY body does not match \(width)x\(height)")
        }
        let raster = try Raster(width: width, height: height, pixels: Array(bytes[8...]))
        return DecodedImage(raster: raster, format: format, encodedSize: data.count)
    }

    func encode(_ image: DecodedImage, options: EncodeOptions) throws -> Data {
        let raster = image.raster
        guard raster.width < 65536, raster.height < 65536 else {
            throw ImagoError(.encodingFailed(format: format), "too large for GLRY")
        }
        var data = Data("GLRY".utf8)
        data += [
            UInt8(raster.width >> 8), UInt8(raster.width & 255), UInt8(raster.height >> 8), UInt8(raster.height & 255),
        ]
        data += raster.pixels
        return data
    }

    /// A picture of `width` × `height` filled with `color`.
    static func picture(width: Int, height: Int, color: RGBA) throws -> Data {
        let image = DecodedImage(
            raster: try Raster(width: width, height: height, fill: color), format: ImageFormat("glry"))
        return try GLRYCodec().encode(image, options: .default)
    }
}

/// Inverts the colours of every frame.
struct InvertProcessor: ImageProcessor {
    var identifier: String { "invert" }

    func process(_ image: DecodedImage) throws -> DecodedImage {
        var result = image
        result.frames = try image.frames.map { frame in
            let raster = frame.raster
            var pixels = raster.pixels
            for index in stride(from: 0, to: pixels.count, by: 4) {
                pixels[index] = 255 - pixels[index]
                pixels[index + 1] = 255 - pixels[index + 1]
                pixels[index + 2] = 255 - pixels[index + 2]
            }
            return ImageFrame(
                raster: try Raster(width: raster.width, height: raster.height, pixels: pixels),
                duration: frame.duration)
        }
        return result
    }
}

/// The app's memory cache: a dictionary that counts its hits.
final class GalleryImageCache: ImageCache {
    private let state = Mutex<(images: [CacheKey: DecodedImage], hits: Int)>(([:], 0))

    var hits: Int { state.withLock { $0.hits } }

    func image(for key: CacheKey) -> DecodedImage? {
        state.withLock { state in
            let image = state.images[key]
            if image != nil { state.hits += 1 }
            return image
        }
    }
    func store(_ image: DecodedImage, for key: CacheKey) { state.withLock { $0.images[key] = image } }
    func removeImage(for key: CacheKey) { state.withLock { _ = $0.images.removeValue(forKey: key) } }
    func removeAll() { state.withLock { $0.images.removeAll() } }
}

/// The app's data cache: a dictionary of entries.
final class GalleryDataCache: DataCache {
    private let entries = Mutex<[CacheKey: DataCacheEntry]>([:])

    var count: Int { entries.withLock { $0.count } }

    func entry(for key: CacheKey) async -> DataCacheEntry? { entries.withLock { $0[key] } }
    func store(_ entry: DataCacheEntry, for key: CacheKey) async throws { entries.withLock { $0[key] = entry } }
    func removeEntry(for key: CacheKey) async { _ = entries.withLock { $0.removeValue(forKey: key) } }
    func removeAll() async { entries.withLock { $0.removeAll() } }
}
