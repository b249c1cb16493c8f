import Imago

/// The options segment of an image path: comma-separated `key=value` items in any order, or `-` for none.
public struct ImageOptions: Sendable, Hashable {
    /// How `w` × `h` is filled.
    public enum Fit: String, Sendable, Hashable, CaseIterable {
        /// Fit inside, keeping the aspect ratio.
        case contain
        /// Fill and crop the centre.
        case cover
        /// Stretch to exactly `w` × `h`.
        case fill
    }

    /// `w`, in pixels before `dpr`.
    public var width: Int?
    /// `h`, in pixels before `dpr`.
    public var height: Int?
    /// `fit` (default `contain`).
    public var fit: Fit = .contain
    /// `enlarge` (default off): whether a smaller source is scaled up.
    public var enlarge = false
    /// `dpr`, 1…4: multiplies `w` and `h`.
    public var dpr: Double = 1
    /// `f`; `nil`: the source's format, or JPEG when no encoder writes it.
    public var format: OutputFormat?
    /// `q`, 1…100; `nil`: the encoder's default.
    public var quality: Int?
    /// `frame`: one frame by index; `nil`: every frame for animated output formats, else the first.
    public var frame: Int?

    /// No options.
    public init() {}

    /// Parses `segment`; a bad item is a 400 naming it. `w` and `h` after `dpr` must be at most `maxOutputSide`.
    public init(parsing segment: Substring, maxOutputSide: Int) throws {
        self.init()
        guard segment != "-" else { return }
        guard !segment.isEmpty else { throw ServeFailure(400, "empty options segment (use - for none)") }
        var seen: Set<Substring> = []
        for item in segment.split(separator: ",", omittingEmptySubsequences: false) {
            guard let equals = item.firstIndex(of: "=") else {
                throw ServeFailure(400, "option \"\(Self.shown(item))\" is not key=value")
            }
            let key = item[..<equals]
            let value = item[item.index(after: equals)...]
            guard seen.insert(key).inserted else { throw ServeFailure(400, "option \(Self.shown(key)) is given twice") }
            try apply(key: key, value: value, item: item, maxOutputSide: maxOutputSide)
        }
        for (name, side) in [("w", width), ("h", height)] {
            guard let side else { continue }
            let scaled = Self.scaled(side, dpr)
            if scaled > maxOutputSide {
                throw ServeFailure(
                    400,
                    "option \(name)=\(side) with dpr=\(Self.number(dpr)) is \(scaled) px, over the limit of "
                        + "\(maxOutputSide)")
            }
        }
    }

    private mutating func apply(key: Substring, value: Substring, item: Substring, maxOutputSide: Int) throws {
        func bad(_ expected: String) -> ServeFailure {
            ServeFailure(400, "option \"\(Self.shown(item))\": expected \(expected)")
        }
        // One spelling per value, so that one image has one URL (and one entry in any cache in front of serve).
        if ["w", "h", "dpr", "q", "frame"].contains(key), let canonical = Self.canonicalSpelling(of: value) {
            throw ServeFailure(
                400, "option \"\(Self.shown(item))\": write \(key)=\(canonical) (no leading or trailing zeros)")
        }
        switch key {
        case "w", "h":
            guard let side = Self.integer(value, in: 1...999_999_999) else {
                throw bad("a whole number of pixels from 1 to \(maxOutputSide)")
            }
            if key == "w" { width = side } else { height = side }
        case "fit":
            guard let fit = Fit(rawValue: String(value)) else { throw bad("contain, cover or fill") }
            self.fit = fit
        case "enlarge":
            guard value == "0" || value == "1" else { throw bad("0 or 1") }
            enlarge = value == "1"
        case "dpr":
            guard let dpr = Self.decimal(value, in: 1...4) else { throw bad("a number from 1 to 4") }
            self.dpr = dpr
        case "f":
            guard let format = OutputFormat(String(value)) else {
                throw bad(OutputFormat.names.joined(separator: ", ") + " or auto")
            }
            self.format = format
        case "q":
            guard let quality = Self.integer(value, in: 1...100) else { throw bad("a whole number from 1 to 100") }
            self.quality = quality
        case "frame":
            guard let frame = Self.integer(value, in: 0...99_999) else { throw bad("a frame index from 0") }
            self.frame = frame
        default:
            throw ServeFailure(
                400, "unknown option \"\(Self.shown(item))\" (known: w, h, fit, enlarge, dpr, f, q, frame)")
        }
    }

    /// `w` after `dpr`.
    public var outputWidth: Int? { width.map { Self.scaled($0, dpr) } }
    /// `h` after `dpr`.
    public var outputHeight: Int? { height.map { Self.scaled($0, dpr) } }

    /// Every option with its effective value, in a fixed order: equal for requests that mean the same.
    public var canonical: String {
        [
            "w=\(outputWidth.map(String.init) ?? "-")", "h=\(outputHeight.map(String.init) ?? "-")",
            "fit=\(fit.rawValue)", "enlarge=\(enlarge ? 1 : 0)", "f=\(format?.description ?? "-")",
            "q=\(quality.map(String.init) ?? "-")", "frame=\(frame.map(String.init) ?? "-")",
        ].joined(separator: ",")
    }

    private static func scaled(_ side: Int, _ dpr: Double) -> Int { Int((Double(side) * dpr).rounded()) }

    /// Digits only (no sign, no spaces), at most 9 of them, within `range`.
    private static func integer(_ text: Substring, in range: ClosedRange<Int>) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let value = Int(text),
            range.contains(value)
        else { return nil }
        return value
    }

    /// The canonical spelling of a number written with a leading zero (`010`, `01.5`) or a fraction ending in zero
    /// (`1.50`, `2.0`); `nil` when `text` is canonical or not a number at all (refused by the value's own check).
    static func canonicalSpelling(of text: Substring) -> String? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), text.count <= 12,
            parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } })
        else { return nil }
        var whole = parts[0].drop { $0 == "0" }
        if whole.isEmpty { whole = "0" }
        var fraction = parts.count == 2 ? parts[1] : ""
        while fraction.last == "0" { fraction = fraction.dropLast() }
        let canonical = fraction.isEmpty ? String(whole) : "\(whole).\(fraction)"
        return canonical == text ? nil : canonical
    }

    /// `D`, `D.D` digits only, within `range`.
    private static func decimal(_ text: Substring, in range: ClosedRange<Double>) -> Double? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), text.count <= 12,
            parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }),
            let value = Double(text), range.contains(value)
        else { return nil }
        return value
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// An item as echoed in an error: printable ASCII only, at most 64 characters.
    static func shown(_ text: Substring) -> String {
        let clean = text.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7f ? Character($0) : "?" }
        return clean.count > 64 ? String(clean.prefix(64)) + "…" : String(clean)
    }
}
