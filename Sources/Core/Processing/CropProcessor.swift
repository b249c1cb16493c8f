/// One coordinate of a crop: pixels of the image as it arrives at the processor, or a fraction of its size.
public enum CropValue: Sendable, Hashable, CustomStringConvertible {
    /// Whole pixels.
    case pixels(Int)
    /// A fraction of the width (for x and width) or height (for y and height): 0.5 is half.
    case fraction(Double)

    /// Parses the URL grammar's form: an integer is pixels (`10`, `-4`), a number with a decimal point a fraction
    /// (`0.5`, `1.0`); nil for anything else.
    public init?(_ text: some StringProtocol) {
        if text.contains(".") {
            guard let value = Double(String(text)), value.isFinite else { return nil }
            self = .fraction(value)
        } else {
            guard let value = Int(String(text)) else { return nil }
            self = .pixels(value)
        }
    }

    /// Pixels as an integer, fractions always with a decimal point (`0.5`, `1.0`), so the two never look alike.
    public var description: String {
        switch self {
        case .pixels(let value): "\(value)"
        case .fraction(let value): "\(value)"
        }
    }

    /// The value in pixels along an axis of `length` pixels (fractions rounded to the nearest pixel); nil when it is
    /// not a finite number that fits.
    func pixels(along length: Int) -> Int? {
        switch self {
        case .pixels(let value): return abs(value) <= Int(Int32.max) ? value : nil
        case .fraction(let value):
            let scaled = (value * Double(length)).rounded()
            guard scaled.isFinite, abs(scaled) < Double(Int32.max) else { return nil }
            return Int(scaled)
        }
    }
}

/// A crop rectangle whose values are each pixels or fractions.
public struct CropRegion: Sendable, Hashable {
    public var x: CropValue, y: CropValue, width: CropValue, height: CropValue

    /// Creates a region.
    public init(x: CropValue, y: CropValue, width: CropValue, height: CropValue) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// Crops every frame: to a rectangle in pixels (`init(x:y:width:height:)`, which must fit in the image), to a
/// region of pixels or fractions clamped to the image (`init(region:)`), or to the largest window of an aspect
/// ratio, placed by a gravity (`init(aspectWidth:aspectHeight:gravity:)`).
///
/// Clamping: the part of a region outside the image is dropped (a region at (-10, -10) of 50 × 50 keeps
/// (0, 0) of 40 × 40); a region with nothing inside the image, or with a width or height that is not positive,
/// throws `processingFailed`. Smart placement is chosen on the first frame and used for all of them.
public struct CropProcessor: ImageProcessor {
    /// What is cut.
    public enum Shape: Sendable, Hashable {
        /// A rectangle; `clamped` says whether a part outside the image is dropped (true) or is an error.
        case region(CropRegion, clamped: Bool)
        /// The largest window of `width`:`height` the image holds, placed by `gravity`.
        case aspect(width: Int, height: Int, gravity: Gravity)
        /// A window of `width` × `height` (pixels or fractions, cut to the image), placed by `gravity`.
        case window(width: CropValue, height: CropValue, gravity: Gravity)
    }

    /// What is cut.
    public var shape: Shape
    /// Moves a window or aspect crop from where its gravity puts it (imgproxy's `crop:W:H:GRAVITY:X:Y`): pixels when
    /// a value's magnitude is 1 or more, else a fraction of the image's side, positive away from the edge the
    /// gravity names; clamped to the image. (0, 0) by default; regions ignore it.
    public var offset: (x: Double, y: Double) = (0, 0)

    /// Creates a crop of `width` × `height` pixels at (`x`, `y`); it fails on images the rectangle does not fit in.
    public init(x: Int, y: Int, width: Int, height: Int) {
        shape = .region(
            CropRegion(x: .pixels(x), y: .pixels(y), width: .pixels(width), height: .pixels(height)), clamped: false)
    }

    /// Creates a crop of `region` (pixels or fractions), clamped to the image.
    public init(region: CropRegion) {
        shape = .region(region, clamped: true)
    }

    /// Creates a crop to the largest `aspectWidth`:`aspectHeight` window, placed by `gravity`.
    public init(aspectWidth: Int, aspectHeight: Int, gravity: Gravity = .center) {
        shape = .aspect(width: aspectWidth, height: aspectHeight, gravity: gravity)
    }

    /// Creates a crop to a `width` × `height` window (pixels or fractions, cut to the image), placed by `gravity`.
    public init(windowWidth: CropValue, windowHeight: CropValue, gravity: Gravity = .center) {
        shape = .window(width: windowWidth, height: windowHeight, gravity: gravity)
    }

    /// `crop(WxH,g=CODE)` for a window, `crop(X,Y,WxH)` for a strict pixel rectangle (as before), `crop(X,Y,WxH,clamp)` for a clamped region
    /// (fractions written with a decimal point), `crop(W:H,g=CODE)` for an aspect crop.
    public var identifier: String {
        let moved = offset == (0, 0) ? "" : ",off=\(offset.x):\(offset.y)"
        switch shape {
        case .region(let r, let clamped):
            return "crop(\(r.x),\(r.y),\(r.width)x\(r.height)\(clamped ? ",clamp" : ""))"
        case .aspect(let width, let height, let gravity):
            return "crop(\(width):\(height),g=\(gravity.code)\(moved))"
        case .window(let width, let height, let gravity):
            return "crop(\(width)x\(height),g=\(gravity.code)\(moved))"
        }
    }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        let rect = try rectangle(in: image.raster)
        if rect.x == 0, rect.y == 0, rect.width == image.width, rect.height == image.height { return image }
        return try image.mappingRasters {
            try $0.cropped(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        }
    }

    /// The pixel rectangle cut from `raster` (the first frame, which smart placement looks at).
    public func rectangle(in raster: Raster) throws -> (x: Int, y: Int, width: Int, height: Int) {
        let (imageWidth, imageHeight) = (raster.width, raster.height)
        switch shape {
        case .region(let region, let clamped):
            guard let x = region.x.pixels(along: imageWidth), let y = region.y.pixels(along: imageHeight),
                let width = region.width.pixels(along: imageWidth),
                let height = region.height.pixels(along: imageHeight), width > 0, height > 0
            else {
                throw ImagoError(.processingFailed, "the crop region \(Self.describe(region)) is empty or not a number")
            }
            guard clamped else { return (x, y, width, height) }  // `cropped` checks it fits.
            let left = max(0, x)
            let top = max(0, y)
            let right = min(imageWidth, x + width)
            let bottom = min(imageHeight, y + height)
            guard left < right, top < bottom else {
                throw ImagoError(
                    .processingFailed,
                    "the crop region \(Self.describe(region)) has nothing inside the \(imageWidth)x\(imageHeight) image"
                )
            }
            return (left, top, right - left, bottom - top)
        case .window(let windowWidth, let windowHeight, let gravity):
            guard let width = windowWidth.pixels(along: imageWidth),
                let height = windowHeight.pixels(along: imageHeight), width > 0, height > 0
            else {
                throw ImagoError(
                    .processingFailed, "the crop window \(windowWidth)x\(windowHeight) is empty or not a number")
            }
            try gravity.validate()
            return place(
                width: min(width, imageWidth), height: min(height, imageHeight), gravity: gravity, in: raster)
        case .aspect(let aspectWidth, let aspectHeight, let gravity):
            guard aspectWidth > 0, aspectHeight > 0 else {
                throw ImagoError(.processingFailed, "crop to an empty aspect ratio \(aspectWidth):\(aspectHeight)")
            }
            try gravity.validate()
            let ratio = Double(aspectWidth) / Double(aspectHeight)
            var width = imageWidth
            var height = imageHeight
            if Double(imageWidth) / Double(imageHeight) > ratio {
                width = min(imageWidth, max(1, Int((Double(imageHeight) * ratio).rounded())))
            } else {
                height = min(imageHeight, max(1, Int((Double(imageWidth) / ratio).rounded())))
            }
            return place(width: width, height: height, gravity: gravity, in: raster)
        }
    }

    /// `WxH at X,Y`, as a message names a region.
    static func describe(_ region: CropRegion) -> String {
        "\(region.width)x\(region.height) at \(region.x),\(region.y)"
    }

    /// A `width` × `height` window of `raster` (which holds it), placed by `gravity`.
    private func place(width: Int, height: Int, gravity: Gravity, in raster: Raster) -> (
        x: Int, y: Int, width: Int, height: Int
    ) {
        let origin = gravity.windowOrigin(
            window: (Double(width), Double(height)), width: raster.width, height: raster.height, raster: raster)
        let shift = gravity.offsetShift(offset, side: (Double(raster.width), Double(raster.height)))
        let x = min(max(0, Int((origin.x + shift.x).rounded())), raster.width - width)
        let y = min(max(0, Int((origin.y + shift.y).rounded())), raster.height - height)
        return (x, y, width, height)
    }
}
