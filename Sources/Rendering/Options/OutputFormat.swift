/// The `f` option: a format the encoders write, or `auto` (chosen from the client's `Accept`).
public enum OutputFormat: Sendable, Hashable, CustomStringConvertible {
    case format(ImageFormat)
    case auto

    /// The formats `f` may name besides `auto` (each needs an encoder in the registry).
    public static let names: [String] = ["jpeg", "png", "webp", "gif", "avif", "jxl", "heic"]

    /// `jpeg`, `png`, `webp`, `gif`, `avif`, `jxl`, `heic` or `auto`; `nil` for anything else.
    public init?(_ name: String) {
        if name == "auto" {
            self = .auto
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
        }
    }

    /// The MIME type of `format` (`image/jpeg`, `image/jxl`, …).
    public static func contentType(of format: ImageFormat) -> String { "image/\(format.rawValue)" }

    /// Whether `format` has a quality setting (lossy formats); `maxb` lowers it.
    public static func isLossy(_ format: ImageFormat) -> Bool {
        ["jpeg", "webp", "avif", "jxl", "heic"].contains(format.rawValue)
    }
}
