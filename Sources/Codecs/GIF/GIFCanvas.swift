import ImagoCore

/// A GIF frame's placement and how it is drawn, from its image descriptor and graphics control extension.
struct GIFFrameInfo {
    var left: Int
    var top: Int
    var width: Int
    var height: Int
    var interlaced: Bool
    /// 0–3; values 4–7 are undefined and treated as 0 (leave in place), as browsers do.
    var disposal: Int
    /// The palette index drawn as nothing, if any.
    var transparentIndex: Int?
}

/// The logical screen frames are composited onto, as browsers do: starts transparent (or, under an opaque first
/// frame that does not cover it, the background colour, as both references), frames are clipped to it, disposal 2
/// clears the frame's rectangle to transparent, disposal 3 restores what was there before the frame.
final class GIFCanvas {
    let width: Int
    let height: Int
    /// RGBA pixels, one `UInt32` each in memory order r, g, b, a.
    private let pixels: UnsafeMutableBufferPointer<UInt32>
    /// The canvas before the current frame, kept only for disposal 3.
    private var saved: UnsafeMutableBufferPointer<UInt32>?
    /// Whether any pixel shown so far may be transparent.
    private(set) var mayBeTransparent = false

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = .allocate(capacity: width * height)
        pixels.initialize(repeating: 0)
    }

    deinit {
        pixels.deallocate()
        saved?.deallocate()
    }

    /// The frame rectangle clipped to the screen, as column and row ranges (possibly empty).
    func visibleColumns(_ frame: GIFFrameInfo) -> Range<Int> {
        let start = Swift.min(Swift.max(frame.left, 0), width)
        return start..<Swift.max(start, Swift.min(frame.left + frame.width, width))
    }

    /// The frame's rows that fall on the screen (possibly none).
    func visibleRows(_ frame: GIFFrameInfo) -> Range<Int> {
        let start = Swift.min(Swift.max(frame.top, 0), height)
        return start..<Swift.max(start, Swift.min(frame.top + frame.height, height))
    }

    /// Prepares for drawing `frame`: saves the canvas when the frame asks to be undone afterwards. A first frame
    /// that leaves part of the screen uncovered shows `uncovered` there (nil: transparent black).
    func begin(_ frame: GIFFrameInfo, isFirst: Bool, uncovered: UInt32? = nil) {
        if frame.disposal == 3 {
            if saved == nil { saved = .allocate(capacity: width * height) }
            _ = saved!.update(fromContentsOf: pixels)
        }
        if frame.transparentIndex != nil { mayBeTransparent = true }
        if isFirst,
            frame.left > 0 || frame.top > 0 || frame.left + frame.width < width
                || frame.top + frame.height < height
        {
            if let uncovered { pixels.update(repeating: uncovered) }
            if uncovered.map({ UInt32(littleEndian: $0) >> 24 != 255 }) ?? true { mayBeTransparent = true }
        }
    }

    /// Draws one decoded row of palette indices (`row` is the frame's full width) at frame row `y`.
    func draw(row: UnsafePointer<UInt8>, y: Int, of frame: GIFFrameInfo, palette: UnsafePointer<UInt32>) {
        let canvasY = frame.top + y
        guard canvasY >= 0, canvasY < height else { return }
        let columns = visibleColumns(frame)
        guard !columns.isEmpty else { return }
        let target = pixels.baseAddress! + canvasY * width + columns.lowerBound
        let source = row + (columns.lowerBound - frame.left)
        if let transparent = frame.transparentIndex {
            for x in 0..<columns.count {
                let index = Int(source[x])
                if index != transparent { target[x] = palette[index] }
            }
        } else {
            for x in 0..<columns.count { target[x] = palette[Int(source[x])] }
        }
    }

    /// Applies `frame`'s disposal once the frame has been shown.
    func end(_ frame: GIFFrameInfo) {
        switch frame.disposal {
        case 2:
            let columns = visibleColumns(frame)
            let rows = visibleRows(frame)
            guard !columns.isEmpty, !rows.isEmpty else { return }
            for y in rows {
                (pixels.baseAddress! + y * width + columns.lowerBound).update(repeating: 0, count: columns.count)
            }
            mayBeTransparent = true
        case 3:
            if let saved { _ = pixels.update(fromContentsOf: saved) }
        default:
            break
        }
    }

    /// A copy of the canvas as it is shown now.
    func snapshot() throws -> Raster {
        try Raster(width: width, height: height) { buffer in
            buffer.copyMemory(from: UnsafeRawBufferPointer(pixels))
        }
    }
}
