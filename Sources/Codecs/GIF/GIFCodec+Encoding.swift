import CGIF
import Foundation
import ImagoCore

/// The bytes giflib writes through its output callback.
final class GIFOutput {
    var data = Data()
}

/// giflib's `OutputFunc`: appends `length` bytes.
private func writeGIFBytes(
    _ file: UnsafeMutablePointer<GifFileType>?, _ bytes: UnsafePointer<GifByteType>?, _ length: Int32
) -> Int32 {
    guard let file, let bytes, length >= 0, let user = file.pointee.UserData else { return 0 }
    Unmanaged<GIFOutput>.fromOpaque(user).takeUnretainedValue().data.append(bytes, count: Int(length))
    return length
}

extension GIFCodec: AnimatedImageEncoding {
    /// A GIF89a written frame by frame (see `GIFAnimationEncoder`).
    public func makeAnimationEncoder(_ settings: AnimationEncodingSettings, options: EncodeOptions) throws
        -> any AnimationFrameEncoder
    {
        try GIFAnimationEncoder(settings)
    }
}

/// Writes a GIF89a one frame at a time: every frame full-screen with its own palette, its LZW data written as it
/// comes. When frames may have transparency, every frame is disposed to transparent (disposal 2), so a frame's
/// transparent pixels never show the previous frame. One frame is held back (as palette indices) until the next
/// arrives or the file ends, so a single frame is written as a still image, without the loop extension or a delay.
final class GIFAnimationEncoder: AnimationFrameEncoder {
    private let settings: AnimationEncodingSettings
    private let output = GIFOutput()
    private let file: UnsafeMutablePointer<GifFileType>
    private var pending: (frame: GIFIndexedFrame, duration: Double)?
    private var written = 0
    private var closed = false

    init(_ settings: AnimationEncodingSettings) throws {
        let (width, height) = (settings.canvasSize.width, settings.canvasSize.height)
        guard width > 0, height > 0, width <= 65535, height <= 65535 else {
            throw GIFErrors.encoding("\(width)x\(height) is not a size GIF holds (1 to 65535 a side)")
        }
        self.settings = settings
        var error: Int32 = 0
        guard let file = EGifOpen(Unmanaged.passUnretained(output).toOpaque(), writeGIFBytes, &error) else {
            throw GIFErrors.encoding("cannot start the file", code: error)
        }
        self.file = file
        EGifSetGifVersion(file, true)
        guard EGifPutScreenDesc(file, Int32(width), Int32(height), 8, 0, nil) == GIF_OK else {
            throw GIFErrors.encoding("cannot write the screen descriptor", code: file.pointee.Error)
        }
    }

    deinit {
        if !closed {
            var error: Int32 = 0
            EGifCloseFile(file, &error)
        }
    }

    func add(_ frame: ImageFrame) throws {
        try settings.check(frame, format: .gif)
        let indexed = try GIFQuantizer.quantize(frame.raster)
        if let pending { try write(pending.frame, duration: pending.duration, animated: true) }
        pending = (indexed, frame.duration)
    }

    func finish() throws -> Data {
        guard let pending else { throw GIFErrors.encoding("an animation needs at least one frame") }
        try write(pending.frame, duration: pending.duration, animated: written > 0)
        self.pending = nil
        closed = true
        var error: Int32 = 0
        guard EGifCloseFile(file, &error) == GIF_OK else { throw GIFErrors.encoding("cannot finish", code: error) }
        return output.data
    }

    private func write(_ image: GIFIndexedFrame, duration: Double, animated: Bool) throws {
        if written == 0, animated, settings.loopCount != 1 { try putLoopExtension() }
        let disposal = settings.hasAlpha ? DISPOSE_BACKGROUND : DISPOSE_DO_NOT
        var control = GraphicsControlBlock(
            DisposalMode: animated ? disposal : DISPOSAL_UNSPECIFIED, UserInputFlag: false,
            DelayTime: animated ? Int32(Swift.min(Swift.max((duration * 100).rounded(), 0), 65535)) : 0,
            TransparentColor: Int32(image.transparentIndex ?? Int(NO_TRANSPARENT_COLOR)))
        try putFrame(image, control: &control)
        written += 1
    }

    /// NETSCAPE2.0 with the repeat count: plays − 1, and 0 for forever.
    private func putLoopExtension() throws {
        let loopCount = settings.loopCount
        let repeats = loopCount <= 0 ? 0 : Swift.min(loopCount - 1, 65535)
        let name = Array("NETSCAPE2.0".utf8)
        let data: [UInt8] = [1, UInt8(repeats & 0xFF), UInt8(repeats >> 8)]
        guard EGifPutExtensionLeader(file, APPLICATION_EXT_FUNC_CODE) == GIF_OK,
            EGifPutExtensionBlock(file, Int32(name.count), name) == GIF_OK,
            EGifPutExtensionBlock(file, Int32(data.count), data) == GIF_OK,
            EGifPutExtensionTrailer(file) == GIF_OK
        else { throw GIFErrors.encoding("cannot write the loop extension", code: file.pointee.Error) }
    }

    private func putFrame(_ image: GIFIndexedFrame, control: inout GraphicsControlBlock) throws {
        var extensionBytes = [GifByteType](repeating: 0, count: 4)
        let length = EGifGCBToExtension(&control, &extensionBytes)
        guard EGifPutExtension(file, GRAPHICS_EXT_FUNC_CODE, Int32(length), extensionBytes) == GIF_OK else {
            throw GIFErrors.encoding("cannot write the graphics control extension", code: file.pointee.Error)
        }
        // giflib wants a power-of-two colour map of at least 2 entries.
        var colors = image.colors
        var size = 2
        while size < colors.count { size *= 2 }
        colors += Array(repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: size - colors.count)
        guard let map = GifMakeMapObject(Int32(size), colors) else { throw GIFErrors.encoding("out of memory") }
        defer { GifFreeMapObject(map) }
        let (width, height) = (settings.canvasSize.width, settings.canvasSize.height)
        guard EGifPutImageDesc(file, 0, 0, Int32(width), Int32(height), false, map) == GIF_OK else {
            throw GIFErrors.encoding("cannot write the image descriptor", code: file.pointee.Error)
        }
        var indices = image.indices
        guard EGifPutLine(file, &indices, Int32(indices.count)) == GIF_OK else {
            throw GIFErrors.encoding("cannot write the pixels", code: file.pointee.Error)
        }
    }
}
