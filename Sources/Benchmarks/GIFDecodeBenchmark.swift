import CGIF
import Foundation
import Imago

/// A 100-frame 256x256 animated GIF (the REPORT's input d) decoded by `GIFCodec` against giflib called directly:
/// `DGifSlurp`, then every frame composited to RGBA canvases (transparency, disposal 1) in reused buffers.
enum GIFDecodeBenchmark {
    static let frameCount = 100
    static let side = 256

    /// The input: a moving pattern with noise and a different palette a frame, encoded by `GIFCodec`.
    static func makeInput() throws -> Data {
        var state: UInt64 = 42
        let frames = try (0..<frameCount).map { frame in
            var pixels = [UInt8](repeating: 255, count: side * side * 4)
            for y in 0..<side {
                for x in 0..<side {
                    let offset = (y * side + x) * 4
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    let noise = UInt8((state >> 33) % 32)
                    pixels[offset] = UInt8((x + frame * 3) & 0xE0) &+ noise
                    pixels[offset + 1] = UInt8((y + frame) & 0xE0) &+ noise
                    pixels[offset + 2] = UInt8(((x ^ y) + frame) & 0xC0)
                }
            }
            return ImageFrame(raster: try Raster(width: side, height: side, pixels: pixels), duration: 0.04)
        }
        return try GIFCodec().encode(DecodedImage(frames: frames, loopCount: 0, format: .gif, hasAlpha: false))
    }

    static func make() throws -> BenchmarkCase {
        let input = try makeInput()
        let codec = GIFCodec()
        var canvases = [[UInt32]](repeating: [UInt32](repeating: 0, count: side * side), count: frameCount)
        return BenchmarkCase(
            name: "gif-decode \(frameCount) frames \(side)x\(side)",
            imago: { _ = try codec.decode(input) },
            baseline: { try slurpAndComposite(input, into: &canvases) })
    }

    /// The floor: giflib's own whole-file read, then a plain palette-to-RGBA compositing loop.
    static func slurpAndComposite(_ input: Data, into canvases: inout [[UInt32]]) throws {
        try input.withUnsafeBytes { bytes in
            let reader = try GIFBaselineReader(bytes)
            defer { reader.close() }
            guard DGifSlurp(reader.file) == GIF_OK else { throw ImagoError(.decodingFailed(format: .gif), "slurp") }
            let file = reader.file.pointee
            var previous: Int?
            for index in 0..<Int(file.ImageCount) {
                let saved = file.SavedImages[index]
                var control = GraphicsControlBlock()
                _ = DGifSavedExtensionToGCB(reader.file, Int32(index), &control)
                let map = saved.ImageDesc.ColorMap ?? file.SColorMap
                var palette = [UInt32](repeating: 0xFF00_0000, count: 256)
                if let map {
                    for entry in 0..<Int(map.pointee.ColorCount) {
                        let color = map.pointee.Colors[entry]
                        palette[entry] =
                            UInt32(color.Red) | UInt32(color.Green) << 8 | UInt32(color.Blue) << 16 | 0xFF00_0000
                    }
                }
                if let previous { canvases[index] = canvases[previous] }
                let transparent = Int(control.TransparentColor)
                let width = Int(saved.ImageDesc.Width)
                let left = Int(saved.ImageDesc.Left)
                let top = Int(saved.ImageDesc.Top)
                canvases[index].withUnsafeMutableBufferPointer { canvas in
                    palette.withUnsafeBufferPointer { table in
                        for y in 0..<Int(saved.ImageDesc.Height) {
                            let row = saved.RasterBits + y * width
                            let target = canvas.baseAddress! + (top + y) * side + left
                            for x in 0..<width where Int(row[x]) != transparent { target[x] = table[Int(row[x])] }
                        }
                    }
                }
                previous = index
            }
        }
    }
}

/// giflib over in-memory bytes, for the baseline.
private struct GIFBaselineReader {
    /// What the read callback consumes.
    final class Input {
        let bytes: UnsafeRawBufferPointer
        var offset = 0
        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
    }

    let file: UnsafeMutablePointer<GifFileType>
    private let input: Input

    init(_ bytes: UnsafeRawBufferPointer) throws {
        input = Input(bytes)
        var error: Int32 = 0
        let opened = DGifOpen(
            Unmanaged.passUnretained(input).toOpaque(),
            { file, buffer, length in
                guard let file, let buffer, let user = file.pointee.UserData else { return 0 }
                let input = Unmanaged<Input>.fromOpaque(user).takeUnretainedValue()
                let count = min(Int(length), input.bytes.count - input.offset)
                UnsafeMutableRawPointer(buffer).copyMemory(
                    from: input.bytes.baseAddress! + input.offset, byteCount: count)
                input.offset += count
                return Int32(count)
            }, &error)
        guard let opened else { throw ImagoError(.decodingFailed(format: .gif), "open \(error)") }
        file = opened
    }

    func close() {
        var error: Int32 = 0
        withExtendedLifetime(input) { _ = DGifCloseFile(file, &error) }
    }
}
