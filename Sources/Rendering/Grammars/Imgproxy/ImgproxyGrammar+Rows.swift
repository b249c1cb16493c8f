/// imgproxy's options, one row each, with their full and short names.
extension ImgproxyGrammar {
    static let sizeRows: [Row] = [
        Row(
            ["resize", "rs"], expected: "TYPE:WIDTH:HEIGHT:ENLARGE:EXTEND", arguments: 1...5,
            writes: ["fit", "w", "h", "enlarge", "ext"]
        ) { reading, arguments in
            if let fit = try fit(arguments, 0, &reading.scratch) { reading.options.fit = fit }
            try readSize(&reading.options, arguments, from: 1)
        },
        Row(
            ["size", "s"], expected: "WIDTH:HEIGHT:ENLARGE:EXTEND", arguments: 1...4,
            writes: ["w", "h", "enlarge", "ext"]
        ) { reading, arguments in
            try readSize(&reading.options, arguments, from: 0)
        },
        Row(["resizing_type", "rt"], expected: "fit, fill, fill-down, force or auto", writes: ["fit"]) {
            reading, arguments in
            reading.options.fit = try fit(arguments, 0, &reading.scratch) ?? reading.options.fit
        },
        Row(["width", "w"], expected: "a width in pixels", writes: ["w"]) { reading, arguments in
            reading.options.width = try side(arguments, 0) ?? nil
        },
        Row(["height", "h"], expected: "a height in pixels", writes: ["h"]) { reading, arguments in
            reading.options.height = try side(arguments, 0) ?? nil
        },
        Row(["dpr"], expected: "a number above 0, at most 4", writes: ["dpr"]) { reading, arguments in
            let dpr = try arguments.decimal(0, in: 0...4) ?? 1
            guard dpr > 0 else { throw arguments.malformed() }
            reading.options.dpr = dpr
        },
        Row(["min-width", "mw"], expected: "a width in pixels", writes: ["minw"]) { reading, arguments in
            reading.options.adjustments.minimumWidth = try arguments.int(0, in: 0...99_999) ?? 0
        },
        Row(["min-height", "mh"], expected: "a height in pixels", writes: ["minh"]) { reading, arguments in
            reading.options.adjustments.minimumHeight = try arguments.int(0, in: 0...99_999) ?? 0
        },
        Row(["zoom", "z"], expected: "ZOOM_X:ZOOM_Y (factors above 0)", arguments: 1...2, writes: ["zoom", "scale"]) {
            reading, arguments in
            let x = try arguments.decimal(0, in: ScaleProcessor.factorRange) ?? 1
            reading.scratch.zoom = (x, try arguments.decimal(1, in: ScaleProcessor.factorRange) ?? x)
        },
        Row(["enlarge", "el"], expected: "1 or 0", writes: ["enlarge"]) { reading, arguments in
            reading.options.enlarge = try arguments.bool(0) ?? false
        },
        Row(["extend", "ex"], expected: "EXTEND:GRAVITY", arguments: 1...4, writes: ["ext"]) { reading, arguments in
            reading.options.extend = try arguments.bool(0) ?? false
            // imgproxy centres an extended image unless told otherwise, whatever `gravity` says.
            let placement = arguments.count > 1 ? try gravity(arguments, at: 1, allowsSmart: false) : nil
            reading.options.extendGravity = placement?.gravity ?? .center
            reading.options.extendOffset = placement?.offset ?? .init()
        },
        Row(
            ["extend_aspect_ratio", "extend_ar", "exar"], expected: "EXTEND:GRAVITY", arguments: 1...4, writes: ["exar"]
        ) { reading, arguments in
            guard try arguments.bool(0) == true else {
                reading.options.aspectExtend = nil
                return
            }
            let placement = arguments.count > 1 ? try gravity(arguments, at: 1, allowsSmart: false) : nil
            guard placement?.offset.isZero ?? true else {
                throw arguments.unsupported("offsets of an aspect-ratio extension")
            }
            reading.options.aspectExtend = placement?.gravity ?? .center
        },
    ]

    /// `WIDTH:HEIGHT:ENLARGE:EXTEND` from argument `start`, each left out keeping what was set.
    static func readSize(_ options: inout ProcessingOptions, _ arguments: OptionArguments, from start: Int) throws {
        if let width = try side(arguments, start) { options.width = width }
        if let height = try side(arguments, start + 1) { options.height = height }
        if let enlarge = try arguments.bool(start + 2) { options.enlarge = enlarge }
        if let extend = try arguments.bool(start + 3) {
            options.extend = extend
            if options.extendGravity == nil { options.extendGravity = .center }
        }
    }

    static let placementRows: [Row] = [
        Row(
            ["gravity", "g"], expected: "TYPE:X_OFFSET:Y_OFFSET, fp:X:Y, sm or obj:face", arguments: 1...3,
            writes: ["g"]
        ) { reading, arguments in
            // `obj:face`: the faces a face detector finds (smart gravity without one); no other object class.
            reading.options.gravityOnFaces = arguments.values.first == "obj"
            guard !reading.options.gravityOnFaces else {
                guard arguments.values.dropFirst() == ["face"] else {
                    throw arguments.unsupported("object gravity: Imago's detector finds faces only (obj:face)")
                }
                reading.options.gravity = .smart
                return
            }
            let (gravity, offset) = try gravity(arguments, at: 0, allowsSmart: true)
            reading.options.gravity = gravity
            reading.options.adjustments.offset = (offset.x, offset.y)
        },
        Row(["crop", "c"], expected: "WIDTH:HEIGHT:GRAVITY", arguments: 2...5, writes: ["crop"]) {
            reading, arguments in
            /// 0 is the whole side, below 1 a fraction, from 1 whole pixels.
            func side(_ index: Int) throws -> CropValue {
                let value = try arguments.decimal(index, in: 0...99_999) ?? 0
                if value == 0 { return .fraction(1) }
                if value < 1 { return .fraction(value) }
                guard value == value.rounded() else { throw arguments.malformed("whole pixels from 1, or a fraction") }
                return .pixels(Int(value))
            }
            let placement = arguments.count > 2 ? try gravity(arguments, at: 2, allowsSmart: false) : nil
            reading.options.crop = .window(width: try side(0), height: try side(1), gravity: placement?.gravity)
            reading.options.cropOffset = placement?.offset ?? .init()
        },
        Row(["padding", "pd"], expected: "TOP:RIGHT:BOTTOM:LEFT", arguments: 1...4, writes: ["pad"]) {
            reading, arguments in
            let sides = try (0..<arguments.count).map { try arguments.int($0, in: 0...99_999) }
            let top = sides[0] ?? 0
            let right = sides.count > 1 ? sides[1] ?? top : top
            let bottom = sides.count > 2 ? sides[2] ?? top : top
            let left = sides.count > 3 ? sides[3] ?? right : right
            let pad = ProcessingOptions.Padding(top: top, right: right, bottom: bottom, left: left)
            reading.options.pad = [top, right, bottom, left].allSatisfy { $0 == 0 } ? nil : pad
        },
        Row(["trim", "t"], expected: "THRESHOLD:COLOR:EQUAL_HOR:EQUAL_VER", arguments: 1...4, writes: ["trim"]) {
            reading, arguments in
            var rule = ProcessingOptions.TrimRule()
            if let colour = try arguments.color(1, expected: "a hex colour RRGGBB") { rule.reference = .colour(colour) }
            rule.equalHorizontal = try arguments.bool(2) ?? false
            rule.equalVertical = try arguments.bool(3) ?? false
            reading.options.trim = try arguments.int(0, in: 0...255, expected: "a threshold from 0 to 255") ?? 10
            reading.options.trimRule = rule
        },
        Row(["rotate", "rot"], expected: "0, 90, 180 or 270", writes: ["rot"]) { reading, arguments in
            guard let degrees = try arguments.int(0, in: 0...3600), degrees % 90 == 0 else {
                throw arguments.malformed("a multiple of 90")
            }
            reading.options.rotate = degrees % 360 == 0 ? nil : degrees % 360
        },
        Row(["flip", "fl"], expected: "HORIZONTAL:VERTICAL", arguments: 1...2, writes: ["flip"]) {
            reading, arguments in
            switch (try arguments.bool(0) ?? false, try arguments.bool(1) ?? false) {
            case (true, true): reading.options.flip = .hv
            case (true, false): reading.options.flip = .h
            case (false, true): reading.options.flip = .v
            case (false, false): reading.options.flip = nil
            }
        },
        Row(["background", "bg"], expected: "R:G:B or a hex colour RRGGBB", arguments: 1...3, writes: ["bg"]) {
            reading, arguments in
            if arguments.count == 3 {
                let channels = try (0..<3).map { try arguments.int($0, in: 0...255, expected: "R:G:B from 0 to 255") }
                reading.options.background = RGBA(
                    UInt8(channels[0] ?? 0), UInt8(channels[1] ?? 0), UInt8(channels[2] ?? 0))
            } else if arguments.count == 1, let hex = arguments[0] {
                guard hex.count == 6, let colour = RGBA(hex: hex) else { throw arguments.malformed("RRGGBB") }
                reading.options.background = colour
            } else if arguments.count == 1 {
                reading.options.background = nil
            } else {
                throw arguments.malformed()
            }
        },
    ]
}
