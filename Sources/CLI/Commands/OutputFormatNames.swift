import Imago

/// The output formats `convert --format` and `load --format` accept, with their aliases.
enum OutputFormatNames {
    /// Every accepted name.
    static let choices = ["png", "jpeg", "jpg", "webp", "gif", "avif", "heic", "heif", "jxl"]
    /// The names, for help texts.
    static let summary = "png|jpeg|webp|gif|avif|heic|jxl"

    /// The format a name or file extension stands for, when it is one of the choices.
    static func format(_ name: String) -> ImageFormat? {
        switch name.lowercased() {
        case "jpg", "jpeg": .jpeg
        case "heif", "heic": ImageFormat("heic")
        case let other where choices.contains(other): ImageFormat(other)
        default: nil
        }
    }
}
