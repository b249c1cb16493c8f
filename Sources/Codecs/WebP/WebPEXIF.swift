/// Reads the orientation tag (274) from a WebP EXIF chunk: a TIFF structure, sometimes behind an `Exif\0\0`
/// prefix.
enum WebPEXIF {
    static func orientation(_ chunk: UnsafeRawBufferPointer) -> Int? {
        var tiff = chunk
        if tiff.count >= 6, tiff.prefix(6).elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0]) {
            tiff = UnsafeRawBufferPointer(rebasing: tiff[6...])
        }
        guard tiff.count >= 8 else { return nil }
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func read16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func read32(_ at: Int) -> Int? {
            guard let a = read16(at), let b = read16(at + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard let ifd = read32(4), let count = read16(ifd) else { return nil }
        for entry in 0..<count {
            let offset = ifd + 2 + entry * 12
            guard let tag = read16(offset) else { return nil }
            // Type 3 (SHORT), one value, stored in the first two bytes of the value field.
            if tag == 274, read16(offset + 2) == 3 { return read16(offset + 8) }
        }
        return nil
    }
}
