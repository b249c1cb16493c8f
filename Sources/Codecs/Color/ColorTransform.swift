import CLCMS2
import Foundation

/// How the samples of a decoded buffer are laid out, as the colour engine must be told.
enum ColorSourceLayout: Hashable, Sendable {
    /// RGBA8 (straight alpha): RGB images.
    case rgba
    /// Grey in the red byte of an RGBA8 pixel (r == g == b), as the decoders expand grey images.
    case grayInRGBA
    /// C, M, Y, K bytes, stored inverted (Adobe APP14) or not.
    case cmyk(inverted: Bool)

    /// The ICC colour space a profile for this layout must describe.
    var profileSpace: cmsColorSpaceSignature {
        switch self {
        case .rgba: cmsSigRgbData
        case .grayInRGBA: cmsSigGrayData
        case .cmyk: cmsSigCmykData
        }
    }

    var name: String {
        switch self {
        case .rgba: "RGB"
        case .grayInRGBA: "grey"
        case .cmyk: "CMYK"
        }
    }

    /// lcms2's input format.
    var inputFormat: cmsUInt32Number {
        switch self {
        case .rgba: IMAGO_TYPE_RGBA_8
        case .grayInRGBA: IMAGO_TYPE_GRAY_IN_RGBA_8
        case .cmyk(let inverted): inverted ? IMAGO_TYPE_CMYK_8_REV : IMAGO_TYPE_CMYK_8
        }
    }
}

/// An lcms2 transform from an embedded profile to sRGB (perceptual intent) on 8-bit pixels, applied in place.
///
/// Made with `cmsFLAGS_NOCACHE`, which is what lets one transform run on several threads at once (the 1-pixel
/// cache is the only state lcms2 changes while transforming), so the cache can share it.
final class ColorTransform: @unchecked Sendable {
    private let handle: cmsHTRANSFORM
    private let layout: ColorSourceLayout

    /// A transform from `profile` for `layout`, or nil when lcms2 cannot build one.
    init?(profile: cmsHPROFILE, layout: ColorSourceLayout) {
        guard let sRGB = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(sRGB) }
        // 8-bit formats get lcms2's optimised (precomputed, interpolated) pipelines. Extra channels (alpha) are
        // skipped, not written: transforming in place leaves alpha as decoded, and costs 10% less than
        // cmsFLAGS_COPY_ALPHA copying it onto itself.
        let flags = cmsUInt32Number(cmsFLAGS_NOCACHE)
        guard
            let handle = cmsCreateTransform(
                profile, layout.inputFormat, sRGB, IMAGO_TYPE_RGBA_8, cmsUInt32Number(INTENT_PERCEPTUAL), flags)
        else { return nil }
        self.handle = handle
        self.layout = layout
    }

    deinit { cmsDeleteTransform(handle) }

    /// Converts `height` rows of `width` pixels, `bytesPerRow` apart, to sRGB RGBA8 in place. lcms2 reads each
    /// pixel before it writes it, and every layout here takes 4 bytes a pixel, so in place is safe.
    func apply(_ base: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int) {
        cmsDoTransformLineStride(
            handle, base, base, cmsUInt32Number(width), cmsUInt32Number(height), cmsUInt32Number(bytesPerRow),
            cmsUInt32Number(bytesPerRow), 0, 0)
        switch layout {
        case .cmyk:
            // The fourth byte held K: CMYK images are opaque.
            for y in 0..<height {
                let row = base.advanced(by: y * bytesPerRow).assumingMemoryBound(to: UInt8.self)
                for x in 0..<width { row[x * 4 + 3] = 255 }
            }
        case .grayInRGBA, .rgba:
            break
        }
    }

    /// Whether the transform moves no 8-bit value by more than 1 (an sRGB profile, give or take the rounding of
    /// its curves, which is invisible): probed on ramps of each channel, the grey axis and a coarse cube, so the
    /// decoder can skip it and return sRGB-tagged pixels exactly as stored, as browsers do.
    var isIdentity: Bool {
        var probe: [UInt8] = []
        switch layout {
        case .cmyk: return false
        case .grayInRGBA:
            for v in 0...255 { probe += [UInt8(v), UInt8(v), UInt8(v), 255] }
        case .rgba:
            for v in 0...255 {
                let b = UInt8(v)
                probe += [b, 0, 0, 255, 0, b, 0, 255, 0, 0, b, 255, b, b, b, 255]
            }
            let steps: [UInt8] = [0, 51, 102, 153, 204, 255]
            for r in steps { for g in steps { for b in steps { probe += [r, g, b, 255] } } }
        }
        let original = probe
        probe.withUnsafeMutableBytes { apply($0.baseAddress!, width: $0.count / 4, height: 1, bytesPerRow: $0.count) }
        return zip(probe, original).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
    }
}

/// An ICC profile opened by lcms2; closed when released.
final class OpenedColorProfile {
    let handle: cmsHPROFILE

    /// Opens `data`; nil when lcms2 cannot parse it.
    init?(_ data: Data) {
        guard !data.isEmpty, data.count <= Int(UInt32.max) else { return nil }
        let opened = data.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }
        guard let opened else { return nil }
        handle = opened
    }

    deinit { cmsCloseProfile(handle) }

    var colorSpace: cmsColorSpaceSignature { cmsGetColorSpace(handle) }

    /// The profile's description tag (English when it has several), nil when it has none.
    var description: String? {
        let length = cmsGetProfileInfoASCII(handle, cmsInfoDescription, "en", "US", nil, 0)
        guard length > 1 else { return nil }
        var text = [UInt8](repeating: 0, count: Int(length))
        text.withUnsafeMutableBytes {
            _ = cmsGetProfileInfoASCII(handle, cmsInfoDescription, "en", "US", $0.baseAddress, length)
        }
        let characters = text.prefix { $0 != 0 }
        let description = String(decoding: characters, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return description.isEmpty ? nil : description
    }
}
