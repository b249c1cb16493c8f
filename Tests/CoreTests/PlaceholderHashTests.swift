import Foundation
import Testing

@testable import ImagoCore

/// ThumbHash and BlurHash against the reference implementations (PyPI `thumbhash-python` and `blurhash`, run by
/// `PythonReference`): the reference decoders turn our hashes into pictures whose average colour is within 8 of
/// the image's, on photos, a flat colour and images with alpha. The image's average is alpha-weighted (the colour
/// of the visible pixels); the decoded picture's is over all its pixels, since both hashes give transparent
/// pixels the average colour (weighing by ThumbHash's coarse 5 × 5 alpha would measure the alpha, not the
/// colour); our ThumbHash encoder gives the reference encoder's bytes on the same pixels; our decoder gives the
/// reference decoder's pixels.
@Suite struct PlaceholderHashTests {
    /// A sample from Docs/samples, decoded by Pillow.
    static func sample(_ name: String) async throws -> Raster {
        let path = TestImages.packageRoot.appendingPathComponent("Docs/samples/\(name)").path
        let flat = try Raster(width: 1, height: 1, fill: RGBA(0, 0, 0))
        return try await PythonReference.image("out = Image.open(args[0])", flat, arguments: [path])
    }

    static func images() async throws -> [(String, Raster)] {
        await [
            ("photo", try sample("photo.jpg")),
            ("logo with alpha", try sample("imago.png")),
            ("landscape with alpha", try sample("landscape.webp")),
            ("flat", try Raster(width: 120, height: 80, fill: RGBA(200, 100, 50))),
            ("alpha gradient", try TestImages.photoLike(90, 140, alpha: true)),
            ("small", try TestImages.photoLike(60, 45, alpha: false)),
        ]
    }

    /// The alpha-weighted average colour of RGBA bytes.
    static func average(_ pixels: [UInt8]) -> [Double] {
        var sums = [0.0, 0.0, 0.0]
        var weight = 0.0
        for index in stride(from: 0, to: pixels.count, by: 4) {
            let alpha = Double(pixels[index + 3])
            for channel in 0..<3 { sums[channel] += Double(pixels[index + channel]) * alpha }
            weight += alpha
        }
        return sums.map { weight > 0 ? $0 / weight : 0 }
    }

    static let referenceDecoders = """
        import sys, base64, json
        import thumbhash, blurhash
        from thumbhash.decode import thumbhash_to_rgba
        def average(pixels):
            s, w = [0.0, 0.0, 0.0], 0.0
            for i in range(0, len(pixels), 4):
                a = 1
                for c in range(3):
                    s[c] += pixels[i + c] * a
                w += a
            return [v / w if w else 0 for v in s]
        th = base64.b64decode(sys.argv[1])
        width, height, rgba = thumbhash_to_rgba(th)
        rows = blurhash.decode(sys.argv[2], 32, 32)
        flat = [v for row in rows for p in row for v in (p[0], p[1], p[2], 255)]
        print(json.dumps({"thumbhash": average(rgba), "size": [width, height], "rgba": list(rgba),
            "blurhash": average(flat)}))
        """

    @Test func referenceDecodersGiveTheAverageColour() async throws {
        for (name, raster) in try await Self.images() {
            let thumb = try ThumbHash.encode(raster)
            let blur = try BlurHash.encode(raster)
            #expect(blur.count == 4 + 2 * 4 * 3, "\(name): \(blur)")
            let output = try await PythonReference.run(
                Self.referenceDecoders, arguments: [Data(thumb).base64EncodedString(), blur])
            let decoded = try JSONSerialization.jsonObject(with: output) as? [String: Any]
            let expected = Self.average(raster.pixels)
            let thumbAverage = decoded?["thumbhash"] as? [Double] ?? []
            let blurAverage = decoded?["blurhash"] as? [Double] ?? []
            #expect(thumbAverage.count == 3 && blurAverage.count == 3, "\(name)")
            for channel in 0..<min(3, thumbAverage.count, blurAverage.count) {
                #expect(
                    abs(thumbAverage[channel] - expected[channel]) <= 8,
                    "\(name) ThumbHash: \(thumbAverage) vs \(expected)")
                #expect(
                    abs(blurAverage[channel] - expected[channel]) <= 8,
                    "\(name) BlurHash: \(blurAverage) vs \(expected)")
            }
            // Our decoder against the reference decoder, pixel for pixel.
            let ours = try ThumbHash.decode(thumb)
            let size = decoded?["size"] as? [Int] ?? []
            let rgba = (decoded?["rgba"] as? [Int] ?? []).map { UInt8(clamping: $0) }
            #expect(size == [ours.width, ours.height], "\(name)")
            if size == [ours.width, ours.height] {
                let worst = zip(ours.pixels, rgba).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
                #expect(worst <= 1, "\(name): our ThumbHash decoder is \(worst) levels off the reference")
            }
        }
    }

    @Test func thumbHashEncoderMatchesTheReferenceEncoder() async throws {
        for (name, raster) in try await Self.images() where raster.width <= 100 && raster.height <= 100 {
            let ours = try ThumbHash.encode(raster)
            let output = try await PythonReference.run(
                """
                import sys, base64
                from thumbhash.encode import rgba_to_thumbhash
                w, h = int(sys.argv[1]), int(sys.argv[2])
                rgba = list(open(sys.argv[3], "rb").read())
                sys.stdout.write(base64.b64encode(rgba_to_thumbhash(w, h, rgba)).decode())
                """,
                arguments: ["\(raster.width)", "\(raster.height)", try Self.rawFile(raster).path])
            #expect(Data(ours).base64EncodedString() == String(decoding: output, as: UTF8.self), "\(name)")
        }
    }

    static func rawFile(_ raster: Raster) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("imago-th-\(UUID().uuidString)")
        try Data(raster.pixels).write(to: file)
        return file
    }

    @Test func blurHashACDigitsAreTheReferenceEncoders() async throws {
        for (name, raster) in try await Self.images()
        where raster.width <= 64 && raster.height <= 64 && !raster.hasTransparency {
            let ours = try BlurHash.encode(raster)
            let output = try await PythonReference.run(
                """
                import sys, blurhash
                w, h = int(sys.argv[1]), int(sys.argv[2])
                data = open(sys.argv[3], "rb").read()
                rows = [[list(data[(y * w + x) * 4:(y * w + x) * 4 + 3]) for x in range(w)] for y in range(h)]
                sys.stdout.write(blurhash.encode(rows, 4, 3))
                """,
                arguments: ["\(raster.width)", "\(raster.height)", try Self.rawFile(raster).path])
            let reference = String(decoding: output, as: UTF8.self)
            #expect(ours.count == reference.count, "\(name)")
            // Components and maximum (digits 0–1) and every AC pair (from digit 6) are the reference's; the DC
            // (digits 2–5) is corrected towards the image's average sRGB colour.
            #expect(
                ours.prefix(2) == reference.prefix(2) && ours.dropFirst(6) == reference.dropFirst(6),
                "\(name): \(ours) vs \(reference)")
            let dc = { (hash: String) in
                hash.dropFirst(2).prefix(4).reduce(0) { $0 * 83 + BlurHash.digits.firstIndex(of: $1)! }
            }
            for shift in [16, 8, 0] {
                #expect(abs((dc(ours) >> shift) & 255 - (dc(reference) >> shift) & 255) <= 16, "\(name)")
            }
        }
    }

    @Test func badInputIsATypedError() throws {
        let flat = try Raster(width: 16, height: 16, fill: RGBA(255, 0, 0))
        #expect(try BlurHash.encode(flat, componentsX: 4, componentsY: 3).hasPrefix("L"))
        #expect(throws: ImagoError.self) { try BlurHash.encode(flat, componentsX: 10, componentsY: 3) }
        // ThumbHash: no alpha bit for an opaque image, set for one with transparency; short input is refused.
        #expect(try ThumbHash.encode(flat)[2] & 0x80 == 0)
        let clear = try Raster(width: 4, height: 4, fill: RGBA(0, 0, 0, 0))
        #expect(try ThumbHash.encode(clear)[2] & 0x80 != 0)
        #expect(throws: ImagoError.self) { try ThumbHash.decode([1, 2, 3]) }
        #expect(throws: ImagoError.self) { try ThumbHash.decode([0, 0, 0x80, 7, 0]) }
    }
}
