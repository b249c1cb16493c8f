import Foundation
import Imago

/// thumbor's `filters:name(args):name(args)…`, the ones that map onto Imago's options. The order of the filters in
/// the URL does not matter: Imago applies its operations in its fixed order.
struct ThumborFilters {
    var items: [(key: String, value: String)] = []
    var upscale: Bool?
    var focal: String?
    var fill: String?

    /// Filters thumbor has that Imago does not, and why (a 400 names them).
    static let unsupported: [String: String] = [
        "watermark": "its image is a URL in the URL; Imago draws the one configured (serve.watermark)",
        "equalize": "no equalize operation in Imago", "noise": "no noise operation in Imago",
        "colorize": "no colorize operation in Imago", "rgb": "no channel gains in Imago",
        "saturation": "no saturation operation in Imago", "curve": "no curves in Imago",
        "convolution": "no convolution operation in Imago", "redeye": "no red-eye detection in Imago",
        "frame": "no nine-patch frames in Imago", "extract_focal": "no focal extraction in Imago",
        "proportion": "no proportion operation in Imago", "stretch": "no stretch of thumbor's kind",
        "max_age": "Cache-Control is serve.cacheMaxAge", "autojpg": "no automatic JPEG conversion",
        "cover": "GIF covers are not extracted",
    ]

    /// Reads `name(args):name(args)…`.
    mutating func read(_ text: Substring) throws {
        var rest = text
        while !rest.isEmpty {
            guard let open = rest.firstIndex(of: "("), let close = rest[open...].firstIndex(of: ")") else {
                throw ServeFailure(400, "thumbor: filters must be name(args) joined by :")
            }
            let name = String(rest[..<open])
            let args = rest[rest.index(after: open)..<close].split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            try read(name: name, args: args.count == 1 && args[0].isEmpty ? [] : args)
            rest = rest[rest.index(after: close)...]
            if rest.first == ":" {
                rest = rest.dropFirst()
            } else if !rest.isEmpty {
                throw ServeFailure(400, "thumbor: filters must be name(args) joined by :")
            }
        }
    }

    mutating func read(name: String, args: [String]) throws {
        let shown = OptionError.shown(Substring("\(name)(\(args.joined(separator: ",")))").prefix(40))
        func bad(_ expected: String) -> ServeFailure {
            ServeFailure(400, "thumbor filter \(shown): expected \(expected)")
        }
        func int(_ index: Int, _ range: ClosedRange<Int>, _ expected: String) throws -> Int {
            guard index < args.count, let value = Int(args[index]), range.contains(value), args[index].count <= 10
            else { throw bad(expected) }
            return value
        }
        func count(_ range: ClosedRange<Int>, _ expected: String) throws {
            guard range.contains(args.count) else { throw bad(expected) }
        }
        func add(_ key: String, _ value: String) {
            items.removeAll { $0.key == key }
            items.append((key, value))
        }
        switch name {
        case "quality":
            try count(1...1, "a quality from 0 to 100")
            let quality = try int(0, 0...100, "a quality from 0 to 100")
            if quality > 0 { add("q", String(quality)) }
        case "format":
            try count(1...1, "jpeg, png, webp, gif, avif, heic or jxl")
            let format = args[0].lowercased() == "jpg" ? "jpeg" : args[0].lowercased()
            guard ["jpeg", "png", "webp", "gif", "avif", "heic", "jxl"].contains(format) else {
                throw bad("jpeg, png, webp, gif, avif, heic or jxl")
            }
            add("f", format)
        case "blur":
            try count(1...2, "RADIUS[,SIGMA]")
            let radius = try int(0, 0...150, "a radius from 0 to 150")
            let sigma = args.count > 1 ? try int(1, 0...150, "a sigma") : radius
            if radius > 0, sigma > 0 { add("blur", String(min(sigma, 100))) }
        case "sharpen":
            try count(2...3, "AMOUNT,RADIUS[,LUMINANCE_ONLY]")
            guard let radius = Double(args[1]), radius > 0, radius <= 10 else { throw bad("a radius from 0.3 to 10") }
            add("sharpen", ThumborFilters.number(max(0.3, radius)))
        case "rotate":
            try count(1...1, "a multiple of 90")
            let degrees = try int(0, -3600...3600, "a multiple of 90")
            guard degrees % 90 == 0 else { throw bad("a multiple of 90 (Imago rotates by quarter turns)") }
            // thumbor (PIL) turns counter-clockwise; Imago's rot is clockwise.
            let clockwise = ((360 - degrees % 360) % 360)
            if clockwise != 0 { add("rot", String(clockwise)) }
        case "background_color":
            try count(1...1, "a hex colour")
            add("bg", try Self.hex(args[0], bad))
        case "fill":
            try count(1...2, "COLOUR[,FILL_TRANSPARENT]")
            let colour = args[0] == "transparent" ? "00000000" : try Self.hex(args[0], bad)
            fill = colour
            add("ext", "1")
            add("bg", colour)
        case "focal":
            focal = shown
        case "max_bytes":
            try count(1...1, "a number of bytes")
            add("maxb", String(try int(0, 1...2_000_000_000, "a number of bytes")))
        case "no_upscale":
            upscale = false
        case "upscale":
            upscale = true
        case "strip_exif", "strip_icc":
            add("strip", "1")
        case "grayscale":
            add("gray", "1")
        case "brightness":
            try count(1...1, "an amount from -100 to 100")
            let amount = try int(0, -100...100, "an amount from -100 to 100")
            if amount != 0 { add("bright", String(amount)) }
        case "contrast":
            try count(1...1, "an amount from -100 to 100")
            let amount = try int(0, -100...100, "an amount from -100 to 100")
            if amount != 0 { add("contrast", String(amount)) }
        case "round_corner":
            try count(4...5, "A|B,R,G,B[,TRANSPARENT]")
            let radii = args[0].split(separator: "|", omittingEmptySubsequences: false)
            guard (1...2).contains(radii.count), let a = Int(radii[0]), (1...100_000).contains(a),
                let b = radii.count > 1 ? Int(radii[1]) : a, (1...100_000).contains(b)
            else { throw bad("radii A or A|B from 1") }
            let channels = try (1...3).map { try int($0, 0...255, "R,G,B from 0 to 255") }
            let transparent = args.count > 4 && ["1", "true", "True"].contains(args[4])
            let colour = channels.map { String(format: "%02x", $0) }.joined() + (transparent ? "00" : "ff")
            add("round", "\(a):\(b):\(colour)")
        default:
            if let reason = Self.unsupported[name] {
                throw ServeFailure(400, "thumbor filter \(shown) is not supported: \(reason)")
            }
            throw ServeFailure(400, "thumbor filter \(shown) is not known")
        }
    }

    /// `RGB` or `RRGGBB` (thumbor's hex forms) as Imago's `RRGGBB`.
    static func hex(_ text: String, _ bad: (String) -> ServeFailure) throws -> String {
        let digits = text.count == 3 ? text.map { "\($0)\($0)" }.joined() : text
        guard digits.count == 6, RGBA(hex: Substring(digits)) != nil else { throw bad("a hex colour (RGB or RRGGBB)") }
        return digits.lowercased()
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }

    /// The filters as Imago's items; `fill()` needs a fit-in box.
    func items(fitIn: Bool) throws -> [(key: String, value: String)] {
        if fill != nil, !fitIn { throw ServeFailure(400, "thumbor filter fill() needs fit-in with a width and height") }
        return items
    }
}
