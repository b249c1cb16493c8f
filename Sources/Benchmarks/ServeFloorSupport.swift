import CImagoShim
import Foundation
import Imago

#if canImport(Glibc)
    import Glibc
#endif

/// Inputs of the serve floor benchmark: one photo about 2040x1356 as JPEG (q90), PNG and WebP (q90), written once
/// to `$TMPDIR/imago-bench-floor` (reused by later runs). Made from the public corpus' photograph when it is there
/// (`IMAGO_CORPUS` or ../shared/corpus), else from the synthetic grainy picture.
enum ServeFloorInputs {
    static let width = 2040
    static let height = 1356

    static var folder: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("imago-bench-floor")
    }

    /// The file of each format, written when missing.
    static func files() throws -> [(format: ImageFormat, url: URL)] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let names: [(ImageFormat, String)] = [(.jpeg, "photo.jpg"), (.png, "photo.png"), (.webp, "photo.webp")]
        let urls = names.map { ($0.0, folder.appendingPathComponent($0.1)) }
        if urls.contains(where: { !FileManager.default.fileExists(atPath: $0.1.path) }) {
            let image = try photo()
            try JPEGCodec().encode(image, options: EncodeOptions(quality: 90)).write(to: urls[0].1)
            try PNGCodec().encode(image).write(to: urls[1].1)
            try WebPCodec().encode(image, options: EncodeOptions(quality: 90)).write(to: urls[2].1)
        }
        return urls
    }

    private static func photo() throws -> DecodedImage {
        let corpus =
            ProcessInfo.processInfo.environment["IMAGO_CORPUS"]
            ?? FileManager.default.currentDirectoryPath + "/../shared/corpus"
        let source = URL(fileURLWithPath: corpus).appendingPathComponent("jpeg/exif-orientation/Landscape_1.jpg")
        if let data = try? Data(contentsOf: source) {
            let resize = ResizeProcessor(width: width, height: height, mode: .fill, upscale: true, filter: .lanczos3)
            return try resize.process(try JPEGCodec().decode(data))
        }
        let raster = try Raster(
            width: width, height: height, pixels: SyntheticImage.pixels(width: width, height: height, grain: 12))
        return DecodedImage(raster: raster, format: .jpeg)
    }
}

/// CPU time of the whole process (every thread, user and system), in milliseconds.
func processCPUMilliseconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let user = Double(usage.ru_utime.tv_sec) * 1000 + Double(usage.ru_utime.tv_usec) / 1000
    let system = Double(usage.ru_stime.tv_sec) * 1000 + Double(usage.ru_stime.tv_usec) / 1000
    return user + system
}

/// A blocking HTTP/1.1 client on one keep-alive loopback connection: just enough for GETs answered with a
/// Content-Length.
final class LoopbackClient {
    private let socket: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var pending: [UInt8] = []

    init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard socket >= 0, connected == 0 else { throw BenchmarkFailure("cannot connect to 127.0.0.1:\(port)") }
        var one: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close(socket) }

    /// GETs `target`: the status and the body's size.
    func get(_ target: String) throws -> (status: Int, bytes: Int) {
        let request = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, 0) }) == request.count else {
            throw BenchmarkFailure("send failed")
        }
        var headEnd: Int?
        while headEnd == nil {
            try receive()
            headEnd = pending.indices.dropLast(3).first {
                pending[$0] == 13 && pending[$0 + 1] == 10 && pending[$0 + 2] == 13 && pending[$0 + 3] == 10
            }
        }
        let head = String(decoding: pending[..<headEnd!], as: UTF8.self).lowercased()
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        let length =
            head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        let total = headEnd! + 4 + length
        while pending.count < total { try receive() }
        pending.removeFirst(total)
        return (status, length)
    }

    private func receive() throws {
        let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw BenchmarkFailure("connection closed") }
        pending.append(contentsOf: buffer[0..<count])
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The JPEG case's steps timed apart: decode, resize, encode, for the floor (its own buffers) and for Imago (the
/// codec and the processor called directly, without the loader).
enum JPEGSteps {
    /// The size of the 3/8 decode, for the resize after it.
    final class SmallerDecode {
        var width: UInt32 = 0
        var height: UInt32 = 0
    }

    static func paths(
        data: Data, decode: DecodeOptions, resize: ResizeProcessor, encoder: any ImageEncoder, options: EncodeOptions,
        eighths: Int, fast: Int32
    ) throws -> [(String, () throws -> Void)] {
        let floor = imago_floor_create()!
        let codec = JPEGCodec()
        let decoded = try codec.decode(data, options: decode)
        let resized = try resize.process(decoded)
        let (width, height) = (UInt32(decoded.width), UInt32(decoded.height))
        let (outWidth, outHeight) = (UInt32(resized.width), UInt32(resized.height))
        let body = try encoder.encode(resized, options: options)
        let smaller = SmallerDecode()
        return [
            (
                "floor-decode",
                {
                    var (w, h): (UInt32, UInt32) = (0, 0)
                    _ = data.withUnsafeBytes {
                        imago_floor_jpeg_decode(
                            floor, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), $0.count, UInt32(eighths), fast,
                            &w, &h)
                    }
                }
            ),
            ("floor-resize", { _ = imago_floor_resize_decoded(floor, width, height, outWidth, outHeight) }),
            ("floor-encode", { _ = imago_floor_jpeg_encode(floor, outWidth, outHeight, Int32(options.quality)) }),
            (
                // The floor's decode and resize at the next smaller DCT scale (3/8 instead of 4/8: a scalar IDCT).
                "floor-decode-\(eighths - 1)/8",
                {
                    _ = data.withUnsafeBytes {
                        imago_floor_jpeg_decode(
                            floor, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), $0.count, UInt32(eighths - 1),
                            fast, &smaller.width, &smaller.height)
                    }
                }
            ),
            (
                "floor-resize-\(eighths - 1)/8",
                { _ = imago_floor_resize_decoded(floor, smaller.width, smaller.height, outWidth, outHeight) }
            ),
            ("imago-decode", { _ = try codec.decode(data, options: decode) }),
            ("imago-resize", { _ = try resize.process(decoded) }),
            ("imago-encode", { _ = try encoder.encode(resized, options: options) }),
            // What serve adds to each answer: its ETag, a SHA-256 of the encoded bytes.
            ("etag-sha256", { _ = SHA256.hex(body) }),
            // The proposed cheaper ETag: xxHash64 of the same bytes.
            ("etag-xxh64", { _ = body.withUnsafeBytes { String(XXHash64.hash($0), radix: 16) } }),
        ]
    }
}
