import ImagoCodecs
import ImagoCore
import Testing

@Suite struct EXIFOrientationTests {
    /// Little-endian TIFF with one IFD0 entry: tag 274, type SHORT, count 1, `value`.
    static func tiff(_ value: UInt8, type: UInt8 = 3) -> [UInt8] {
        [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, type, 0, 1, 0, 0, 0, value, 0, 0, 0, 0, 0, 0, 0]
    }

    @Test func readsEveryOrientationWithOrWithoutTheExifPrefix() {
        for value in UInt8(1)...8 {
            #expect(EXIFOrientation.read(Self.tiff(value))?.rawValue == Int(value))
            #expect(EXIFOrientation.read(Array("Exif".utf8) + [0, 0] + Self.tiff(value))?.rawValue == Int(value))
        }
    }

    @Test func readsBigEndianAndSkipsOtherTags() {
        let bytes: [UInt8] = [
            0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 2,
            0x01, 0x0F, 0, 2, 0, 0, 0, 4, 0x41, 0x42, 0x43, 0,  // Make "ABC"
            0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 8, 0, 0,  // Orientation 8
            0, 0, 0, 0,
        ]
        #expect(EXIFOrientation.read(bytes) == .left)
    }

    @Test func outOfRangeValuesReadAsUp() {
        #expect(EXIFOrientation.read(Self.tiff(0)) == .up)
        #expect(EXIFOrientation.read(Self.tiff(9)) == .up)
    }

    @Test func malformedDataGivesNil() {
        let good = Self.tiff(6)
        #expect(EXIFOrientation.read([]) == nil)
        #expect(EXIFOrientation.read(Array("Exif".utf8)) == nil)
        #expect(EXIFOrientation.read([0x49, 0x49, 43, 0, 8, 0, 0, 0]) == nil, "bad magic")
        #expect(EXIFOrientation.read([0x41, 0x41, 42, 0, 8, 0, 0, 0]) == nil, "bad byte order")
        #expect(EXIFOrientation.read(Self.tiff(6, type: 4)) == nil, "LONG is not the orientation's type")
        var farOffset = good
        farOffset[4] = 0xF0  // IFD0 beyond the end
        #expect(EXIFOrientation.read(farOffset) == nil)
        var manyEntries = good
        manyEntries[8] = 0xFF  // 255 entries declared, 1 present, and it is not the orientation
        manyEntries[10] = 0x0F
        #expect(EXIFOrientation.read(manyEntries) == nil)
        // Every truncation of a good buffer is either nil or the right answer, never a crash.
        for length in 0..<good.count {
            let result = EXIFOrientation.read(Array(good.prefix(length)))
            #expect(result == nil || result == .right)
        }
    }
}
