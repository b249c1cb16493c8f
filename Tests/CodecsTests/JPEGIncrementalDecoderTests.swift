import Foundation
import ImagoCodecs
import ImagoCore
import ImagoTestSupport
import Testing

@Suite(.serialized) struct JPEGIncrementalDecoderTests {
    let codec = JPEGCodec()

    /// Feeds `data` in chunks of `chunkSize`, taking a preview after every chunk that completed a new scan.
    func decodeInChunks(_ data: Data, chunkSize: Int, options: DecodeOptions = .default) throws
        -> (previews: [(bytes: Int, image: DecodedImage)], final: DecodedImage)
    {
        let decoder = codec.makeIncrementalDecoder(options: options)
        var previews: [(Int, DecodedImage)] = []
        var shownSteps = 0
        var offset = 0
        while offset < data.count {
            let end = min(offset + chunkSize, data.count)
            let progress = try decoder.append(data.subdata(in: offset..<end))
            offset = end
            if progress.offersPreviews, !progress.isComplete, progress.completedSteps > shownSteps,
                let preview = try decoder.makePreview()
            {
                shownSteps = progress.completedSteps
                previews.append((offset, preview))
            }
        }
        return (previews, try decoder.finish())
    }

    @Test func progressiveFileGivesAPreviewPerScanAndTheOneShotFinal() async throws {
        let data = try ProgressiveFixtures.data(ProgressiveFixtures.progressiveJPEG)
        let (previews, final) = try decodeInChunks(data, chunkSize: 2048)
        #expect(previews.count >= 6)
        #expect(previews.first!.bytes < data.count * 6 / 10)
        for preview in previews {
            #expect(preview.image.width == 640 && preview.image.height == 480)
        }
        let (oneShot, first, last) = try await offPool {
            (
                try JPEGCodec().decode(data), TestImages.maxDifference(previews.first!.image.raster, final.raster),
                TestImages.maxDifference(previews.last!.image.raster, final.raster)
            )
        }
        #expect(final == oneShot)
        // Each preview is closer to the final than the one before it, at the end at least.
        #expect(last < first)
    }

    @Test func finalMatchesTheOneShotDecodeAtAReducedScale() throws {
        let data = try ProgressiveFixtures.data(ProgressiveFixtures.progressiveJPEG)
        var options = DecodeOptions()
        options.targetSize = PixelSize(width: 150, height: 150)
        let (previews, final) = try decodeInChunks(data, chunkSize: 4096, options: options)
        let oneShot = try codec.decode(data, options: options)
        #expect(final == oneShot)
        #expect(final.width == 160)
        #expect(previews.allSatisfy { $0.image.width == final.width && $0.image.height == final.height })
    }

    @Test func wholeFileAtOnceGivesNoPreview() throws {
        let data = try ProgressiveFixtures.data(ProgressiveFixtures.progressiveJPEG)
        let (previews, final) = try decodeInChunks(data, chunkSize: data.count)
        #expect(previews.isEmpty)
        #expect(final == (try codec.decode(data)))
    }

    @Test func baselineFileOffersNoPreviewsAndStillDecodes() throws {
        let data = try ProgressiveFixtures.data(ProgressiveFixtures.baselineJPEG)
        let decoder = codec.makeIncrementalDecoder(options: .default)
        let progress = try decoder.append(data.prefix(4096))
        #expect(!progress.offersPreviews)
        #expect(try decoder.makePreview() == nil)
        _ = try decoder.append(data.dropFirst(4096))
        #expect(try decoder.finish() == (try codec.decode(data)))
    }

    @Test func truncatedProgressiveFileFailsLikeTheOneShotDecode() throws {
        let data = try ProgressiveFixtures.data(ProgressiveFixtures.progressiveJPEG)
        let truncated = data.prefix(data.count * 7 / 10)
        let decoder = codec.makeIncrementalDecoder(options: .default)
        _ = try decoder.append(truncated)
        #expect(try decoder.makePreview() != nil)
        let error = #expect(throws: ImagoError.self) { try decoder.finish() }
        #expect(error?.kind == .decodingFailed(format: .jpeg))
        #expect(throws: ImagoError.self) { try codec.decode(truncated) }
    }

    @Test func corruptScanDataIsATypedError() throws {
        var bytes = [UInt8](try ProgressiveFixtures.data(ProgressiveFixtures.progressiveJPEG))
        // Overwrite the middle with marker-like garbage.
        for index in stride(from: bytes.count / 2, to: bytes.count / 2 + 600, by: 3) { bytes[index] = 0xFF }
        let data = Data(bytes)
        let failedOneShot = (try? codec.decode(data)) == nil
        do {
            _ = try decodeInChunks(data, chunkSize: 1000)
            #expect(!failedOneShot, "the incremental decode accepted what the one-shot decode refuses")
        } catch let error as ImagoError {
            #expect(error.kind == .decodingFailed(format: .jpeg))
        }
    }

    @Test func headerLimitsAreCheckedBeforeAllocation() throws {
        let data = try ProgressiveFixtures.data(ProgressiveFixtures.progressiveJPEG)
        var options = DecodeOptions()
        options.limits.maxPixels = 1000
        let decoder = codec.makeIncrementalDecoder(options: options)
        let error = #expect(throws: ImagoError.self) { _ = try decoder.append(data.prefix(8192)) }
        #expect(error?.kind == .limitExceeded)
    }

    @Test func notAJPEGIsATypedError() throws {
        let decoder = codec.makeIncrementalDecoder(options: .default)
        let error = #expect(throws: ImagoError.self) { _ = try decoder.append(Data("GIF89a......".utf8)) }
        #expect(error?.kind == .decodingFailed(format: .jpeg))
    }

    @Test func aReleasedDecoderIsFreed() throws {
        let data = try ProgressiveFixtures.data(ProgressiveFixtures.progressiveJPEG)
        weak var released: JPEGIncrementalDecoder?
        do {
            let decoder = JPEGIncrementalDecoder()
            released = decoder
            _ = try decoder.append(data.prefix(data.count / 2))
            #expect(try decoder.makePreview() != nil)
        }
        // Its deinit ran, which destroys the libjpeg state, the coefficient buffer and the held bytes.
        #expect(released == nil)
    }
}
