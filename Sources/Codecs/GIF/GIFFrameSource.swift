import CGIF
import Foundation
import ImagoCore

/// A GIF's frames, composited on the logical screen one at a time: the one reader of GIF records, used by
/// `decode` for every frame and by `makeFrameSource` for frames on demand. It holds its own copy of the bytes, one
/// canvas and the state the extensions set; `rewind()` reopens the bytes for the next loop.
final class GIFFrameSource: AnimationFrameSource {
    private let bytes: UnsafeMutableRawBufferPointer
    private let limits: DecodeLimits
    /// Whether the frames read are kept together (`decode`): then each one's canvas, and the pixels of every frame
    /// rectangle decoded, count towards `maxTotalPixels`; on demand each frame is bounded on its own (its canvas
    /// and its rectangle by the per-frame limits), so any number of frames plays.
    private let checksTotalPixels: Bool
    private var reader: GIFFileReader
    private var canvas: GIFCanvas
    private var state = GIFDecodingState()
    private var framesInLoop = 0
    private var ended = false
    let canvasSize: PixelSize
    private(set) var warnings: [String] = []

    init(_ data: Data, limits: DecodeLimits, checksTotalPixels: Bool = false) throws {
        try limits.check(byteCount: data.count)
        guard GIFCodec.hasSignature(data) else {
            throw GIFErrors.decoding("not a GIF file (no GIF87a or GIF89a signature)")
        }
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 1)
        data.withUnsafeBytes { copy.copyMemory(from: $0) }
        bytes = copy
        do {
            reader = try GIFFileReader(UnsafeRawBufferPointer(copy))
        } catch {
            copy.deallocate()
            throw error
        }
        let screen = reader.screenSize
        do {
            // Before the canvas is allocated: a header may announce any size.
            try limits.check(width: screen.width, height: screen.height, format: .gif)
        } catch {
            reader.close()
            copy.deallocate()
            throw error
        }
        canvasSize = PixelSize(width: screen.width, height: screen.height)
        self.limits = limits
        self.checksTotalPixels = checksTotalPixels
        canvas = GIFCanvas(width: screen.width, height: screen.height)
    }

    deinit {
        reader.close()
        bytes.deallocate()
    }

    /// Times the animation plays (0: forever), as far as the records read so far say (the loop extension comes
    /// before the first frame in practice).
    var loopCount: Int { state.loopCount }
    /// Whether a frame so far may have left transparent pixels.
    var mayBeTransparent: Bool { canvas.mayBeTransparent }

    func nextFrame() throws -> ImageFrame? {
        guard !ended else { return nil }
        while true {
            guard let record = reader.nextRecord() else {
                // A byte that starts no block: Pillow and ImageMagick skip it and look at the next one, so frames
                // after junk (a second file appended, stray bytes) still count. Browsers stop at the junk; we
                // follow the references here (see GIFWebPCorpusTests).
                if reader.errorCode == D_GIF_ERR_WRONG_RECORD { continue }
                return try stop(GIFErrors.decoding("bad record", code: reader.errorCode))
            }
            switch record {
            case IMAGE_DESC_RECORD_TYPE:
                if checksTotalPixels {
                    // The next canvas is a new raster: check the frame count and total pixels before drawing it.
                    try limits.check(
                        frames: framesInLoop + 1, width: canvasSize.width, height: canvasSize.height, format: .gif)
                }
                if let error = try GIFCodec.readImage(
                    reader, into: canvas, state: &state, isFirst: framesInLoop == 0, limits: limits,
                    boundsTotalWork: checksTotalPixels)
                {
                    return try stop(error)
                }
                let frame = ImageFrame(raster: try canvas.snapshot(), duration: state.pendingDuration)
                canvas.end(state.pendingFrame)
                state.endFrame()
                framesInLoop += 1
                return frame
            case EXTENSION_RECORD_TYPE:
                guard let (code, blocks) = reader.readExtension() else {
                    return try stop(GIFErrors.decoding("bad extension block", code: reader.errorCode))
                }
                state.apply(extensionCode: code, blocks: blocks)
            case TERMINATE_RECORD_TYPE:
                ended = true
                guard framesInLoop > 0 else { throw GIFErrors.decoding("the file has no image") }
                return nil
            default:
                return try stop(GIFErrors.decoding("unexpected record"))
            }
        }
    }

    func rewind() throws {
        let loopCount = state.loopCount
        reader.close()
        reader = try GIFFileReader(UnsafeRawBufferPointer(bytes))
        canvas = GIFCanvas(width: canvasSize.width, height: canvasSize.height)
        state = GIFDecodingState()
        state.loopCount = loopCount
        framesInLoop = 0
        ended = false
    }

    /// Ends the loop at a failure: thrown before the first frame, a warning (once) after it.
    private func stop(_ error: ImagoError) throws -> ImageFrame? {
        ended = true
        guard framesInLoop > 0 else { throw error }
        if !warnings.contains(error.reason) { warnings.append(error.reason) }
        return nil
    }
}

extension GIFCodec: AnimatedImageDecoding {
    /// The frames one at a time (see `AnimationFrameSource`); each frame's canvas is checked against the limits,
    /// not their number.
    public func makeFrameSource(_ data: Data, options: DecodeOptions) throws -> any AnimationFrameSource {
        try GIFFrameSource(data, limits: options.limits)
    }
}
