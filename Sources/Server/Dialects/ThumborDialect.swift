import Foundation
import Imago

/// thumbor's URLs: `/{HASH|unsafe}/[trim[:N]/][AxB:CxD/][[adaptive-|full-]fit-in/][-]Wx[-]H/[HALIGN/][VALIGN/]
/// [smart/][filters:…/]IMAGE`, read into Imago's options with thumbor's meanings (without `fit-in` the image fills
/// W × H and is cropped by the alignment, enlarging if needed; a minus sign flips; 0 keeps the aspect; `AxB:CxD` is
/// a manual crop). IMAGE is a full `http(s)` URL or a path under `loaderBase`.
struct ThumborDialect: URLDialect {
    let name = "thumbor"
    let signer: ThumborSigner?
    let allowUnsafe: Bool
    let loaderBase: String?

    init(settings: ThumborSettings) {
        signer = settings.securityKey.map(ThumborSigner.init(key:))
        allowUnsafe = settings.allowUnsafe
        loaderBase = settings.loaderBase
    }

    func request(for path: Substring, time: Date, context: ProcessingOptions.Context) throws -> DialectRequest {
        try checkSegments(path)
        guard path.first == "/", let hashEnd = path.dropFirst().firstIndex(of: "/") else {
            throw ServeFailure(400, "thumbor: expected /HASH/…/IMAGE or /unsafe/…/IMAGE")
        }
        let hash = path[path.index(after: path.startIndex)..<hashEnd]
        let signed = path[path.index(after: hashEnd)...]
        if hash == "unsafe" {
            guard allowUnsafe else { throw ServeFailure(403, "thumbor: unsafe URLs are not allowed (allowUnsafe)") }
        } else {
            guard let signer, signer.accepts(hash: hash, for: signed) else {
                throw ServeFailure(403, "thumbor: bad signature")
            }
        }
        var reader = ThumborOptions()
        let image = try reader.read(signed)
        return DialectRequest(source: try source(image), options: try options(reader.items(), context: context))
    }

    /// IMAGE as a URL: itself when it is `http(s)://…` (or percent-encoded so), else under `loaderBase`.
    func source(_ image: Substring) throws -> String {
        guard !image.isEmpty else { throw ServeFailure(400, "thumbor: missing image") }
        let decoded = image.removingPercentEncoding ?? String(image)
        let lower = decoded.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return decoded }
        guard let loaderBase else {
            throw ServeFailure(400, "thumbor: a relative image needs serve.dialects.thumbor.loaderBase")
        }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.contains(where: { $0 == ".." || $0 == "." }), !decoded.hasPrefix("/"),
            !decoded.contains("\\"), segments.first?.contains(":") == false
        else {
            throw ServeFailure(400, "thumbor: the image path must stay under loaderBase (no .., no scheme, no :)")
        }
        let encoded = segments.map {
            $0.addingPercentEncoding(
                withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#;")))
                ?? ""
        }
        return loaderBase + encoded.joined(separator: "/")
    }
}

/// thumbor's path parts, read in its order, then written as Imago's options.
struct ThumborOptions {
    var trim: Int?
    var crop: (left: Int, top: Int, right: Int, bottom: Int)?
    var fitIn = false
    /// `fit-in`'s kind in Imago's grammar: `contain`, `adaptive` (adaptive-fit-in) or `outside` (full-fit-in).
    var fitMode = "contain"
    var width = 0, height = 0
    var flipHorizontal = false, flipVertical = false
    var halign = "center", valign = "middle"
    var smart = false
    var filters = ThumborFilters()

    /// Reads the parts before IMAGE and returns IMAGE (as sent).
    mutating func read(_ path: Substring) throws -> Substring {
        var rest = path
        /// The next segment read by `parse`, consumed when it reads it (IMAGE, the last segment, never is).
        func take<Value>(parsing parse: (Substring) -> Value?) -> Value? {
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            guard end < rest.endIndex, let value = parse(rest[..<end]) else { return nil }
            rest = rest[rest.index(after: end)...]
            return value
        }
        func take(_ matches: (Substring) -> Bool) -> Substring? { take(parsing: { matches($0) ? $0 : nil }) }
        for unsupported in ["debug", "meta"] where take({ $0 == unsupported }) != nil {
            throw ServeFailure(400, "thumbor: \(unsupported)/ is not supported (Imago answers images only)")
        }
        if let segment = take({ $0 == "trim" || $0.hasPrefix("trim:") }) { try readTrim(segment) }
        if let c = take(parsing: Self.cropPattern) { crop = c.right > c.left && c.bottom > c.top ? c : nil }
        if let segment = take({ $0.hasSuffix("fit-in") }) {
            let modes = ["fit-in": "contain", "adaptive-fit-in": "adaptive", "full-fit-in": "outside"]
            guard let mode = modes[String(segment)] else {
                throw ServeFailure(
                    400,
                    "thumbor: \(OptionError.shown(segment.prefix(24)))/ is not supported (fit-in, adaptive-fit-in and "
                        + "full-fit-in are)")
            }
            (fitIn, fitMode) = (true, mode)
        }
        if let d = take(parsing: Self.dimensions) {
            (width, flipHorizontal, height, flipVertical) = (d.width, d.flipH, d.height, d.flipV)
        }
        if let segment = take({ ["left", "right", "center"].contains($0) }) { halign = String(segment) }
        if let segment = take({ ["top", "bottom", "middle"].contains($0) }) { valign = String(segment) }
        if take({ $0 == "smart" }) != nil { smart = true }
        if rest.hasPrefix("filters:") {
            guard let end = rest.range(of: ")/") else { throw ServeFailure(400, "thumbor: filters:…) must end in )/") }
            try filters.read(rest[rest.index(rest.startIndex, offsetBy: 8)..<rest.index(after: end.lowerBound)])
            rest = rest[end.upperBound...]
        }
        return rest
    }

    mutating func readTrim(_ segment: Substring) throws {
        let parts = segment.split(separator: ":", omittingEmptySubsequences: false)
        var tolerance = 0
        for part in parts.dropFirst() {
            if part == "top-left" { continue }
            guard let value = Int(part), (0...255).contains(value), part.allSatisfy(\.isNumber) else {
                throw ServeFailure(
                    400,
                    "thumbor: \(OptionError.shown(segment.prefix(24))): Imago trims by the top-left colour, "
                        + "with a tolerance from 0 to 255")
            }
            tolerance = value
        }
        trim = tolerance
    }

    /// `AxB:CxD`.
    static func cropPattern(_ segment: Substring) -> (left: Int, top: Int, right: Int, bottom: Int)? {
        let halves = segment.split(separator: ":", omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        let numbers = halves.flatMap { $0.split(separator: "x", omittingEmptySubsequences: false) }
        guard numbers.count == 4, numbers.allSatisfy({ !$0.isEmpty && $0.count <= 9 && $0.allSatisfy(\.isNumber) })
        else { return nil }
        let values = numbers.compactMap { Int($0) }
        guard values.count == 4 else { return nil }
        return (values[0], values[1], values[2], values[3])
    }

    /// `[-]Wx[-]H`, each side digits, `orig` (-1 here: as the source) or empty (0).
    static func dimensions(_ segment: Substring) -> (width: Int, flipH: Bool, height: Int, flipV: Bool)? {
        let sides = segment.split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2 else { return nil }
        var parsed: [(Int, Bool)] = []
        for side in sides {
            let flip = side.hasPrefix("-")
            let digits = flip ? side.dropFirst() : side
            if digits.isEmpty {
                parsed.append((0, flip))
            } else if digits == "orig" {
                parsed.append((-1, flip))
            } else if digits.count <= 9, digits.allSatisfy(\.isNumber), let value = Int(digits) {
                parsed.append((value, flip))
            } else {
                return nil
            }
        }
        return (parsed[0].0, parsed[0].1, parsed[1].0, parsed[1].1)
    }

    /// The options as Imago's `key=value` items.
    func items() throws -> [(key: String, value: String)] {
        var items: [(key: String, value: String)] = []
        var (width, height) = (self.width, self.height)
        if width < 0 || height < 0 {
            // `orig` is the source's side: alone (or with 0) it keeps the source's size; beside a number it needs the
            // source's size, which Imago's options cannot name before loading.
            guard width <= 0, height <= 0 else {
                throw ServeFailure(400, "thumbor: orig beside a size is not supported (write 0 to keep the aspect)")
            }
            (width, height) = (0, 0)
        }
        func add(_ key: String, _ value: String?) { if let value { items.append((key, value)) } }
        add("trim", trim.map(String.init))
        if let crop {
            add("crop", "\(crop.left):\(crop.top):\(crop.right - crop.left):\(crop.bottom - crop.top)")
        }
        add("w", width > 0 ? String(width) : nil)
        add("h", height > 0 ? String(height) : nil)
        let resizes = width > 0 || height > 0
        if resizes, width > 0, height > 0 { add("fit", fitIn ? (fitMode == "contain" ? nil : fitMode) : "cover") }
        // thumbor enlarges unless fit-in or adaptive-fit-in (or no_upscale()); upscale() enlarges those too.
        add("enlarge", resizes && (filters.upscale ?? (!fitIn || fitMode == "outside")) ? "1" : nil)
        let gravity = smart ? "sm" : Self.gravity(halign: halign, valign: valign)
        if let focal = filters.focal {
            throw ServeFailure(
                400,
                "thumbor filter \(focal) is not supported: its region is in source pixels, Imago's focus point "
                    + "is a fraction chosen before the source is loaded")
        }
        // The alignment places the window of a fill-and-crop; fit-in's fill() centres, as thumbor's does.
        add("g", !fitIn && width > 0 && height > 0 && gravity != "c" ? gravity : nil)
        switch (flipHorizontal, flipVertical) {
        case (true, true): add("flip", "hv")
        case (true, false): add("flip", "h")
        case (false, true): add("flip", "v")
        case (false, false): break
        }
        items += try filters.items(fitIn: fitIn && fitMode == "contain" && width > 0 && height > 0)
        return items
    }

    static func gravity(halign: String, valign: String) -> String {
        let vertical = ["top": "n", "bottom": "s"][valign] ?? ""
        let horizontal = ["left": "w", "right": "e"][halign] ?? ""
        let code = vertical + horizontal
        return code.isEmpty ? "c" : code
    }
}
