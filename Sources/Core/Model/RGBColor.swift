/// An opaque sRGB colour, 8 bits a channel: what transparent pixels are composited onto for formats without alpha.
public struct RGBColor: Hashable, Sendable, CustomStringConvertible {
    public var r: UInt8, g: UInt8, b: UInt8

    /// Creates a colour.
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// A colour from six hex digits, `RRGGBB` (either case, no `#`); nil for anything else.
    public init?(hex: some StringProtocol) {
        guard hex.utf8.count == 6, hex.allSatisfy(\.isHexDigit), let value = UInt32(String(hex), radix: 16) else {
            return nil
        }
        self.init(UInt8(value >> 16), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF))
    }

    /// White, the default background.
    public static let white = RGBColor(255, 255, 255)
    /// Black.
    public static let black = RGBColor(0, 0, 0)

    /// `RRGGBB` in lowercase hex.
    public var hex: String {
        [r, g, b].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    public var description: String { hex }
}
