/// Limits a decoder checks from the header, before it allocates any pixels.
public struct DecodeLimits: Sendable, Hashable, Codable {
    /// Most pixels one frame may have (width × height).
    public var maxPixels: Int
    /// Most pixels all frames of an animation may have together.
    public var maxTotalPixels: Int
    /// Most frames an animation may have.
    public var maxFrames: Int
    /// Most encoded bytes a decoder accepts.
    public var maxBytes: Int

    /// Creates limits; the defaults suit an app or a server that shows photos.
    public init(
        maxPixels: Int = 100_000_000, maxTotalPixels: Int = 400_000_000, maxFrames: Int = 10_000,
        maxBytes: Int = 100 * 1024 * 1024
    ) {
        self.maxPixels = maxPixels
        self.maxTotalPixels = maxTotalPixels
        self.maxFrames = maxFrames
        self.maxBytes = maxBytes
    }

    /// The defaults.
    public static let `default` = DecodeLimits()

    /// Throws `limitExceeded` when a frame of `width` × `height` is over `maxPixels`.
    public func check(width: Int, height: Int, format: ImageFormat) throws {
        guard width > 0, height > 0 else {
            throw ImagoError(.decodingFailed(format: format), "\(format) header gives an empty size \(width)x\(height)")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > maxPixels {
            throw ImagoError(
                .limitExceeded, "too large: \(width)x\(height) exceeds the \(Self.megapixels(maxPixels)) limit")
        }
    }

    /// Throws `limitExceeded` when `frames` frames of `width` × `height` are over `maxFrames` or `maxTotalPixels`.
    public func check(frames: Int, width: Int, height: Int, format: ImageFormat) throws {
        try check(width: width, height: height, format: format)
        if frames > maxFrames {
            throw ImagoError(.limitExceeded, "too many frames: \(frames) exceeds the limit of \(maxFrames)")
        }
        let (total, overflow) = (width * height).multipliedReportingOverflow(by: Swift.max(frames, 1))
        if overflow || total > maxTotalPixels {
            throw ImagoError(
                .limitExceeded,
                "too large: \(frames) frames of \(width)x\(height) exceed the \(Self.megapixels(maxTotalPixels)) limit")
        }
    }

    /// Throws `tooLarge` when `count` encoded bytes are over `maxBytes`.
    public func check(byteCount count: Int) throws {
        if count > maxBytes {
            throw ImagoError(.tooLarge, "too large: \(count) bytes exceeds the limit of \(maxBytes) bytes")
        }
    }

    package static func megapixels(_ pixels: Int) -> String {
        pixels % 1_000_000 == 0 ? "\(pixels / 1_000_000) MP" : "\(pixels) pixel"
    }
}

/// A size in pixels.
public struct PixelSize: Sendable, Hashable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    /// Creates a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)" }
}

/// How an image is fitted into a target size.
public enum ContentMode: String, Sendable, Hashable, Codable {
    /// Scale to fit inside the target, keeping the aspect ratio.
    case fit
    /// Scale to cover the target, keeping the aspect ratio (the excess is cropped by the resize processor).
    case fill
}

/// Which frames a decoder produces.
public enum FrameSelection: Sendable, Hashable, Codable {
    /// Every frame of an animation.
    case all
    /// Only the first frame (cheaper for thumbnails).
    case first
}

/// What a decoder does with an ICC profile embedded in the file.
public enum ColorProfileHandling: String, Sendable, Hashable, Codable {
    /// Convert the pixels to sRGB (perceptual intent) and drop the profile, as browsers show them.
    case convertToSRGB
    /// Keep an RGB or grey image's stored pixels and carry its profile (`DecodedImage.iccProfile`), for an encoder
    /// to embed (PNG and JPEG write a grey-profiled image as grey; encoders of RGB-only files convert it to sRGB).
    /// CMYK images are still converted: a raster is RGBA, and an RGB file cannot hold a CMYK profile.
    case keep
    /// Return the stored samples as they are and drop the profile (CMYK through the generic formula), as
    /// Pillow's `convert("RGBA")` does; for comparing with decoders that do not manage colour.
    case ignore
}

/// What a decoder is asked for.
public struct DecodeOptions: Sendable, Hashable {
    /// Limits checked before allocation.
    public var limits: DecodeLimits
    /// When set, a decoder may decode at a reduced scale (JPEG DCT scaling, WebP scaled decode) as long as the
    /// result still covers this size under `contentMode`; the resize processor does the rest. The size is in the
    /// upright space (after the EXIF orientation is applied, as processors see the image) unless
    /// `targetIsUpright` is false; decoders compare it with the stored size through
    /// `targetSize(forStoredOrientation:)`.
    public var targetSize: PixelSize?
    /// Whether `targetSize` is in the upright space (the default, as the loader's orientation stage turns the
    /// image before processors run) or, when false, in the stored space (the loader sets this when a request's
    /// `appliesOrientation` is off, since then nothing turns the pixels).
    public var targetIsUpright: Bool
    /// How the target size is fitted.
    public var contentMode: ContentMode
    /// Which frames to decode.
    public var frames: FrameSelection
    /// When set, every warning a decoder would keep on the image (corrupt JPEG data, a malformed colour profile)
    /// is an error instead; by default such images decode as the library reconstructs them, as viewers show them.
    public var strict: Bool
    /// What decoders do with an embedded ICC profile; by default they convert the pixels to sRGB.
    public var colorProfiles: ColorProfileHandling
    /// For sources with a timeline (video): the poster's time, or which frames.
    public var timeline = TimelineOptions()

    /// Creates options.
    public init(
        limits: DecodeLimits = .default, targetSize: PixelSize? = nil, contentMode: ContentMode = .fit,
        frames: FrameSelection = .all, strict: Bool = false,
        colorProfiles: ColorProfileHandling = .convertToSRGB
    ) {
        self.limits = limits
        self.targetSize = targetSize
        self.targetIsUpright = true
        self.contentMode = contentMode
        self.frames = frames
        self.strict = strict
        self.colorProfiles = colorProfiles
    }

    /// The defaults: full size, every frame, default limits.
    public static let `default` = DecodeOptions()

    /// The target size in the stored space of an image whose EXIF orientation is `orientation` (reported by the
    /// decoder, not applied): width and height swap for orientations 5–8 when the target is upright.
    public func targetSize(forStoredOrientation orientation: ImageOrientation) -> PixelSize? {
        guard let targetSize, targetIsUpright, orientation.swapsDimensions else { return targetSize }
        return PixelSize(width: targetSize.height, height: targetSize.width)
    }

    /// The largest reduction `1/denominator` (denominator among `denominators`, ascending) that keeps an image
    /// stored as `width` × `height` with `orientation` at least as large as the target requires; 1 when there is
    /// no target.
    public func reductionDenominator(
        width: Int, height: Int, orientation: ImageOrientation, denominators: [Int] = [1, 2, 4, 8]
    ) -> Int {
        guard let target = targetSize(forStoredOrientation: orientation), target.width > 0, target.height > 0 else {
            return 1
        }
        let sx = Double(width) / Double(target.width)
        let sy = Double(height) / Double(target.height)
        // For fit the image must cover the target along its limiting side; for fill along both.
        let allowed = contentMode == .fit ? Swift.max(sx, sy) : Swift.min(sx, sy)
        return denominators.last { Double($0) <= allowed } ?? 1
    }

    /// A stable description of everything here that changes the pixels, for cache keys.
    public var cacheKeyComponent: String {
        var parts: [String] = []
        if let targetSize {
            parts.append("target=\(targetSize)/\(contentMode.rawValue)\(targetIsUpright ? "" : "/stored")")
        }
        if frames == .first { parts.append("frames=first") }
        if strict { parts.append("strict") }
        if colorProfiles != .convertToSRGB { parts.append("profiles=\(colorProfiles.rawValue)") }
        let timeline = timeline.cacheKeyComponent
        if !timeline.isEmpty { parts.append("timeline=\(timeline)") }
        return parts.joined(separator: ",")
    }
}

/// What an encoder is asked for.
public struct EncodeOptions: Sendable, Hashable {
    /// Quality from 0 to 100 for lossy formats.
    public var quality: Int
    /// Whether a format that can be either (WebP) must be lossless.
    public var lossless: Bool
    /// Whether to keep every frame when the format can hold an animation.
    public var allFrames: Bool
    /// What encoders of formats without alpha (JPEG) composite transparent pixels onto; white by default.
    /// Formats with alpha keep it and ignore this.
    public var background: RGBColor

    /// Creates options.
    public init(quality: Int = 85, lossless: Bool = false, allFrames: Bool = true, background: RGBColor = .white) {
        self.quality = Swift.min(Swift.max(quality, 0), 100)
        self.lossless = lossless
        self.allFrames = allFrames
        self.background = background
    }

    /// The defaults: quality 85, lossy where the format allows, all frames, a white background.
    public static let `default` = EncodeOptions()

    /// A stable description of everything here that changes the encoded bytes, for keys of encoded outputs.
    public var cacheKeyComponent: String {
        "q=\(quality),lossless=\(lossless ? 1 : 0),frames=\(allFrames ? "all" : "first"),bg=\(background.hex)"
    }
}
