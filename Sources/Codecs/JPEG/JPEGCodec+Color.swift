import CImagoShim
import Foundation
import ImagoCore

extension JPEGCodec {
    /// The plan for the embedded ICC profile; for CMYK with a usable profile, asks libjpeg for raw CMYK samples.
    static func colorPlan(
        _ decoder: OpaquePointer, header: imago_jpeg_header, options: DecodeOptions
    ) throws -> ColorPlan {
        var bytes: UnsafeMutablePointer<UInt8>?
        var size: UInt32 = 0
        guard imago_jpeg_decoder_icc_profile(decoder, &bytes, &size) == 0 else {
            throw CodecFailure.decoding(.jpeg, CodecFailure.reason(imago_jpeg_decoder_message(decoder)))
        }
        guard let bytes, size > 0 else { return .none }
        let profile = Data(bytesNoCopy: bytes, count: Int(size), deallocator: .free)
        let layout: ColorSourceLayout =
            switch header.color {
            case IMAGO_JPEG_CMYK: .cmyk(inverted: imago_jpeg_decoder_cmyk_inverted(decoder) != 0)
            case IMAGO_JPEG_GRAY: .grayInRGBA
            default: .rgba
            }
        let plan = try ColorPlan(profile: profile, layout: layout, options: options, format: .jpeg)
        if case .cmyk = layout, plan.needsRawCMYK { imago_jpeg_decoder_keep_cmyk(decoder, 1) }
        return plan
    }

    /// The warnings libjpeg gave while decoding, each text once, with a count of the repeats.
    static func warnings(_ decoder: OpaquePointer) -> [String] {
        let total = Int(imago_jpeg_decoder_warning_count(decoder))
        var texts: [String] = []
        while let text = imago_jpeg_decoder_warning(decoder, Int32(texts.count)) {
            texts.append(String(cString: text))
        }
        if total > texts.count { texts.append("\(total - texts.count) more warnings") }
        return texts
    }
}
