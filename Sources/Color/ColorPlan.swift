import Foundation
import ImagoCore

/// What a decoder does with the profile a file embeds, decided from the header before any pixel is decoded.
///
/// By default the pixels are converted to sRGB (perceptual intent). With `ColorProfileHandling.keep` an RGB or
/// grey image keeps its stored pixels (grey expanded to r == g == b) and carries the profile; CMYK images are
/// converted all the same, since a `Raster` is RGBA and no format written here embeds a CMYK profile. With `.ignore` nothing is done. A
/// profile that cannot be used is ignored with a warning (an error in strict mode).
package struct ColorPlan: Sendable {
    /// The transform to run on the decoded pixels, nil when there is nothing to do.
    package let transform: ColorTransform?
    /// The profile the decoded image carries (kept), nil for sRGB.
    package let keptProfile: Data?
    package let description: String?
    package let warnings: [String]

    /// A plan that leaves the pixels alone (no profile).
    package static let none = ColorPlan(transform: nil, keptProfile: nil, description: nil, warnings: [])

    package init(transform: ColorTransform?, keptProfile: Data?, description: String?, warnings: [String]) {
        self.transform = transform
        self.keptProfile = keptProfile
        self.description = description
        self.warnings = warnings
    }

    /// The plan for `profile` (nil or empty: none) on pixels laid out as `layout`.
    package init(
        profile: Data?, layout: ColorSourceLayout, options: DecodeOptions, format: ImageFormat,
        cache: ColorTransformCache = .shared
    ) throws {
        guard let profile, !profile.isEmpty, options.colorProfiles != .ignore else {
            self = .none
            return
        }
        let entry = cache.entry(for: profile, layout: layout)
        if let problem = entry.problem {
            if options.strict {
                throw ImagoError(
                    .decodingFailed(format: format), "\(format) decoding failed: \(problem) (strict mode)")
            }
            self.init(transform: nil, keptProfile: nil, description: entry.description, warnings: [problem])
        } else if options.colorProfiles == .keep, layout == .rgba || layout == .grayInRGBA {
            self.init(transform: nil, keptProfile: profile, description: entry.description, warnings: [])
        } else {
            self.init(transform: entry.transform, keptProfile: nil, description: entry.description, warnings: [])
        }
    }

    /// Whether the decoder must hand over CMYK samples rather than its own RGBA conversion.
    package var needsRawCMYK: Bool { transform != nil }

    /// Converts the pixels in `buffer` in place.
    package func apply(to buffer: UnsafeMutableRawBufferPointer, width: Int, height: Int, bytesPerRow: Int) {
        guard let transform, let base = buffer.baseAddress else { return }
        transform.apply(base, width: width, height: height, bytesPerRow: bytesPerRow)
    }

    /// Every frame of `image` converted into new rasters, for decoders whose library owns the pixel memory.
    package func applied(to image: DecodedImage) throws -> DecodedImage {
        guard transform != nil else { return image }
        var converted = image
        converted.frames = try image.frames.map { frame in
            let source = frame.raster
            let raster = try Raster(width: source.width, height: source.height, bytesPerRow: source.bytesPerRow) {
                buffer in
                source.withUnsafeBytes { buffer.copyMemory(from: $0) }
                apply(to: buffer, width: source.width, height: source.height, bytesPerRow: source.bytesPerRow)
            }
            return ImageFrame(raster: raster, duration: frame.duration)
        }
        return converted
    }

    /// Records the outcome on the decoded image.
    package func record(on image: inout DecodedImage) {
        image.iccProfile = keptProfile
        image.colorProfileDescription = description
        image.warnings += warnings
    }
}
