/// The encoded format of an image: the four built-ins, and any name a plugin brings.
public struct ImageFormat: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The lowercase name, for example `"png"`.
    public let rawValue: String

    /// Creates a format from its name; names are compared lowercased.
    public init(rawValue: String) { self.rawValue = rawValue.lowercased() }

    /// Creates a format from its name.
    public init(_ name: String) { self.init(rawValue: name) }

    /// A format written as its name: `let avif: ImageFormat = "avif"`.
    public init(stringLiteral name: String) { self.init(rawValue: name) }

    public static let png = ImageFormat("png")
    public static let jpeg = ImageFormat("jpeg")
    public static let gif = ImageFormat("gif")
    public static let webp = ImageFormat("webp")

    public var description: String { rawValue }

    /// How many leading bytes a decoder's `canDecode` is given when sniffing.
    public static let sniffLength = 32

    /// The format that usually goes with a file extension (`jpg`, `jpeg`, `png`, …), for choosing an output format.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg", "jpe", "jfif": self = .jpeg
        case "gif": self = .gif
        case "webp": self = .webp
        case "": return nil
        default: self.init(fileExtension.lowercased())
        }
    }
}
