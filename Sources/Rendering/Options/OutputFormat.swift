/// The `f` option: a format the encoders write, `auto` (chosen from the client's `Accept`) or `best` (the smallest
/// of the formats the client accepts, `BestFormat`).
public enum OutputFormat: Sendable, Hashable, CustomStringConvertible {
    case format(ImageFormat)
    case auto
    case best

    /// The formats `f` may name besides `auto` (each needs an encoder in the registry).
    public static let names: [String] = ["jpeg", "png", "webp", "gif", "avif", "jxl", "heic"]

    /// `jpeg`, `png`, `webp`, `gif`, `avif`, `jxl`, `heic`, `auto` or `best`; `nil` for anything else.
    public init?(_ name: String) {
        if name == "auto" {
            self = .auto
        } else if name == "best" {
            self = .best
        } else if Self.names.contains(name) {
            self = .format(ImageFormat(name))
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .format(let format): format.rawValue
        case .auto: "auto"
        case .best: "best"
        }
    }

    /// The MIME type of `format` (`image/jpeg`, `image/jxl`, …).
    public static func contentType(of format: ImageFormat) -> String { "image/\(format.rawValue)" }

    /// Whether `format` has a quality setting (lossy formats); `maxb` lowers it.
    public static func isLossy(_ format: ImageFormat) -> Bool {
        ["jpeg", "webp", "avif", "jxl", "heic"].contains(format.rawValue)
    }
}
