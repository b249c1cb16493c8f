import Foundation
import Imago

/// imgproxy's processing options, read one `name:arg:…` segment at a time (later ones override earlier ones, as
/// in imgproxy), then written as Imago's options (`items()`).
struct ImgproxyOptions {
    var width: Int?, height: Int?
    var resizingType = "fit"
    var enlarge = false
    var extend = false
    var extendGravity: String?
    var gravity: String?
    var dpr: String?
    var crop: (width: Double, height: Double, gravity: String?)?
    var padding: [Int]?
    var trim: Int?
    var rotate = 0
    var flip = (horizontal: false, vertical: false)
    var background: String?
    var blur: String?, sharpen: String?
    var watermark: String?
    var quality: Int?
    var formatQuality: [String: Int] = [:]
    var maxBytes: Int?
    var format: String?
    var strip: Bool?
    var presets: String?
    var expires: Int?

    /// Options imgproxy has that Imago does not honour, and why (a 400 names them).
    static let unsupported: [String: String] = [
        "min-width": "no minimum sizes in Imago's options", "mw": "no minimum sizes in Imago's options",
        "min-height": "no minimum sizes in Imago's options", "mh": "no minimum sizes in Imago's options",
        "zoom": "no zoom factor in Imago's options (use w/h)", "z": "no zoom factor in Imago's options (use w/h)",
        "extend_aspect_ratio": "no aspect extension in Imago's options", "extend_ar": "no aspect extension",
        "exar": "no aspect extension in Imago's options", "auto_rotate": "Imago always applies EXIF orientation",
        "ar": "Imago always applies EXIF orientation", "pixelate": "no pixelate operation in Imago",
        "pix": "no pixelate operation in Imago", "skip_processing": "Imago always processes",
        "skp": "Imago always processes", "raw": "Imago always processes", "filename": "no download names",
        "fn": "no download names", "return_attachment": "no attachments", "att": "no attachments",
        "keep_copyright": "metadata is stripped or kept whole (strip)", "kcr": "metadata is stripped or kept whole",
        "strip_color_profile": "colour profiles follow strip", "scp": "colour profiles follow strip",
        "enforce_thumbnail": "embedded thumbnails are not read", "eth": "embedded thumbnails are not read",
        "max_src_resolution": "the limit is serve.maxSourcePixels", "msr": "the limit is serve.maxSourcePixels",
        "max_src_file_size": "the limit is serve.maxSourceBytes", "msfs": "the limit is serve.maxSourceBytes",
        "max_animation_frames": "not per URL", "maf": "not per URL", "max_animation_frame_resolution": "not per URL",
        "mafr": "not per URL", "max_result_dimension": "the limit is serve.maxOutputSide",
        "mrd": "the limit is serve.maxOutputSide", "preserve_hdr": "no HDR output", "ph": "no HDR output",
    ]

    /// Reads one `name:args` segment.
    mutating func read(option segment: Substring) throws {
        let parts = segment.split(separator: ":", omittingEmptySubsequences: false)
        let name = String(parts[0])
        let args = Array(parts.dropFirst())
        let shown = OptionError.shown(segment.prefix(40))
        func bad(_ expected: String) -> ServeFailure {
            ServeFailure(400, "imgproxy option \"\(shown)\": expected \(expected)")
        }
        func arity(_ range: ClosedRange<Int>, _ expected: String) throws {
            guard range.contains(args.count) else { throw bad(expected) }
        }
        func int(_ index: Int, _ range: ClosedRange<Int>, _ expected: String) throws -> Int? {
            guard index < args.count, !args[index].isEmpty else { return nil }
            guard args[index].utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), args[index].count <= 10,
                let value = Int(args[index]), range.contains(value)
            else { throw bad(expected) }
            return value
        }
        func bool(_ index: Int) throws -> Bool? {
            guard index < args.count, !args[index].isEmpty else { return nil }
            switch args[index] {
            case "1", "t", "true": return true
            case "0", "f", "false": return false
            default: throw bad("1, t, true, 0, f or false")
            }
        }
        func decimal(_ index: Int, _ range: ClosedRange<Double>, _ expected: String) throws -> Double? {
            guard index < args.count, !args[index].isEmpty else { return nil }
            guard args[index].count <= 12, args[index].utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 46 }),
                let value = Double(args[index]), value.isFinite, range.contains(value)
            else { throw bad(expected) }
            return value
        }
        switch name {
        case "resize", "rs", "size", "s":
            let sized = name == "size" || name == "s"
            try arity(1...(sized ? 4 : 5), sized ? "WIDTH:HEIGHT:ENLARGE:EXTEND" : "TYPE:WIDTH:HEIGHT:ENLARGE:EXTEND")
            let offset = sized ? 0 : 1
            if !sized, !args[0].isEmpty { try readResizingType(args[0], bad) }
            if let value = try int(offset, 0...99_999, "a width in pixels") { width = value }
            if let value = try int(offset + 1, 0...99_999, "a height in pixels") { height = value }
            if let value = try bool(offset + 2) { enlarge = value }
            if let value = try bool(offset + 3) { extend = value }
        case "resizing_type", "rt":
            try arity(1...1, "fit, fill, fill-down, force or auto")
            try readResizingType(args[0], bad)
        case "width", "w":
            try arity(1...1, "a width in pixels")
            width = try int(0, 0...99_999, "a width in pixels") ?? 0
        case "height", "h":
            try arity(1...1, "a height in pixels")
            height = try int(0, 0...99_999, "a height in pixels") ?? 0
        case "dpr":
            try arity(1...1, "a number from 1 to 4")
            dpr = try decimal(0, 0.01...4, "a number from 1 to 4").map(Self.number)
        case "enlarge", "el":
            try arity(1...1, "1 or 0")
            enlarge = try bool(0) ?? false
        case "extend", "ex":
            try arity(1...4, "EXTEND:GRAVITY")
            extend = try bool(0) ?? false
            extendGravity = try args.count > 1 ? gravity(Array(args[1...]), allowsSmart: false, bad) : nil
        case "gravity", "g":
            try arity(1...3, "TYPE:X_OFFSET:Y_OFFSET, fp:X:Y or sm")
            gravity = try gravity(args, allowsSmart: true, bad)
        case "crop", "c":
            try arity(2...5, "WIDTH:HEIGHT:GRAVITY")
            guard let cropWidth = try decimal(0, 0...99_999, "WIDTH:HEIGHT:GRAVITY"),
                let cropHeight = try decimal(1, 0...99_999, "WIDTH:HEIGHT:GRAVITY")
            else { throw bad("WIDTH:HEIGHT:GRAVITY") }
            let cropGravity = try args.count > 2 ? gravity(Array(args[2...]), allowsSmart: false, bad) : nil
            crop = (cropWidth, cropHeight, cropGravity)
        case "padding", "pd":
            try arity(1...4, "TOP:RIGHT:BOTTOM:LEFT")
            let sides = try (0..<args.count).map { try int($0, 0...99_999, "TOP:RIGHT:BOTTOM:LEFT pixels") }
            let top = sides[0] ?? 0
            let right = sides.count > 1 ? sides[1] ?? top : top
            let bottom = sides.count > 2 ? sides[2] ?? top : top
            let left = sides.count > 3 ? sides[3] ?? right : right
            padding = [top, right, bottom, left]
        case "trim", "t":
            try arity(1...4, "THRESHOLD")
            guard args.dropFirst().allSatisfy(\.isEmpty) else {
                throw ServeFailure(
                    400, "imgproxy option \"\(shown)\": Imago's trim takes a threshold only (no colour, no equal sides)"
                )
            }
            trim = try int(0, 0...255, "a threshold from 0 to 255")
        case "rotate", "rot":
            try arity(1...1, "0, 90, 180 or 270")
            guard let degrees = try int(0, 0...3600, "a multiple of 90"), degrees % 90 == 0 else {
                throw bad("a multiple of 90")
            }
            rotate = degrees % 360
        case "flip", "fl":
            try arity(1...2, "HORIZONTAL:VERTICAL")
            flip = (try bool(0) ?? false, try bool(1) ?? false)
        case "background", "bg":
            try arity(1...3, "R:G:B or a hex colour")
            if args.count == 3 {
                let channels = try (0..<3).map { try int($0, 0...255, "R:G:B from 0 to 255") ?? 0 }
                background = channels.map { String(format: "%02x", $0) }.joined()
            } else if args[0].isEmpty {
                background = nil
            } else {
                guard args.count == 1, args[0].count == 6, RGBA(hex: args[0]) != nil else { throw bad("RRGGBB") }
                background = args[0].lowercased()
            }
        case "blur", "bl":
            try arity(1...1, "a sigma")
            let sigma = try decimal(0, 0...100, "a sigma from 0.3 to 100") ?? 0
            blur = sigma == 0 ? nil : Self.number(sigma)
        case "sharpen", "sh":
            try arity(1...1, "a sigma")
            let sigma = try decimal(0, 0...10, "a sigma from 0.3 to 10") ?? 0
            sharpen = sigma == 0 ? nil : Self.number(sigma)
        case "watermark", "wm":
            try arity(1...5, "OPACITY:POSITION:X_OFFSET:Y_OFFSET:SCALE")
            try readWatermark(args, shown, bad)
        case "quality", "q":
            try arity(1...1, "a quality from 0 to 100")
            let value = try int(0, 0...100, "a quality from 0 to 100") ?? 0
            quality = value == 0 ? nil : value
        case "format_quality", "fq":
            guard args.count % 2 == 0 else { throw bad("FORMAT:QUALITY pairs") }
            for index in stride(from: 0, to: args.count, by: 2) {
                guard let format = Self.format(args[index]) else { throw bad("FORMAT:QUALITY pairs") }
                formatQuality[format] = try int(index + 1, 1...100, "FORMAT:QUALITY pairs")
            }
        case "max_bytes", "mb":
            try arity(1...1, "a number of bytes")
            let value = try int(0, 0...2_000_000_000, "a number of bytes") ?? 0
            maxBytes = value == 0 ? nil : value
        case "format", "f", "ext":
            try arity(1...1, "jpg, png, webp, gif, avif, jxl or heic")
            try read(extension: args[0])
        case "strip_metadata", "sm":
            try arity(1...1, "1 or 0")
            strip = try bool(0)
        case "preset", "pr":
            guard args.allSatisfy({ !$0.isEmpty }) else { throw bad("preset names") }
            presets = args.joined(separator: ":")
        case "expires", "exp":
            try arity(1...1, "a Unix timestamp")
            expires = try int(0, 0...9_999_999_999, "a Unix timestamp")
        case "cachebuster", "cb":
            try arity(1...1, "a string")  // Only changes the URL (and so its signature), as in imgproxy.
        default:
            if let reason = Self.unsupported[name] {
                throw ServeFailure(400, "imgproxy option \"\(shown)\" is not supported: \(reason)")
            }
            throw ServeFailure(400, "imgproxy option \"\(shown)\" is not known (or is an imgproxy Pro option)")
        }
    }

    /// The `@EXT` or `.EXT` of the source, or `format:`.
    mutating func read(extension name: Substring) throws {
        guard let format = Self.format(name) else {
            throw ServeFailure(
                400,
                "imgproxy format \"\(OptionError.shown(name.prefix(16)))\": Imago writes jpg, png, webp, gif, "
                    + "avif, jxl and heic")
        }
        self.format = format
    }

    static func format(_ name: Substring) -> String? {
        switch name {
        case "jpg", "jpeg": "jpeg"
        case "png", "webp", "gif", "avif", "jxl", "heic": String(name)
        default: nil
        }
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}
