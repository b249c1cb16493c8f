import Foundation
import ImagoCodecs
import ImagoCore
import ImagoTestSupport
import Testing

@Suite struct PNGCodecTests {
    let codec = PNGCodec()

    @Test func roundTripsRGBAWithAlphaLosslessly() throws {
        let raster = try TestImages.noise(width: 37, height: 23, alpha: true)
        let encoded = try codec.encode(DecodedImage(raster: raster, format: .png))
        #expect(encoded[25] == 6, "colour type RGBA")
        let decoded = try codec.decode(encoded)
        #expect(decoded.raster == raster)
        #expect(decoded.hasAlpha)
        #expect(decoded.format == .png)
        #expect(decoded.encodedSize == encoded.count)
    }

    @Test func writesOpaqueImagesAsRGBAndGreyAsGrey() throws {
        let rgb = try TestImages.noise(width: 16, height: 9, seed: 2)
        let rgbData = try codec.encode(DecodedImage(raster: rgb, format: .png))
        #expect(rgbData[25] == 2, "colour type RGB")
        let rgbBack = try codec.decode(rgbData)
        #expect(rgbBack.raster == rgb)
        #expect(!rgbBack.hasAlpha)

        let gray = try TestImages.noise(width: 16, height: 9, seed: 3, gray: true)
        let grayData = try codec.encode(DecodedImage(raster: gray, format: .png))
        #expect(grayData[25] == 0, "colour type grey")
        #expect(try codec.decode(grayData).raster == gray)

        let grayAlpha = try TestImages.noise(width: 5, height: 4, seed: 4, alpha: true, gray: true)
        let grayAlphaData = try codec.encode(DecodedImage(raster: grayAlpha, format: .png))
        #expect(grayAlphaData[25] == 4, "colour type grey+alpha")
        #expect(try codec.decode(grayAlphaData).raster == grayAlpha)
    }

    /// Both strategies are lossless; run-length (the default) is larger on a smooth picture than string matching,
    /// but not by much (each strategy really reaches zlib).
    @Test func bothStrategiesAreLosslessAndDeflateIsSmaller() throws {
        #expect(PNGCodec().strategy == .runLength)
        let raster = try TestImages.gradient(width: 256, height: 160)
        let image = DecodedImage(raster: raster, format: .png)
        let runLength = try PNGCodec(strategy: .runLength).encode(image)
        let deflate = try PNGCodec(strategy: .deflate).encode(image)
        #expect(try codec.decode(runLength).raster == raster)
        #expect(try codec.decode(deflate).raster == raster)
        #expect(deflate.count < runLength.count)
        #expect(runLength.count < raster.width * raster.height * 3 / 2, "compressed: \(runLength.count) bytes")
    }

    @Test func sniffsTheSignatureOnly() {
        #expect(codec.canDecode(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0])))
        #expect(!codec.canDecode(Data([0x89, 0x50, 0x4E, 0x47])))
        #expect(!codec.canDecode(Data([0xFF, 0xD8, 0xFF, 0xE0])))
        #expect(!codec.canDecode(Data()))
    }

    /// A valid signature and IHDR declaring 100000 x 100000 (10 gigapixels), then a tiny IDAT.
    static func bombPNG() -> Data {
        var ihdr = PNGBytes.bigEndian(100_000) + PNGBytes.bigEndian(100_000)
        ihdr += [8, 6, 0, 0, 0]
        let bytes =
            PNGBytes.signature + PNGBytes.chunk("IHDR", ihdr)
            + PNGBytes.chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
            + PNGBytes.chunk("IEND", [])
        return Data(bytes)
    }

    @Test func refusesADecompressionBombFromTheHeader() throws {
        let error = imagoError { try codec.decode(Self.bombPNG()) }
        #expect(error?.kind == .limitExceeded)
        #expect(error?.reason.contains("100000x100000") == true)
    }

    @Test func refusesAChunkLongerThanTheDataBeforeLibpngAllocatesIt() throws {
        // Found by the fuzzer: a tEXt chunk declaring 1.8 GB in a 400-byte file made libpng allocate 1.8 GB.
        let ihdr = PNGBytes.bigEndian(10) + PNGBytes.bigEndian(10) + [8, 2, 0, 0, 0]
        var bytes = PNGBytes.signature + PNGBytes.chunk("IHDR", ihdr)
        bytes += PNGBytes.bigEndian(0x6E61_6C4A) + Array("tEXt".utf8) + Array(repeating: 0x41, count: 384)
        let error = imagoError { try codec.decode(Data(bytes)) }
        #expect(error?.kind == .decodingFailed(format: .png))
        #expect(error?.reason.contains("tEXt chunk declares") == true)
    }

    @Test func checksPixelAndByteLimits() throws {
        let data = try codec.encode(DecodedImage(raster: try TestImages.noise(width: 20, height: 20), format: .png))
        let pixels = DecodeOptions(limits: DecodeLimits(maxPixels: 399))
        #expect(imagoError { try codec.decode(data, options: pixels) }?.kind == .limitExceeded)
        let bytes = DecodeOptions(limits: DecodeLimits(maxBytes: data.count - 1))
        #expect(imagoError { try codec.decode(data, options: bytes) }?.kind == .tooLarge)
        #expect(try codec.decode(data, options: DecodeOptions(limits: DecodeLimits(maxPixels: 400))).width == 20)
    }

    @Test func truncatedDataFailsWithTheLibraryReason() throws {
        let data = try codec.encode(DecodedImage(raster: try TestImages.noise(width: 64, height: 64), format: .png))
        for length in [0, 7, 20, 40, data.count / 2, data.count - 13] {
            let error = imagoError { try codec.decode(data.prefix(length)) }
            #expect(error?.kind == .decodingFailed(format: .png), "length \(length)")
        }
        let error = imagoError { try codec.decode(data.prefix(data.count / 2)) }
        #expect(error?.reason.contains("png decoding failed") == true)
        #expect(error?.reason.contains("truncated") == true)
    }

    @Test func corruptImageDataFails() throws {
        var data = try codec.encode(DecodedImage(raster: try TestImages.noise(width: 64, height: 64), format: .png))
        data[data.count / 2] ^= 0x55  // inside IDAT: its CRC no longer matches
        let error = imagoError { try codec.decode(data) }
        #expect(error?.kind == .decodingFailed(format: .png))
        #expect(error?.reason.contains("CRC") == true)
    }

    @Test func interlacedAndPlainDecodeToTheSamePixels() throws {
        for name in ["0g08", "2c08", "3p08", "4a08", "6a16", "0g01"] {
            let plain = try codec.decode(TestImages.corpusFile("pngsuite/basn\(name).png"))
            let interlaced = try codec.decode(TestImages.corpusFile("pngsuite/basi\(name).png"))
            #expect(plain.raster == interlaced.raster, "\(name)")
            #expect(plain.width == 32 && plain.height == 32)
        }
    }

    @Test func reportsAlphaFromColourTypeAndTRNS() throws {
        #expect(try codec.decode(TestImages.corpusFile("pngsuite/tbbn3p08.png")).hasAlpha)  // palette + tRNS
        #expect(try codec.decode(TestImages.corpusFile("pngsuite/basn4a08.png")).hasAlpha)  // grey + alpha
        #expect(try !codec.decode(TestImages.corpusFile("pngsuite/basn2c08.png")).hasAlpha)
        #expect(try !codec.decode(TestImages.corpusFile("pngsuite/basn3p04.png")).hasAlpha)
    }

    @Test func keepsTheHighByteOf16BitSamples() throws {
        // Pillow keeps the high byte too (v >> 8); ImageMagick's floor(v / 257) differs by 1 on many pixels.
        let corpus = try CorpusReference.load()
        for name in ["basn0g16", "basn2c16", "basn4a16", "basn6a16"] {
            let file = "pngsuite/\(name).png"
            let image = try codec.decode(TestImages.corpusFile(file))
            let reference = corpus.entries.first { $0.file == file }
            #expect(reference?.pillow.sha256_rgba == CorpusReference.sha256(image.raster), "\(name)")
            #expect(reference?.imagemagick.sha256_rgba != CorpusReference.sha256(image.raster), "\(name)")
        }
    }

    @Test func readsTheOrientationOfAnEXIfChunk() throws {
        let plain = try codec.encode(DecodedImage(raster: try TestImages.noise(width: 6, height: 3), format: .png))
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 3, 0, 0, 0, 0]
        var bytes = [UInt8](plain.prefix(33))  // signature and IHDR
        bytes += PNGBytes.chunk("eXIf", tiff)
        bytes += plain.dropFirst(33)
        let image = try codec.decode(Data(bytes))
        #expect(image.orientation == .down)
        #expect(try codec.decode(plain).orientation == .up)
    }

    @Test func decodesTheDefaultImageOfAnAPNG() throws {
        let image = try codec.decode(TestImages.corpusFile("png-extra/image-png-apng/basic_f20.png"))
        #expect(image.frames.count == 1)
        #expect(image.width == 100 && image.height == 100)
    }
}
