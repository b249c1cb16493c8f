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
        let plan = try ColorPlan(profile: profile, layout: .rgba, options: .default, format: image.format)
        var converted = try plan.applied(to: image)
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
