import ImagoCore

/// Reads the orientation (tag 274) from EXIF data: a small TIFF reader that checks every offset it follows.
public enum EXIFOrientation {
    /// The orientation in `bytes`: a TIFF structure (`II*\0` or `MM\0*`), optionally preceded by `Exif\0\0`
    /// as in a JPEG APP1 segment or some WebP EXIF chunks; `nil` when absent or malformed.
    public static func read(_ bytes: UnsafeRawBufferPointer) -> ImageOrientation? {
        var tiff = bytes
        let exifPrefix: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"
        if tiff.count >= 6, tiff.prefix(6).elementsEqual(exifPrefix) {
            tiff = UnsafeRawBufferPointer(rebasing: tiff[(tiff.startIndex + 6)...])
        }
        guard let reader = TIFFReader(tiff), let ifd = reader.uint32(at: 4) else { return nil }
        return reader.orientation(inIFDAt: Int(ifd))
    }

    /// The same over `[UInt8]`.
    public static func read(_ bytes: [UInt8]) -> ImageOrientation? {
        bytes.withUnsafeBytes { read($0) }
    }
}

/// Bounds-checked reads in a TIFF buffer of either byte order.
private struct TIFFReader {
    let bytes: UnsafeRawBufferPointer
    let bigEndian: Bool

    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 8 else { return nil }
        self.bytes = bytes
        switch (bytes[bytes.startIndex], bytes[bytes.startIndex + 1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: return nil
        }
        guard uint16(at: 2) == 42 else { return nil }
    }

    func uint16(at offset: Int) -> Int? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        let a = Int(bytes[bytes.startIndex + offset])
        let b = Int(bytes[bytes.startIndex + offset + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func uint32(at offset: Int) -> Int? {
        guard let first = uint16(at: offset), let second = uint16(at: offset + 2) else { return nil }
        return bigEndian ? first << 16 | second : second << 16 | first
    }

    /// Looks for tag 274 (SHORT, count 1) among the entries of the IFD at `offset`.
    func orientation(inIFDAt offset: Int) -> ImageOrientation? {
        guard let count = uint16(at: offset) else { return nil }
        for index in 0..<count {
            let entry = offset + 2 + index * 12
            guard let tag = uint16(at: entry) else { return nil }
            guard tag == 274 else { continue }
            guard let type = uint16(at: entry + 2), type == 3, let value = uint16(at: entry + 8) else { return nil }
            return ImageOrientation(exifValue: value)
        }
        return nil
    }
}
