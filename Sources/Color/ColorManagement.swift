import CLCMS2
import Foundation
import ImagoCore

/// ICC colour management over lcms2, for code outside the decoders: the decoders themselves convert embedded
/// profiles to sRGB as they decode (see `DecodeOptions.colorProfiles`).
public enum ColorManagement {
    /// The image converted to sRGB (perceptual intent), every frame, when it carries a kept RGB or grey profile
    /// (`DecodedImage.iccProfile`); the image itself when it has none. A pipeline that decodes with
    /// `.keep` and resizes first can call this after the resize, converting fewer pixels. A profile
    /// that cannot be used is dropped with a warning, as at decode time.
    public static func convertedToSRGB(_ image: DecodedImage) throws -> DecodedImage {
        guard let profile = image.iccProfile else { return image }
        let layout: ColorSourceLayout = isGrayProfile(profile) ? .grayInRGBA : .rgba
        let plan = try ColorPlan(profile: profile, layout: layout, options: .default, format: image.format)
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

    /// For encoders that write a kept grey profile in a grey file (PNG, JPEG): the image, converted to sRGB when its
    /// grey profile sits on pixels that are not all grey (a grey file could not hold them), and whether it still
    /// carries a grey profile. `pixelsAreGray` is asked only when there is a grey profile.
    package static func keepingGrayProfile(
        _ image: DecodedImage, pixelsAreGray: (Raster) -> Bool
    ) throws -> (image: DecodedImage, grayProfile: Bool) {
        guard let profile = image.iccProfile, isGrayProfile(profile) else { return (image, false) }
        guard pixelsAreGray(image.raster) else { return (try convertedToSRGB(image), false) }
        return (image, true)
    }

    /// The image converted to sRGB when it carries a kept grey profile, else the image itself: for encoders of
    /// formats that hold only RGB, which cannot embed a grey profile.
    package static func withoutGrayProfile(_ image: DecodedImage) throws -> DecodedImage {
        guard let profile = image.iccProfile, isGrayProfile(profile) else { return image }
        return try convertedToSRGB(image)
    }

    /// Whether `profile` is a grey one: for decoders that expand grey to RGBA (r == g == b) without saying so.
    package static func isGrayProfile(_ profile: Data) -> Bool {
        OpenedColorProfile(profile)?.colorSpace == cmsSigGrayData
    }
}
