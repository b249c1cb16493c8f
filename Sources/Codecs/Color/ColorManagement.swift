import Foundation
import ImagoCore

/// ICC colour management over lcms2, for code outside the decoders: the decoders themselves convert embedded
/// profiles to sRGB as they decode (see `DecodeOptions.colorProfiles`).
public enum ColorManagement {
    /// The image converted to sRGB (perceptual intent), every frame, when it carries a kept RGB profile
    /// (`DecodedImage.iccProfile`); the image itself when it has none. A pipeline that decodes with
    /// `.keep` and resizes first can call this after the resize, converting fewer pixels. A profile
    /// that cannot be used is dropped with a warning, as at decode time.
    public static func convertedToSRGB(_ image: DecodedImage) throws -> DecodedImage {
        guard let profile = image.iccProfile else { return image }
        var converted = image
        let plan = try ColorPlan(profile: profile, layout: .rgba, options: .default, format: image.format)
        if plan.transform != nil {
            converted.frames = try image.frames.map { frame in
                let source = frame.raster
                let raster = try Raster(width: source.width, height: source.height, bytesPerRow: source.bytesPerRow) {
                    buffer in
                    source.withUnsafeBytes { buffer.copyMemory(from: $0) }
                    plan.apply(to: buffer, width: source.width, height: source.height, bytesPerRow: source.bytesPerRow)
                }
                return ImageFrame(raster: raster, duration: frame.duration)
            }
        }
        converted.iccProfile = nil
        converted.warnings += plan.warnings
        return converted
    }

    /// The description tag of an ICC profile; nil when the profile is malformed or has none.
    public static func profileDescription(_ profile: Data) -> String? {
        OpenedColorProfile(profile)?.description
    }

    /// Whether lcms2 can open `profile` as an ICC profile.
    public static func isValidProfile(_ profile: Data) -> Bool { OpenedColorProfile(profile) != nil }
}
