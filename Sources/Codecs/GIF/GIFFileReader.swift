import CGIF
import Foundation
import ImagoCore

/// The encoded bytes giflib pulls through its read callback.
final class GIFInput {
    let base: UnsafePointer<UInt8>
    let count: Int
    var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        // An empty buffer may have no base address; the callers refuse input shorter than a signature first.
        base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        count = bytes.count
    }
}

/// giflib's `InputFunc`: copies up to `length` bytes and returns how many it copied (fewer at the end).
private func readGIFBytes(
    _ file: UnsafeMutablePointer<GifFileType>?, _ buffer: UnsafeMutablePointer<GifByteType>?, _ length: Int32
) -> Int32 {
    guard let file, let buffer, length > 0, let user = file.pointee.UserData else { return 0 }
    let input = Unmanaged<GIFInput>.fromOpaque(user).takeUnretainedValue()
    let available = Swift.min(Int(length), input.count - input.offset)
    guard available > 0 else { return 0 }
    buffer.update(from: input.base + input.offset, count: available)
    input.offset += available
    return Int32(available)
}

/// An open giflib decoder over in-memory bytes; `close()` must be called once.
struct GIFFileReader {
    let file: UnsafeMutablePointer<GifFileType>
    private let input: GIFInput

    /// Opens the bytes and reads the logical screen descriptor.
    init(_ bytes: UnsafeRawBufferPointer) throws {
        input = GIFInput(bytes)
        var error: Int32 = 0
        guard let file = DGifOpen(Unmanaged.passUnretained(input).toOpaque(), readGIFBytes, &error) else {
            throw GIFErrors.decoding("cannot read the header", code: error)
        }
        self.file = file
    }

    func close() {
        var error: Int32 = 0
        _ = withExtendedLifetime(input) { DGifCloseFile(file, &error) }
    }

    /// The logical screen size.
    var screenSize: (width: Int, height: Int) { (Int(file.pointee.SWidth), Int(file.pointee.SHeight)) }

    /// The logical screen's background colour (opaque RGBA, memory order r, g, b, a) from the global colour
    /// table, nil when there is no table or the index is past it.
    var backgroundColor: UInt32? {
        guard let map = file.pointee.SColorMap, let colors = map.pointee.Colors else { return nil }
        let index = Int(file.pointee.SBackGroundColor)
        guard index < Int(map.pointee.ColorCount) else { return nil }
        let color = colors[index]
        return GIFPalette.pack(color.Red, color.Green, color.Blue, 255)
    }

    /// giflib's last error code.
    var errorCode: Int32 { file.pointee.Error }

    /// The next record type, or nil on error.
    func nextRecord() -> GifRecordType? {
        var type = UNDEFINED_RECORD_TYPE
        return DGifGetRecordType(file, &type) == GIF_OK ? type : nil
    }

    /// Reads an extension: its code and its data sub-blocks (each without its length byte).
    func readExtension() -> (code: Int32, blocks: [[UInt8]])? {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetExtension(file, &code, &block) == GIF_OK else { return nil }
        var blocks: [[UInt8]] = []
        while let current = block {
            // Giflib hands each sub-block as [length, bytes...].
            blocks.append(Array(UnsafeBufferPointer(start: current + 1, count: Int(current[0]))))
            guard DGifGetExtensionNext(file, &block) == GIF_OK else { return nil }
        }
        return (code, blocks)
    }

    /// The LZW minimum code size of the image whose descriptor comes next (read after an image record, before
    /// `DGifGetImageDesc`): giflib reads the bytes through the callback exactly as it needs them, so the descriptor
    /// starts at the input's offset. Nil when the data ends first.
    var upcomingLZWCodeSize: Int? {
        let descriptor = input.offset
        guard descriptor + 9 <= input.count else { return nil }
        let flags = input.base[descriptor + 8]
        let colorTable = flags & 0x80 == 0 ? 0 : 3 << (Int(flags & 0x07) + 1)
        let position = descriptor + 9 + colorTable
        return position < input.count ? Int(input.base[position]) : nil
    }

    /// Skips the LZW data of an image that has no pixels to read.
    func skipImageData() -> Bool {
        var size: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetCode(file, &size, &block) == GIF_OK else { return false }
        while block != nil {
            guard DGifGetCodeNext(file, &block) == GIF_OK else { return false }
        }
        return true
    }
}

/// Errors with the library's reason.
enum GIFErrors {
    /// giflib's message for an error code; `GifErrorString` returns NULL for codes it does not know.
    static func message(_ code: Int32) -> String {
        let text: UnsafePointer<CChar>? = GifErrorString(code)
        return text.map { String(cString: $0) } ?? "giflib error \(code)"
    }

    static func decoding(_ what: String, code: Int32? = nil) -> ImagoError {
        let reason = code.map { "\(what): \(message($0))" } ?? what
        return ImagoError(.decodingFailed(format: .gif), "GIF: \(reason)")
    }

    static func encoding(_ what: String, code: Int32? = nil) -> ImagoError {
        let reason = code.map { "\(what): \(message($0))" } ?? what
        return ImagoError(.encodingFailed(format: .gif), "GIF: \(reason)")
    }
}
