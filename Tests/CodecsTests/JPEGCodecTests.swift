import Foundation
import ImagoCodecs
import ImagoCore
import Testing

@Suite struct JPEGCodecTests {
    let codec = JPEGCodec()

    func encoded(_ raster: Raster, quality: Int = 90) throws -> Data {
        try codec.encode(DecodedImage(raster: raster, format: .jpeg), options: EncodeOptions(quality: quality))
    }

    @Test func roundTripsCloselyAtHighQuality() throws {
        let raster = try TestImages.gradient(width: 96, height: 64)
        let data = try encoded(raster, quality: 95)
        #expect(codec.canDecode(data))
        let image = try codec.decode(data)
        #expect(image.width == 96 && image.height == 64)
        #expect(!image.hasAlpha)
        #expect(image.orientation == .up)
        #expect(TestImages.maxDifference(image.raster, raster) <= 8)
        #expect(!image.raster.hasTransparency)
    }

    @Test func qualityTradesSizeForFidelity() throws {
        let raster = try TestImages.noise(width: 64, height: 64, seed: 9)
        let low = try encoded(raster, quality: 20)
        let high = try encoded(raster, quality: 95)
        #expect(low.count < high.count)
        let lowError = TestImages.maxDifference(try codec.decode(low).raster, raster)
        let highError = TestImages.maxDifference(try codec.decode(high).raster, raster)
        #expect(highError < lowError)
    }

    @Test func sniffsTheStartOfImageMarker() {
        #expect(codec.canDecode(Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10])))
        #expect(!codec.canDecode(Data([0xFF, 0xD8])))
        #expect(!codec.canDecode(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])))
        #expect(!codec.canDecode(Data("GIF89a".utf8)))
    }

    @Test func truncatedDataIsAnErrorNotAPaddedImage() throws {
        let data = try encoded(try TestImages.noise(width: 64, height: 64))
        for length in [0, 2, 100, data.count / 2, data.count - 2] {
            let error = imagoError { try codec.decode(data.prefix(length)) }
            #expect(error?.kind == .decodingFailed(format: .jpeg), "length \(length)")
        }
        let error = imagoError { try codec.decode(data.prefix(data.count / 2)) }
        #expect(error?.reason == "jpeg decoding failed: Premature end of JPEG file")
    }

    @Test func corruptEntropyDataDecodesWithAWarningAndFailsInStrictMode() throws {
        let clean = try encoded(try TestImages.noise(width: 64, height: 64))
        #expect(try codec.decode(clean).warnings.isEmpty)
        var data = clean
        // An RST marker in the middle of the scan: libjpeg only warns ("premature end of data segment").
        let middle = data.count / 2
        data[middle] = 0xFF
        data[middle + 1] = 0xD3
        let image = try codec.decode(data)
        #expect(image.width == 64 && image.height == 64)
        #expect(image.warnings.contains { $0.contains("Corrupt JPEG data") }, "\(image.warnings)")
        let error = imagoError { try codec.decode(data, options: DecodeOptions(strict: true)) }
        #expect(error?.kind == .decodingFailed(format: .jpeg))
        #expect(error?.reason.contains("Corrupt JPEG data") == true)
        // A clean file is not affected by strict mode.
        #expect(try codec.decode(clean, options: DecodeOptions(strict: true)) == codec.decode(clean))
    }

    @Test func refusesHugeDimensionsFromTheHeader() throws {
        var data = try encoded(try TestImages.noise(width: 8, height: 8))
        // SOF0: FF C0, length (2), precision (1), height (2), width (2).
        let sof = try #require(data.indices.first { data[$0] == 0xFF && data[$0 + 1] == 0xC0 })
        data.replaceSubrange((sof + 5)..<(sof + 9), with: [0xEA, 0x60, 0xEA, 0x60])  // 60000 x 60000
        let error = imagoError { try codec.decode(data) }
        #expect(error?.kind == .limitExceeded)
        #expect(error?.reason.contains("60000x60000") == true)
        let small = DecodeOptions(limits: DecodeLimits(maxPixels: 63))
        let clean = try encoded(try TestImages.noise(width: 8, height: 8))
        #expect(imagoError { try codec.decode(clean, options: small) }?.kind == .limitExceeded)
    }

    @Test(arguments: [
        (PixelSize(width: 200, height: 150), ContentMode.fit, 200, 150),  // 4/8
        (PixelSize(width: 100, height: 75), ContentMode.fit, 100, 75),  // 2/8
        (PixelSize(width: 50, height: 50), ContentMode.fit, 50, 38),  // 1/8, rounded up
        (PixelSize(width: 50, height: 50), ContentMode.fill, 100, 75),  // fill needs 1/6: the next DCT scale is 2/8
        (PixelSize(width: 300, height: 300), ContentMode.fit, 400, 300),  // 6/8 would do: 8/8 decodes faster
    ])
    func decodesAtAReducedScaleForATargetSize(target: PixelSize, mode: ContentMode, width: Int, height: Int) throws {
        let source = try TestImages.gradient(width: 400, height: 300)
        let data = try encoded(source)
        let image = try codec.decode(data, options: DecodeOptions(targetSize: target, contentMode: mode))
        #expect(image.width == width && image.height == height)
        // Still the same picture: the corner colours of the gradient survive the scaling.
        #expect(abs(Int(image.raster[width - 1, 0].r) - 255) <= 12)
        #expect(abs(Int(image.raster[0, height - 1].g) - 255) <= 12)
    }

    @Test func scaledDecodingCanBeTurnedOff() throws {
        let data = try encoded(try TestImages.gradient(width: 400, height: 300))
        let options = DecodeOptions(targetSize: PixelSize(width: 50, height: 50))
        #expect(try JPEGCodec(scaledDecoding: false).decode(data, options: options).width == 400)
        #expect(try codec.decode(data, options: options).width == 50)
    }

    @Test func readsTheEXIFOrientationOfEveryCorpusSample() throws {
        for value in 1...8 {
            for name in ["Landscape", "Portrait"] {
                let image = try codec.decode(TestImages.corpusFile("jpeg/exif-orientation/\(name)_\(value).jpg"))
                #expect(image.orientation.rawValue == value, "\(name)_\(value)")
            }
            if value >= 2 {
                let hopper = try codec.decode(TestImages.corpusFile("jpeg/pillow/hopper_orientation_\(value).jpg"))
                #expect(hopper.orientation.rawValue == value, "hopper_orientation_\(value)")
            }
        }
        let untagged = try codec.decode(TestImages.corpusFile("jpeg/exif-orientation/Landscape_0.jpg"))
        #expect(untagged.orientation == .up)
    }

    @Test func readsAnOrientationWeWrite() throws {
        let data = try encoded(try TestImages.gradient(width: 16, height: 8))
        for bigEndian in [false, true] {
            let tiff: [UInt8] =
                bigEndian
                ? [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0]
                : [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0]
            let payload = Array("Exif".utf8) + [0, 0] + tiff
            let length = payload.count + 2
            let app1: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
            var tagged = Data(data.prefix(2))
            tagged.append(contentsOf: app1)
            tagged.append(data.dropFirst(2))
            let image = try codec.decode(tagged)
            #expect(image.orientation == .right, "big endian: \(bigEndian)")
            #expect(image.orientedPixelSize == (8, 16))
        }
    }

    @Test func decodesGreyscaleAndCMYKToOpaqueRGBA() throws {
        let gray = try codec.decode(TestImages.corpusFile("jpeg/pillow/hopper_gray.jpg"))
        let pixel = gray.raster[10, 10]
        #expect(pixel.r == pixel.g && pixel.g == pixel.b && pixel.a == 255)
        let cmyk = try codec.decode(TestImages.corpusFile("jpeg/pillow/pil_sample_cmyk.jpg"))
        #expect(cmyk.width == 100 && !cmyk.raster.hasTransparency)
        let reference = try CorpusReference.load().entries.first { $0.file == "jpeg/pillow/pil_sample_cmyk.jpg" }
        #expect(reference?.pillow.sha256_rgba == CorpusReference.sha256(cmyk.raster))
    }

    @Test func refusesAProgressiveFileWithThousandsOfScans() throws {
        // Each scan costs a pass over all coefficients: repeat a progressive file's last scan 1000 times.
        let data = try TestImages.corpusFile("jpeg/jpeg-decoder-reftest/progressive3.jpg")
        let bytes = [UInt8](data)
        let lastScan = try #require(bytes.indices.dropLast().last { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        let end = try #require(bytes.indices.dropLast().last { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xD9 })
        let scan = bytes[lastScan..<end]
        var bomb = Array(bytes[..<end])
        for _ in 0..<1000 { bomb += scan }
        bomb += [0xFF, 0xD9]
        let error = imagoError { try codec.decode(Data(bomb)) }
        #expect(error?.kind == .decodingFailed(format: .jpeg))
        #expect(error?.reason.contains("more than 1000 scans") == true)
        #expect(try codec.decode(data).width > 0, "the original decodes")
    }

    @Test func progressiveMatchesItsOracle() throws {
        let image = try codec.decode(TestImages.corpusFile("jpeg/jpeg-decoder-reftest/progressive3.jpg"))
        let oracle = try PNGCodec().decode(
            TestImages.corpusFile("oracles/jpeg-decoder-reftest-png/progressive3.png"))
        #expect(image.width == oracle.width && image.height == oracle.height)
        #expect(TestImages.maxDifference(image.raster, oracle.raster) <= 2)
    }
}
