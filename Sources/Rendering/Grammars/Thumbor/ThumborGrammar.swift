/// thumbor's options: the path's parts in thumbor's order,
/// `[trim[:top-left][:N]/][AxB:CxD/][[adaptive-|full-]fit-in/][-]Wx[-]H/[halign/][valign/][smart/][filters:…/]IMAGE`,
/// each read into the options model with thumbor's meanings (without `fit-in` the image fills W × H and is cropped
/// by the alignment, enlarging if needed; a minus sign flips; 0 keeps the aspect; `AxB:CxD` is a manual crop), and
/// its `filters:name(args):…`, one row each (`ThumborGrammar.filters`).
public enum ThumborGrammar {
    /// What the path's parts say before they become options: they decide the fit, the enlarging and the gravity
    /// together, with the `upscale`/`no_upscale` and `fill` filters.
    public struct Scratch: Sendable {
        public var fitIn = false
        /// `fit-in`'s kind: `contain`, `adaptive` (adaptive-fit-in) or `outside` (full-fit-in).
        public var fitMode = ProcessingOptions.Fit.contain
        /// The sides asked for: 0 keeps the aspect, -1 is `orig`.
        public var width = 0, height = 0
        public var flipHorizontal = false, flipVertical = false
        public var halign = "center", valign = "middle"
        public var smart = false
        /// `upscale()` / `no_upscale()`.
        public var upscale: Bool?
        /// `focal(LxT:RxB)`'s regions (left, top, right, bottom) in the source's pixels.
        public var focalBoxes: [(Int, Int, Int, Int)] = []
        /// `stretch()`: the size exactly, the aspect ignored.
        public var stretch = false
        /// `extract_focal()`: IMAGE is a thumbor URL whose crop is a focal region (`extractedFocal`).
        public var extractsFocal = false
        /// The filters skipped, as written: names thumbor does not know, arguments its patterns do not read.
        public var skippedFilters: [String] = []
        public init() {}
    }

    /// Reads the parts of `path` (what follows the signature) before IMAGE, and returns the options, checked, and
    /// IMAGE as sent.
    public static func options(_ path: Substring, context: ProcessingOptions.Context) throws -> (
        reading: OptionsReading<Scratch>, image: Substring
    ) {
        var reading = OptionsReading(scratch: Scratch())
        var rest = path
        /// The next segment read by `parse`, consumed when it reads it (IMAGE, the last segment, never is).
        func take<Value>(parsing parse: (Substring) throws -> Value?) rethrows -> Value? {
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            guard end < rest.endIndex, let value = try parse(rest[..<end]) else { return nil }
            rest = rest[rest.index(after: end)...]
            return value
        }
        func take(_ matches: (Substring) -> Bool) -> Substring? { take(parsing: { matches($0) ? $0 : nil }) }
        for unsupported in ["debug", "meta"] where take({ $0 == unsupported }) != nil {
            throw OptionError(
                .unsupported, item: unsupported,
                message: "thumbor: \(unsupported)/ is not supported (Imago answers images only)")
        }
        if let segment = take({ $0 == "trim" || $0.hasPrefix("trim:") }) {
            (reading.options.trim, reading.options.trimRule) = try trim(segment)
            reading.spellings["trim"] = String(segment)
        }
        if let crop = try take(parsing: cropPattern) {
            let (left, top, right, bottom) = crop.box
            if right > left && bottom > top {
                let region = CropRegion(
                    x: .pixels(left), y: .pixels(top), width: .pixels(right - left), height: .pixels(bottom - top))
                reading.options.crop = .region(region)
                reading.spellings["crop"] = String(crop.written)
            }
        }
        if let segment = take({ $0.hasSuffix("fit-in") }) {
            let modes: [Substring: ProcessingOptions.Fit] = [
                "fit-in": .contain, "adaptive-fit-in": .adaptive, "full-fit-in": .outside,
                "adaptive-full-fit-in": .adaptiveOutside,
            ]
            guard let mode = modes[segment] else {
                let shown = OptionError.shown(segment.prefix(24))
                throw OptionError(
                    .unsupported, item: shown,
                    message: "thumbor: \(shown)/ is not supported "
                        + "(fit-in, adaptive-fit-in, full-fit-in and adaptive-full-fit-in are)")
            }
            (reading.scratch.fitIn, reading.scratch.fitMode) = (true, mode)
        }
        if let size = take(parsing: dimensions) {
            (reading.scratch.width, reading.scratch.flipHorizontal) = (size.width, size.flipH)
            (reading.scratch.height, reading.scratch.flipVertical) = (size.height, size.flipV)
            for key in ["w", "h", "fit", "enlarge", "flip"] { reading.spellings[key] = String(size.written) }
        }
        if let segment = take({ ["left", "right", "center"].contains($0) }) {
            reading.scratch.halign = String(segment)
        }
        if let segment = take({ ["top", "bottom", "middle"].contains($0) }) {
            reading.scratch.valign = String(segment)
        }
        if take({ $0 == "smart" }) != nil { reading.scratch.smart = true }
        if rest.hasPrefix("filters:") {
            guard let end = rest.range(of: ")/") else {
                throw OptionError(.malformed, item: "filters", message: "thumbor: filters:…) must end in )/")
            }
            let text = rest[rest.index(rest.startIndex, offsetBy: 8)..<rest.index(after: end.lowerBound)]
            for item in try filterItems(text) {
                do {
                    try filters.apply(item, to: &reading)
                    // thumbor applies its filters in the URL's order: the colour effects keep it.
                    reading.options.appendEffects(filters.row(named: item.name)?.writes ?? [])
                } catch let error as OptionError where error.kind == .unknown || error.kind == .malformed {
                    // thumbor skips what it cannot read and serves the rest (a 200): so does Imago.
                    reading.scratch.skippedFilters.append(OptionError.shown(item.written.prefix(40)))
                }
            }
            rest = rest[end.upperBound...]
        }
        if reading.scratch.extractsFocal, let inner = extractedFocal(rest) {
            let box = inner.box
            if box.2 > box.0 && box.3 > box.1 { reading.scratch.focalBoxes.append(box) }
            rest = inner.image
        }
        try finish(&reading)
        // thumbor's URLs name no presets: where only presets are accepted, they may ask for nothing else.
        if context.onlyPresets, reading.options != ProcessingOptions() {
            throw OptionError(
                .conflicting, item: "thumbor", message: "thumbor: only presets are accepted (serve.onlyPresets)")
        }
        try reading.options.validate(context, spelling: reading.spelling(of:))
        return (reading, rest)
    }

    /// `trim`, `trim:top-left|bottom-right`, `trim:N`, `trim:top-left|bottom-right:N`: the border of the corner's
    /// colour, within a Euclidean tolerance over R, G and B (thumbor's `_bounding_box`).
    static func trim(_ segment: Substring) throws -> (Int, ProcessingOptions.TrimRule) {
        var (tolerance, rule) = (0, ProcessingOptions.TrimRule())
        rule.distance = .euclidean
        for part in segment.split(separator: ":", omittingEmptySubsequences: false).dropFirst() {
            if part == "top-left" { continue }
            if part == "bottom-right" {
                rule.reference = .bottomRight
                continue
            }
            guard let value = NumberSpelling.plain.integer(part, in: 0...442) else {
                let shown = OptionError.shown(segment.prefix(24))
                throw OptionError(
                    .malformed, item: shown,
                    message: "thumbor: \(shown): expected trim[:top-left|bottom-right][:TOLERANCE from 0 to 442]")
            }
            tolerance = value
        }
        return (tolerance, rule)
    }

    /// `AxB:CxD` (left, top, right, bottom); a segment of that shape with signs or fractions is refused as a crop,
    /// not taken for the start of IMAGE.
    static func cropPattern(_ segment: Substring) throws -> (box: (Int, Int, Int, Int), written: Substring)? {
        let halves = segment.split(separator: ":", omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        let numbers = halves.flatMap { $0.split(separator: "x", omittingEmptySubsequences: false) }
        guard numbers.count == 4, numbers.allSatisfy({ !$0.isEmpty && $0.count <= 12 }) else { return nil }
        let values = numbers.compactMap { NumberSpelling.plain.integer($0, in: 0...999_999_999) }
        guard values.count == 4 else {
            // Shaped like a crop (numbers, signs, points): a crop that cannot be, not a path under loaderBase.
            guard numbers.allSatisfy({ $0.allSatisfy { $0.isNumber || $0 == "-" || $0 == "." || $0 == "+" } })
            else { return nil }
            let shown = OptionError.shown(segment.prefix(40))
            throw OptionError(
                .malformed, item: shown,
                message: "thumbor crop \"\(shown)\": expected AxB:CxD (left, top, right, bottom), whole pixels from 0")
        }
        return ((values[0], values[1], values[2], values[3]), segment)
    }

    /// `[-]Wx[-]H`, each side digits, `orig` (-1 here: as the source) or empty (0).
    static func dimensions(_ segment: Substring) -> (
        width: Int, flipH: Bool, height: Int, flipV: Bool, written: Substring
    )? {
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
            } else if let value = NumberSpelling.plain.integer(digits, in: 0...999_999_999) {
                parsed.append((value, flip))
            } else {
                return nil
            }
        }
        return (parsed[0].0, parsed[0].1, parsed[1].0, parsed[1].1, segment)
    }

    /// The parts' rules, once every part and filter is read: fit, enlarging, gravity and flips.
    static func finish(_ reading: inout OptionsReading<Scratch>) throws {
        let scratch = reading.scratch
        var (width, height) = (scratch.width, scratch.height)
        var options = reading.options
        if width < 0 || height < 0 {
            // `orig` is the source's side: alone (or with 0) it keeps the source's size; beside a number that side of
            // the target is the source's (a placeholder of 1 in the options).
            options.adjustments.usesSourceWidth = width < 0 && height > 0
            options.adjustments.usesSourceHeight = height < 0 && width > 0
            (width, height) = (max(width, 0), max(height, 0))
            if options.adjustments.usesSourceWidth { width = 1 }
            if options.adjustments.usesSourceHeight { height = 1 }
        }
        options.width = width > 0 ? width : nil
        options.height = height > 0 ? height : nil
        let resizes = width > 0 || height > 0
        let both = width > 0 && height > 0
        if both { options.fit = scratch.fitIn ? scratch.fitMode : .cover }
        // thumbor enlarges unless fit-in or adaptive-fit-in (or no_upscale()); upscale() enlarges those too.
        let covers = scratch.fitIn && (scratch.fitMode == .outside || scratch.fitMode == .adaptiveOutside)
        options.enlarge = resizes && (scratch.upscale ?? (!scratch.fitIn || covers))
        // no_upscale() cuts the target to the image; thumbor truncates the sides it computes, and cuts a
        // fill-and-crop's window in whole pixels.
        options.adjustments.clampsTargetToImage = resizes && scratch.upscale == false
        options.adjustments.roundsSidesDown = resizes && !scratch.fitIn
        // upscale() after fit-in enlarges with truncated sides (fit-in itself rounds when it shrinks).
        options.adjustments.roundsEnlargedSidesDown = both && scratch.fitIn && !covers && scratch.upscale == true
        options.adjustments.cropsWholePixels = both && !scratch.fitIn
        if scratch.stretch && both {
            (options.fit, options.enlarge) = (.fill, true)
        }
        options.adjustments.focalRegions = focalRegions(scratch.focalBoxes, crop: options.crop)
        // The alignment places the window of a fill-and-crop; fit-in's fill() centres, as thumbor's does.
        if !scratch.fitIn && both {
            options.gravity = scratch.smart ? .smart : gravity(halign: scratch.halign, valign: scratch.valign)
        }
        switch (scratch.flipHorizontal, scratch.flipVertical) {
        case (true, true): options.flip = .hv
        case (true, false): options.flip = .h
        case (false, true): options.flip = .v
        case (false, false): break
        }
        // fill() fills the fit-in box, or the requested size, or the image's own: full-fit-in's image covers its
        // box, and an `orig` side is the image's.
        let sourceSide = options.adjustments.usesSourceWidth || options.adjustments.usesSourceHeight
        if !both || sourceSide || covers {
            options.canvasFill?.usesTargetSize = false
        }
        reading.options = options
    }

    /// `focal()`'s boxes as regions of the image the resize receives: moved by a manual crop's origin, and dropped
    /// when their centre is outside it.
    static func focalRegions(_ boxes: [(Int, Int, Int, Int)], crop: ProcessingOptions.Crop?) -> [ResizeAdjustments
        .Region]
    {
        var (left, top, right, bottom) = (0, 0, Int.max, Int.max)
        if case .region(let region)? = crop, case .pixels(let x) = region.x, case .pixels(let y) = region.y,
            case .pixels(let width) = region.width, case .pixels(let height) = region.height
        {
            (left, top, right, bottom) = (x, y, x + width, y + height)
        }
        return boxes.compactMap { box in
            let (centreX, centreY) = ((box.0 + box.2) / 2, (box.1 + box.3) / 2)
            guard (left..<right).contains(centreX), (top..<bottom).contains(centreY) else { return nil }
            return ResizeAdjustments.Region(
                x: box.0 - left, y: box.1 - top, width: box.2 - box.0, height: box.3 - box.1)
        }
    }

    static func gravity(halign: String, valign: String) -> Gravity {
        let vertical = ["top": "n", "bottom": "s"][valign] ?? ""
        let horizontal = ["left": "w", "right": "e"][halign] ?? ""
        return Gravity(code: vertical + horizontal) ?? .center
    }
}
