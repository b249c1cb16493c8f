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

extension GIFCodec {
    /// Writes a GIF89a: every frame full-screen with its own palette. When any frame has transparency, every frame
    /// is disposed to transparent (disposal 2), so a frame's transparent pixels never show the previous frame.
    static func encodeGIF(frames: [ImageFrame], loopCount: Int) throws -> Data {
        let width = frames[0].raster.width
        let height = frames[0].raster.height
        guard width <= 65535, height <= 65535 else {
            throw GIFErrors.encoding("\(width)x\(height) is larger than GIF's 65535x65535")
        }
        guard frames.allSatisfy({ $0.raster.width == width && $0.raster.height == height }) else {
            throw GIFErrors.encoding("the frames of an animation must all be \(width)x\(height)")
        }
        let indexed = try frames.map { try GIFQuantizer.quantize($0.raster) }
        let animated = frames.count > 1
        let disposal = indexed.contains { $0.transparentIndex != nil } ? DISPOSE_BACKGROUND : DISPOSE_DO_NOT

        let output = GIFOutput()
        var error: Int32 = 0
        guard let file = EGifOpen(Unmanaged.passUnretained(output).toOpaque(), writeGIFBytes, &error) else {
            throw GIFErrors.encoding("cannot start the file", code: error)
        }
        var closed = false
        defer { if !closed { EGifCloseFile(file, &error) } }
        EGifSetGifVersion(file, true)
        guard EGifPutScreenDesc(file, Int32(width), Int32(height), 8, 0, nil) == GIF_OK else {
            throw GIFErrors.encoding("cannot write the screen descriptor", code: file.pointee.Error)
        }
        if animated, loopCount != 1 { try putLoopExtension(file, loopCount: loopCount) }
        for (frame, image) in zip(frames, indexed) {
            var control = GraphicsControlBlock(
                DisposalMode: animated ? disposal : DISPOSAL_UNSPECIFIED, UserInputFlag: false,
                DelayTime: animated ? Int32(Swift.min(Swift.max((frame.duration * 100).rounded(), 0), 65535)) : 0,
                TransparentColor: Int32(image.transparentIndex ?? Int(NO_TRANSPARENT_COLOR)))
            try putFrame(file, image, control: &control, width: width, height: height)
        }
        closed = true
        guard EGifCloseFile(file, &error) == GIF_OK else { throw GIFErrors.encoding("cannot finish", code: error) }
        return output.data
    }

    /// NETSCAPE2.0 with the repeat count: plays − 1, and 0 for forever.
    private static func putLoopExtension(_ file: UnsafeMutablePointer<GifFileType>, loopCount: Int) throws {
        let repeats = loopCount <= 0 ? 0 : Swift.min(loopCount - 1, 65535)
        let name = Array("NETSCAPE2.0".utf8)
        let data: [UInt8] = [1, UInt8(repeats & 0xFF), UInt8(repeats >> 8)]
        guard EGifPutExtensionLeader(file, APPLICATION_EXT_FUNC_CODE) == GIF_OK,
            EGifPutExtensionBlock(file, Int32(name.count), name) == GIF_OK,
            EGifPutExtensionBlock(file, Int32(data.count), data) == GIF_OK,
            EGifPutExtensionTrailer(file) == GIF_OK
        else { throw GIFErrors.encoding("cannot write the loop extension", code: file.pointee.Error) }
    }

    private static func putFrame(
        _ file: UnsafeMutablePointer<GifFileType>, _ image: GIFIndexedFrame, control: inout GraphicsControlBlock,
        width: Int, height: Int
    ) throws {
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
        guard EGifPutImageDesc(file, 0, 0, Int32(width), Int32(height), false, map) == GIF_OK else {
            throw GIFErrors.encoding("cannot write the image descriptor", code: file.pointee.Error)
        }
        var indices = image.indices
        guard EGifPutLine(file, &indices, Int32(indices.count)) == GIF_OK else {
            throw GIFErrors.encoding("cannot write the pixels", code: file.pointee.Error)
        }
    }
}
