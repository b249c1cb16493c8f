import CImagoShim
import Foundation
import ImagoCore

extension PNGCodec {
    /// The plan for the `iCCP` profile (grey for grey color types, RGB otherwise).
    static func colorPlan(
        _ decoder: OpaquePointer, header: imago_png_header, options: DecodeOptions
    ) throws -> ColorPlan {
        var bytes: UnsafePointer<UInt8>?
        var size = 0
        imago_png_decoder_icc_profile(decoder, &bytes, &size)
        guard let bytes, size > 0 else { return .none }
        let gray = header.color_type == 0 || header.color_type == 4  // PNG_COLOR_TYPE_GRAY, _GRAY_ALPHA
        return try ColorPlan(
            profile: Data(bytes: bytes, count: size), layout: gray ? .grayInRGBA : .rgba, options: options,
            format: .png)
    }

    /// libpng's warnings, each text once.
    static func warnings(_ decoder: OpaquePointer) -> [String] {
        var texts: [String] = []
        while let text = imago_png_decoder_warning(decoder, Int32(texts.count)) { texts.append(String(cString: text)) }
        return texts
    }
}
