import Imago

/// imgproxy's options written as Imago's (`items()`), and the argument forms several options share.
extension ImgproxyOptions {
    /// imgproxy gravity types and Imago's codes.
    static let gravities = [
        "ce": "c", "no": "n", "so": "s", "ea": "e", "we": "w", "noea": "ne", "nowe": "nw", "soea": "se", "sowe": "sw",
    ]

    mutating func readResizingType(_ type: Substring, _ bad: (String) -> ServeFailure) throws {
        switch type {
        case "fit", "fill", "fill-down", "force", "auto": resizingType = String(type)
        default: throw bad("fit, fill, fill-down, force or auto")
        }
    }

    /// `TYPE[:X_OFFSET:Y_OFFSET]`, `fp:X:Y` or `sm` as an Imago gravity code; offsets other than 0 are a 400.
    func gravity(_ args: [Substring], allowsSmart: Bool, _ bad: (String) -> ServeFailure) throws -> String {
        switch args[0] {
        case "sm":
            guard allowsSmart, args.count == 1 else { throw bad("a gravity other than sm here") }
            return "sm"
        case "fp":
            guard args.count == 3, let x = Double(args[1]), let y = Double(args[2]), (0...1).contains(x),
                (0...1).contains(y), args[1].count <= 12, args[2].count <= 12
            else { throw bad("fp:X:Y with X and Y from 0 to 1") }
            return "fp:\(Self.number(x)):\(Self.number(y))"
        default:
            guard let code = Self.gravities[String(args[0])] else {
                throw bad("ce, no, so, ea, we, noea, nowe, soea, sowe, fp:X:Y or sm")
            }
            for offset in args.dropFirst() where !offset.isEmpty && Double(offset) != 0 {
                throw ServeFailure(
                    400,
                    "imgproxy gravity offsets (\(OptionError.shown(offset.prefix(12)))) are not supported: Imago's "
                        + "gravities have none")
            }
            return code
        }
    }

    mutating func readWatermark(_ args: [Substring], _ shown: String, _ bad: (String) -> ServeFailure) throws {
        guard let opacity = Double(args[0]), (0...1).contains(opacity), args[0].count <= 12 else {
            throw bad("an opacity from 0 to 1")
        }
        guard opacity > 0 else {
            watermark = nil
            return
        }
        var position = "c"
        if args.count > 1, !args[1].isEmpty {
            guard args[1] != "re" else {
                throw ServeFailure(400, "imgproxy option \"\(shown)\": tiled watermarks (re) are not supported")
            }
            guard let code = Self.gravities[String(args[1])] else { throw bad("a watermark position") }
            position = code
        }
        for offset in args.dropFirst(2).prefix(2) where !offset.isEmpty && Double(offset) != 0 {
            throw ServeFailure(400, "imgproxy option \"\(shown)\": watermark offsets are not supported")
        }
        var text = "\(Self.number(opacity)):\(position)"
        if args.count > 4, !args[4].isEmpty {
            guard let scale = Double(args[4]), (0...1).contains(scale), args[4].count <= 12 else {
                throw bad("a scale from 0 to 1")
            }
            if scale > 0 { text += ":\(Self.number(scale))" }
        }
        watermark = text
    }

    /// The options as Imago's `key=value` items.
    func items() throws -> [(key: String, value: String)] {
        var items: [(key: String, value: String)] = []
        func add(_ key: String, _ value: String?) { if let value { items.append((key, value)) } }
        add("pr", presets)
        let (width, height) = (self.width ?? 0, self.height ?? 0)
        add("w", width > 0 ? String(width) : nil)
        add("h", height > 0 ? String(height) : nil)
        switch resizingType {
        case "fill", "fill-down": add("fit", "cover")
        case "auto": add("fit", "auto")
        case "force":
            guard (width == 0) == (height == 0) else {
                throw ServeFailure(400, "imgproxy resizing type force with one side 0 is not supported")
            }
            add("fit", "fill")
        default: break
        }
        add("enlarge", enlarge ? "1" : nil)
        var gravity = self.gravity
        if extend {
            add("ext", "1")
            if resizingType == "fit" { gravity = extendGravity ?? "c" }
        }
        add("g", gravity == "c" ? nil : gravity)
        add("dpr", dpr)
        if let crop { add("crop", try cropWindow(crop)) }
        add("pad", padding.map { $0.map(String.init).joined(separator: ":") })
        add("trim", trim.map(String.init))
        add("rot", rotate == 0 ? nil : String(rotate))
        switch flip {
        case (true, true): add("flip", "hv")
        case (true, false): add("flip", "h")
        case (false, true): add("flip", "v")
        case (false, false): break
        }
        add("bg", background)
        add("blur", blur)
        add("sharpen", sharpen)
        add("wm", watermark)
        if let quality {
            add("q", String(quality))
        } else if !formatQuality.isEmpty {
            guard let format else {
                throw ServeFailure(
                    400, "imgproxy option format_quality needs the output format in the URL (format: or an extension)")
            }
            add("q", formatQuality[format].map(String.init))
        }
        add("maxb", maxBytes.map(String.init))
        add("f", format)
        add("strip", strip == false ? "0" : nil)
        return items
    }

    /// `crop:W:H[:G]` as Imago's window `W:H:G` (0 is the whole side; below 1 a fraction).
    func cropWindow(_ crop: (width: Double, height: Double, gravity: String?)) throws -> String {
        func side(_ value: Double) throws -> String {
            if value == 0 { return "1.0" }
            if value < 1 { return String(value) }
            guard value == value.rounded() else {
                throw ServeFailure(400, "imgproxy crop sizes of 1 or more are whole pixels")
            }
            return String(Int(value))
        }
        let gravity = crop.gravity ?? self.gravity ?? "c"
        return "\(try side(crop.width)):\(try side(crop.height)):\(gravity)"
    }
}
