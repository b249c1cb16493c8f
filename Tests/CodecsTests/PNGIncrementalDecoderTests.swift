import Foundation
import ImagoCodecs
import ImagoCore
import ImagoTestSupport
import Testing

@Suite(.serialized) struct PNGIncrementalDecoderTests {
    let codec = PNGCodec()

    /// Feeds `data` in chunks, taking a preview after every chunk that completed a new pass.
    func decodeInChunks(_ decoder: any IncrementalImageDecoder, _ data: Data, chunkSize: Int) throws
        -> (previews: [(bytes: Int, image: DecodedImage)], final: DecodedImage)
    {
        var previews: [(Int, DecodedImage)] = []
        var shown = 0
        var offset = 0
        while offset < data.count {
            let end = min(offset + chunkSize, data.count)
            let progress = try decoder.append(data.subdata(in: offset..<end))
            offset = end
            if progress.offersPreviews, !progress.isComplete, progress.completedSteps > shown,
                let preview = try decoder.makePreview()
            {
                shown = progress.completedSteps
                previews.append((offset, preview))
            }
        }
        return (previews, try decoder.finish())
    }

    @Test func adam7ImageGivesAPreviewPerPassAndTheOneShotFinal() async throws {
        let data = try ProgressiveFixtures.data(ProgressiveFixtures.adam7PNG)
        let (previews, final) = try decodeInChunks(
            codec.makeIncrementalDecoder(options: .default), data, chunkSize: 4096)
        #expect(previews.count >= 5)
        #expect(previews.allSatisfy { $0.image.width == 400 && $0.image.height == 300 })
        let (oneShot, firstError, lastError) = try await offPool {
            (
                try PNGCodec().decode(data), TestImages.maxDifference(previews.first!.image.raster, final.raster),
                TestImages.maxDifference(previews.last!.image.raster, final.raster)
            )
        }
        #expect(final == oneShot)
        // The first pass alone gives a blocky but complete picture: no pixel is left empty (alpha 0).
        let first = previews.first!.image.raster.pixels
        #expect(stride(from: 3, to: first.count, by: 4).allSatisfy { first[$0] == 255 })
        #expect(lastError < firstError)
    }

    @Test func wholeFileAtOnceGivesNoPreview() throws {
        let data = try ProgressiveFixtures.data(ProgressiveFixtures.adam7PNG)
        let (previews, final) = try decodeInChunks(
            codec.makeIncrementalDecoder(options: .default), data, chunkSize: data.count)
        #expect(previews.isEmpty)
        #expect(final == (try codec.decode(data)))
    }

    @Test func nonInterlacedImageOffersNoPreviewsAndStillDecodes() throws {
        let raster = try TestImages.noise(width: 64, height: 48, seed: 4)
        let data = try codec.encode(DecodedImage(raster: raster, format: .png), options: EncodeOptions())
        let decoder = codec.makeIncrementalDecoder(options: .default)
        let progress = try decoder.append(data.prefix(200))
        #expect(!progress.offersPreviews)
        _ = try decoder.append(data.dropFirst(200))
        #expect(try decoder.makePreview() == nil)
        #expect(try decoder.finish().raster == raster)
    }

    @Test func everyPngSuiteImageDecodesProgressivelyAsInOneShot() throws {
        let folder = SharedCorpus.file("pngsuite")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        var compared = 0
        var decoded = 0
        for name in names.sorted() where name.hasSuffix(".png") {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            let oneShot = try? codec.decode(data)
            let decoder = PNGIncrementalDecoder(decodesEveryImage: true)
            let incremental = try? decodeInChunks(decoder, data, chunkSize: 97).final
            #expect(incremental == oneShot, "\(name)")
            if oneShot != nil { decoded += 1 }
            compared += 1
        }
        #expect(compared > 100 && decoded > 100)
    }

    @Test func truncatedImageFailsAfterGivingPreviews() throws {
        let data = try ProgressiveFixtures.data(ProgressiveFixtures.adam7PNG)
        let decoder = codec.makeIncrementalDecoder(options: .default)
        let progress = try decoder.append(data.prefix(data.count * 6 / 10))
        #expect(progress.completedSteps >= 1)
        #expect(try decoder.makePreview() != nil)
        let error = #expect(throws: ImagoError.self) { try decoder.finish() }
        #expect(error?.kind == .decodingFailed(format: .png))
    }

    @Test func corruptImageDataIsATypedError() throws {
        var bytes = [UInt8](try ProgressiveFixtures.data(ProgressiveFixtures.adam7PNG))
        for index in stride(from: bytes.count / 3, to: bytes.count / 3 + 64, by: 1) { bytes[index] ^= 0x5A }
        let decoder = codec.makeIncrementalDecoder(options: .default)
        #expect(throws: ImagoError.self) { _ = try decodeInChunks(decoder, Data(bytes), chunkSize: 1000) }
        #expect(throws: ImagoError.self) { try codec.decode(Data(bytes)) }
    }

    /// Found by the fuzzer: every row can be decoded before the zlib checksum arrives; a bad one still fails.
    @Test func aBadChecksumAfterTheLastRowFailsAsInOneShot() throws {
        let raster = try TestImages.gradient(width: 16, height: 8)
        var bytes = [UInt8](try codec.encode(DecodedImage(raster: raster, format: .png), options: EncodeOptions()))
        // The IDAT chunk: change its last data byte (the Adler-32) and give the chunk a good CRC again.
        let idat = try #require((8..<bytes.count - 4).first { bytes[$0..<$0 + 4].elementsEqual("IDAT".utf8) })
        let length = bytes[idat - 4..<idat].reduce(0) { $0 << 8 | Int($1) }
        bytes[idat + 4 + length - 1] ^= 0xFF
        let crc = PNGBytes.crc32(bytes[idat..<idat + 4 + length])
        bytes.replaceSubrange(idat + 4 + length..<idat + 8 + length, with: PNGBytes.bigEndian(crc))
        let data = Data(bytes)
        #expect(throws: ImagoError.self) { try codec.decode(data) }
        let decoder = PNGIncrementalDecoder(decodesEveryImage: true)
        #expect(throws: ImagoError.self) { _ = try decodeInChunks(decoder, data, chunkSize: idat + 4 + length - 2) }
    }

    @Test func headerLimitsAreCheckedBeforeAllocation() throws {
        let data = try ProgressiveFixtures.data(ProgressiveFixtures.adam7PNG)
        var options = DecodeOptions()
        options.limits.maxPixels = 1000
        let decoder = codec.makeIncrementalDecoder(options: options)
        let error = #expect(throws: ImagoError.self) { _ = try decoder.append(data.prefix(8192)) }
        #expect(error?.kind == .limitExceeded)
    }

    @Test func aReleasedDecoderIsFreed() throws {
        let data = try ProgressiveFixtures.data(ProgressiveFixtures.adam7PNG)
        weak var released: PNGIncrementalDecoder?
        do {
            let decoder = PNGIncrementalDecoder()
            released = decoder
            _ = try decoder.append(data.prefix(data.count / 2))
        }
        // Its deinit ran, which destroys the libpng state and the image buffer.
        #expect(released == nil)
    }
}
