import Foundation
import ImagoTestSupport
import Testing

@testable import ImagoCore

/// `DSSIM` against the reference implementation (`Scripts/quality/dssim.py`, numpy and Pillow, which agrees with
/// scikit-image): generated images (noise, flat areas, gradients, alpha, the 11×11 minimum) and photographs (the
/// samples and the corpus) with JPEG, WebP and blur losses, all within 0.001.
@Suite struct DSSIMTests {
    /// One pair to measure: made here, or by the reference script from a photograph.
    struct Pair: CustomStringConvertible {
        var name: String
        var reference: Raster
        var candidate: Raster
        var description: String { "\(name) (\(reference.width)x\(reference.height))" }
    }

    static let packageRoot = TestImages.packageRoot

    /// Noise around `base` with a spread of ±`spread`, opaque unless `alpha` is given.
    static func noise(_ width: Int, _ height: Int, base: Int, spread: Int, seed: UInt64, alpha: UInt8 = 255)
        throws -> Raster
    {
        var generator = TestImages.Generator(state: seed)
        return try TestImages.raster(width, height) { _, _ in
            let value = { UInt8(min(255, max(0, base + Int(generator.next() % UInt64(2 * spread + 1)) - spread))) }
            return RGBA(value(), value(), value(), alpha)
        }
    }

    /// `raster` with every channel moved by up to ±`amount` (alpha too when `alpha`).
    static func perturbed(_ raster: Raster, amount: Int, seed: UInt64, alpha: Bool = false) throws -> Raster {
        var generator = TestImages.Generator(state: seed)
        let pixels = raster.pixels.enumerated().map { index, byte in
            guard alpha || index % 4 != 3 else { return byte }
            let change = Int(generator.next() % UInt64(2 * amount + 1)) - amount
            return UInt8(min(255, max(0, Int(byte) + change)))
        }
        return try Raster(width: raster.width, height: raster.height, pixels: pixels)
    }

    static func generatedPairs() throws -> [Pair] {
        let gradient = try TestImages.photoLike(96, 64, alpha: false)
        let translucent = try TestImages.photoLike(80, 60, alpha: true, seed: 3)
        return [
            Pair(
                name: "noise, slightly changed", reference: try noise(64, 48, base: 128, spread: 60, seed: 1),
                candidate: try perturbed(try noise(64, 48, base: 128, spread: 60, seed: 1), amount: 8, seed: 2)),
            Pair(
                name: "flat grey against a lighter flat grey",
                reference: try Raster(width: 40, height: 30, fill: RGBA(100, 100, 100)),
                candidate: try Raster(width: 40, height: 30, fill: RGBA(112, 112, 112))),
            Pair(
                name: "flat against noise", reference: try Raster(width: 48, height: 40, fill: RGBA(128, 128, 128)),
                candidate: try noise(48, 40, base: 128, spread: 30, seed: 4)),
            Pair(
                name: "gradient, perturbed", reference: gradient,
                candidate: try perturbed(gradient, amount: 20, seed: 5)),
            Pair(
                name: "gradient, identical", reference: gradient, candidate: gradient),
            Pair(
                name: "alpha, colour and alpha perturbed", reference: translucent,
                candidate: try perturbed(translucent, amount: 12, seed: 6, alpha: true)),
            Pair(
                name: "transparent against white",
                reference: try Raster(width: 20, height: 20, fill: RGBA(0, 0, 0, 0)),
                candidate: try Raster(width: 20, height: 20, fill: RGBA(255, 255, 255))),
            Pair(
                name: "half-transparent noise against opaque",
                reference: try noise(30, 30, base: 90, spread: 80, seed: 7, alpha: 128),
                candidate: try noise(30, 30, base: 90, spread: 80, seed: 7)),
            Pair(
                name: "11x11, the minimum", reference: try noise(11, 11, base: 120, spread: 100, seed: 8),
                candidate: try perturbed(try noise(11, 11, base: 120, spread: 100, seed: 8), amount: 30, seed: 9)),
            Pair(
                name: "11 wide", reference: try noise(11, 57, base: 60, spread: 50, seed: 10),
                candidate: try perturbed(try noise(11, 57, base: 60, spread: 50, seed: 10), amount: 10, seed: 11)),
            Pair(
                name: "11 high", reference: try noise(73, 11, base: 200, spread: 50, seed: 12),
                candidate: try perturbed(try noise(73, 11, base: 200, spread: 50, seed: 12), amount: 10, seed: 13)),
            Pair(
                name: "black against white", reference: try Raster(width: 16, height: 16, fill: RGBA(0, 0, 0)),
                candidate: try Raster(width: 16, height: 16, fill: RGBA(255, 255, 255))),
        ]
    }

    /// Photographs, each reduced to at most `side` pixels by the reference script and damaged by `loss`.
    static let photos: [(path: String, corpus: Bool, side: Int, loss: String)] = [
        ("Docs/samples/photo.jpg", false, 0, "jpeg:30"),
        ("Docs/samples/landscape.webp", false, 0, "blur:1.2"),
        ("Docs/samples/landscape.webp", false, 0, "jpeg:70"),
        ("jpeg/libjpeg-turbo/testorig.jpg", true, 0, "jpeg:50"),
        ("jpeg/jpeg-decoder-reftest/rgb.jpg", true, 0, "jpeg:15"),
        ("jpeg/jpeg-decoder-reftest/rgb.jpg", true, 0, "webp:60"),
        ("jpeg/jpeg-decoder-reftest/mjpeg.jpg", true, 480, "blur:0.7"),
        ("jpeg/exif-orientation/Landscape_0.jpg", true, 600, "jpeg:80"),
        ("jpeg/exif-orientation/Landscape_0.jpg", true, 600, "webp:90"),
    ]

    /// The reference's SSIM and DSSIM of each pair, from one run of the script; photographs are made by the
    /// script and read back into `pairs`.
    static func reference(for pairs: inout [Pair], photos: [(path: String, corpus: Bool, side: Int, loss: String)])
        async throws -> [(ssim: Double, dssim: Double)]
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imago-dssim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var jobs: [String] = []
        for (index, pair) in pairs.enumerated() {
            let a = folder.appendingPathComponent("\(index)a.rgba"), b = folder.appendingPathComponent("\(index)b.rgba")
            try Data(pair.reference.pixels).write(to: a)
            try Data(pair.candidate.pixels).write(to: b)
            jobs.append("raw \(pair.reference.width) \(pair.reference.height) \(a.path) \(b.path)")
        }
        for (index, photo) in photos.enumerated() {
            let path =
                photo.corpus ? SharedCorpus.file(photo.path).path : packageRoot.appendingPathComponent(photo.path).path
            let stem = folder.appendingPathComponent("photo\(index)").path
            jobs.append("photo \(photo.side) \(photo.loss) \(path) \(stem)")
        }
        let script = """
            import io, sys
            sys.path.insert(0, sys.argv[1])
            import dssim
            from PIL import Image, ImageFilter
            for line in open(sys.argv[2]).read().splitlines():
                kind, rest = line.split(" ", 1)
                if kind == "raw":
                    w, h, pa, pb = rest.split(" ")
                    a = Image.frombytes("RGBA", (int(w), int(h)), open(pa, "rb").read())
                    b = Image.frombytes("RGBA", (int(w), int(h)), open(pb, "rb").read())
                else:
                    side, loss, path, stem = rest.split(" ")
                    a = Image.open(path).convert("RGBA")
                    if int(side):
                        a.thumbnail((int(side), int(side)), Image.LANCZOS)
                    method, value = loss.split(":")
                    if method == "blur":
                        b = a.filter(ImageFilter.GaussianBlur(float(value)))
                    else:
                        data = io.BytesIO()
                        a.convert("RGB" if method == "jpeg" else "RGBA").save(data, method.upper(), quality=int(value))
                        b = Image.open(data).convert("RGBA")
                    open(stem + "a.rgba", "wb").write(a.tobytes())
                    open(stem + "b.rgba", "wb").write(b.tobytes())
                    print("size", a.size[0], a.size[1])
                s = dssim.ssim(dssim.luma(a), dssim.luma(b))
                print(repr(s), repr(dssim.dssim(a, b)))
            """
        let jobFile = folder.appendingPathComponent("jobs.txt")
        try jobs.joined(separator: "\n").write(to: jobFile, atomically: true, encoding: .utf8)
        let output = try await PythonReference.run(
            script, arguments: [packageRoot.appendingPathComponent("Scripts/quality").path, jobFile.path],
            interpreter: "/usr/bin/python3")
        var lines = String(decoding: output, as: UTF8.self).split(separator: "\n").makeIterator()
        var results: [(ssim: Double, dssim: Double)] = []
        var photoIndex = 0
        while let line = lines.next() {
            var fields = line.split(separator: " ")
            if fields.first == "size" {
                let (width, height) = (Int(fields[1])!, Int(fields[2])!)
                let stem = folder.appendingPathComponent("photo\(photoIndex)").path
                let read = { (suffix: String) in
                    try Raster(
                        width: width, height: height,
                        pixels: Array(try Data(contentsOf: URL(fileURLWithPath: stem + suffix))))
                }
                let photo = photos[photoIndex]
                pairs.append(
                    Pair(
                        name: "\(photo.path) \(photo.loss)", reference: try read("a.rgba"),
                        candidate: try read("b.rgba")))
                photoIndex += 1
                guard let next = lines.next() else { break }
                fields = next.split(separator: " ")
            }
            results.append((Double(fields[0])!, Double(fields[1])!))
        }
        return results
    }

    @Test func matchesTheReference() async throws {
        try SharedCorpus.require()
        var pairs = try Self.generatedPairs()
        let expected = try await Self.reference(for: &pairs, photos: Self.photos)
        // The measures take seconds: off the pool.
        let measured = try await offPool { [pairs] in
            try pairs.map { pair in
                (try DSSIM.ssim(pair.reference, pair.candidate), try DSSIM.between(pair.reference, pair.candidate))
            }
        }
        #expect(expected.count == pairs.count)
        #expect(pairs.count == 12 + Self.photos.count)
        var worst = 0.0
        for ((pair, reference), (ssim, dssim)) in zip(zip(pairs, expected), measured) {
            #expect(abs(ssim - reference.ssim) < 1e-4, "\(pair): SSIM \(ssim), reference \(reference.ssim)")
            if reference.dssim < 1 {
                #expect(abs(dssim - reference.dssim) < 0.001, "\(pair): DSSIM \(dssim), reference \(reference.dssim)")
                worst = max(worst, abs(dssim - reference.dssim))
            }
        }
        // The photographs cover losses from barely visible to heavy.
        let photoValues = expected.suffix(Self.photos.count).map(\.dssim)
        #expect(photoValues.min()! < 0.01 && photoValues.max()! > 0.03, "\(photoValues)")
        print("DSSIM against the reference: worst difference \(worst) over \(pairs.count) pairs")
    }

    @Test func identicalImagesAreZero() throws {
        let image = try Self.noise(50, 40, base: 100, spread: 90, seed: 21)
        #expect(try DSSIM.between(image, image) == 0)
        #expect(try DSSIM.ssim(image, image) == 1)
    }

    @Test func refusesMismatchedSizes() throws {
        let a = try Raster(width: 20, height: 20, fill: RGBA(1, 2, 3))
        let b = try Raster(width: 20, height: 21, fill: RGBA(1, 2, 3))
        #expect(throws: QualityError(.sizeMismatch, "cannot compare a 20x21 image with a 20x20 one")) {
            try DSSIM.between(a, b)
        }
    }

    @Test(arguments: [(10, 10), (10, 40), (40, 10), (1, 1)])
    func refusesImagesUnderTheWindow(width: Int, height: Int) throws {
        let image = try Raster(width: width, height: height, fill: RGBA(9, 9, 9))
        #expect {
            try DSSIM.between(image, image)
        } throws: { error in
            (error as? QualityError)?.kind == .imageTooSmall
        }
    }

    @Test func dissimilarityOfSSIM() {
        #expect(DSSIM.dissimilarity(fromSSIM: 1) == 0)
        #expect(DSSIM.dissimilarity(fromSSIM: 0.5) == 1)
        #expect(DSSIM.dissimilarity(fromSSIM: 0) == .infinity)
        #expect(DSSIM.dissimilarity(fromSSIM: -0.2) == .infinity)
    }
}
