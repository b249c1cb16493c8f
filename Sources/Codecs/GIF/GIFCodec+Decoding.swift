import CGIF
import Foundation
import ImagoCore

extension GIFCodec {
    /// Decodes every frame (or the first, when `options.frames` is `.first`) through a `GIFFrameSource`, the one
    /// reader of GIF records, checking the whole animation against the limits before drawing the first frame.
    ///
    /// A file that breaks off (or whose data goes bad) after at least one complete frame keeps the complete
    /// frames, as Pillow, ImageMagick and browsers show them; a frame that did not decode completely is never
    /// returned, and an error before the first complete frame is a `decodingFailed` error.
    static func decodeGIF(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        let source = try GIFFrameSource(data, limits: options.limits, checksTotalPixels: true)
        let screen = source.canvasSize
        // Each frame is a full-screen canvas: check the whole animation before drawing the first one.
        let frameCount =
            options.frames == .first ? 1 : max(1, data.withUnsafeBytes { GIFStructure.summarize($0).frames })
        try options.limits.check(frames: frameCount, width: screen.width, height: screen.height, format: .gif)
        var frames: [ImageFrame] = []
        while let frame = try source.nextFrame() {
            frames.append(frame)
            if options.frames == .first { break }
        }
        if frames.count == 1 { frames[0].duration = 0 }
        return DecodedImage(
            frames: frames, loopCount: frames.count == 1 ? 0 : source.loopCount, format: .gif,
            hasAlpha: source.mayBeTransparent, encodedSize: data.count)
    }

    /// Reads one image's descriptor and pixels onto the canvas; returns the error that stopped it, if any, and
    /// throws when the image's rectangle breaks the limits.
    static func readImage(
        _ reader: GIFFileReader, into canvas: GIFCanvas, state: inout GIFDecodingState, isFirst: Bool,
        limits: DecodeLimits, boundsTotalWork: Bool = true
    ) throws -> ImagoError? {
        if let codeSize = reader.upcomingLZWCodeSize, codeSize > 8 {
            // giflib refuses these as a failed read; say what is wrong with the file instead.
            return GIFErrors.decoding(
                "LZW minimum code size \(codeSize) is outside the GIF format (at most 8); giflib, and Chrome, do not "
                    + "decode it")
        }
        guard DGifGetImageDesc(reader.file) == GIF_OK else {
            return GIFErrors.decoding("bad image descriptor", code: reader.errorCode)
        }
        let descriptor = reader.file.pointee.Image
        let frame = GIFFrameInfo(
            left: Int(descriptor.Left), top: Int(descriptor.Top), width: Int(descriptor.Width),
            height: Int(descriptor.Height), interlaced: descriptor.Interlace,
            disposal: (1...3).contains(state.disposal) ? state.disposal : 0,
            transparentIndex: state.transparentIndex)
        state.pendingFrame = frame
        // A frame rectangle may be far larger than the screen (it is clipped), but its pixels are still decoded:
        // bound that work too, per frame and for the whole file, or a small file could keep the CPU busy for hours.
        try limits.check(width: Swift.max(frame.width, 1), height: Swift.max(frame.height, 1), format: .gif)
        state.decodedPixels += frame.width * frame.height
        if boundsTotalWork, state.decodedPixels > limits.maxTotalPixels {
            throw ImagoError(
                .limitExceeded,
                "too large: the GIF's frames hold more than the \(DecodeLimits.megapixels(limits.maxTotalPixels)) limit"
            )
        }
        var palette = GIFPalette(descriptor.ColorMap ?? reader.file.pointee.SColorMap)
        // What the part of the screen a first frame leaves uncovered shows, as both references do: the screen's
        // background colour under an opaque frame; under a frame with transparency, nothing (alpha 0) with the
        // transparent index's colour beneath, which is invisible but keeps their bytes.
        let uncovered = frame.transparentIndex.map { palette.color($0) & UInt32(littleEndian: 0x00FF_FFFF) }
        canvas.begin(frame, isFirst: isFirst, uncovered: isFirst ? uncovered ?? reader.backgroundColor : nil)
        guard frame.width > 0, frame.height > 0 else {
            // Nothing to draw, but the LZW data still has to be read past.
            return reader.skipImageData() ? nil : GIFErrors.decoding("bad image data", code: reader.errorCode)
        }
        var drawn = frame
        if isFirst, let transparent = frame.transparentIndex {
            // The first frame lands on an empty canvas: painting the transparent index as its colour with alpha 0
            // shows the same, costs no branch, and keeps the bytes Pillow and ImageMagick produce.
            palette.makeTransparent(transparent)
            drawn.transparentIndex = nil
        }
        let row = UnsafeMutablePointer<UInt8>.allocate(capacity: frame.width)
        defer { row.deallocate() }
        return palette.withTable { table in
            for y in GIFCodec.rowOrder(height: frame.height, interlaced: frame.interlaced) {
                guard DGifGetLine(reader.file, row, Int32(frame.width)) == GIF_OK else {
                    return GIFErrors.decoding("image data ends early or is corrupt", code: reader.errorCode)
                }
                canvas.draw(row: row, y: y, of: drawn, palette: table)
            }
            return nil
        }
    }

    /// The frame rows in the order the data gives them: four passes for interlaced images.
    static func rowOrder(height: Int, interlaced: Bool) -> [Int] {
        guard interlaced else { return Array(0..<height) }
        return [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in
            Array(stride(from: start, to: height, by: step))
        }
    }
}

/// What the extensions read so far say about the next image and the animation.
struct GIFDecodingState {
    var disposal = 0
    var transparentIndex: Int?
    var delayCentiseconds = 0
    /// Pixels of all frame rectangles read so far.
    var decodedPixels = 0
    /// Times the animation plays; 1 unless a NETSCAPE2.0 extension says otherwise.
    var loopCount = 1
    private var sawLoopExtension = false
    var pendingFrame = GIFFrameInfo(
        left: 0, top: 0, width: 0, height: 0, interlaced: false, disposal: 0, transparentIndex: nil)

    /// Browsers show frames with a delay of 0 or 1 centisecond for 100 ms; this reports what they show.
    var pendingDuration: Double { delayCentiseconds <= 1 ? 0.1 : Double(delayCentiseconds) / 100 }

    /// Forgets the graphics control extension, which applies to one image only.
    mutating func endFrame() {
        disposal = 0
        transparentIndex = nil
        delayCentiseconds = 0
    }

    mutating func apply(extensionCode code: Int32, blocks: [[UInt8]]) {
        switch code {
        case GRAPHICS_EXT_FUNC_CODE:
            guard let block = blocks.first, block.count >= 4 else { return }
            var control = GraphicsControlBlock()
            guard block.withUnsafeBufferPointer({ DGifExtensionToGCB(4, $0.baseAddress, &control) }) == GIF_OK
            else { return }
            disposal = Int(control.DisposalMode)
            transparentIndex = control.TransparentColor >= 0 ? Int(control.TransparentColor) : nil
            delayCentiseconds = Int(control.DelayTime)
        case APPLICATION_EXT_FUNC_CODE:
            // NETSCAPE2.0 (or ANIMEXTS1.0) sub-block 1 holds the repeat count: 0 forever, n means n + 1 plays.
            guard !sawLoopExtension, let name = blocks.first, blocks.count >= 2,
                name.elementsEqual("NETSCAPE2.0".utf8) || name.elementsEqual("ANIMEXTS1.0".utf8)
            else { return }
            let data = blocks[1]
            guard data.count >= 3, data[0] == 1 else { return }
            let repeats = Int(data[1]) | Int(data[2]) << 8
            loopCount = repeats == 0 ? 0 : repeats + 1
            sawLoopExtension = true
        default:
            break
        }
    }
}

/// A 256-entry RGBA lookup table for a colour map; indices past the map (or every index when the file has no
/// colour map) are opaque black.
struct GIFPalette {
    private var table = [UInt32](repeating: GIFPalette.pack(0, 0, 0, 255), count: 256)

    init(_ map: UnsafeMutablePointer<ColorMapObject>?) {
        guard let map, let colors = map.pointee.Colors else { return }
        for index in 0..<Swift.min(Int(map.pointee.ColorCount), 256) {
            let color = colors[index]
            table[index] = GIFPalette.pack(color.Red, color.Green, color.Blue, 255)
        }
    }

    /// The packed colour of `index` (opaque black past 255).
    func color(_ index: Int) -> UInt32 { index < 256 ? table[index] : GIFPalette.pack(0, 0, 0, 255) }

    /// Gives `index` alpha 0, keeping its colour.
    mutating func makeTransparent(_ index: Int) {
        guard index < 256 else { return }
        table[index] &= UInt32(littleEndian: 0x00FF_FFFF)
    }

    static func pack(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) -> UInt32 {
        // Memory order r, g, b, a whatever the host's byte order.
        UInt32(littleEndian: UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24)
    }

    func withTable<R>(_ body: (UnsafePointer<UInt32>) -> R) -> R {
        table.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
