import Foundation
import Testing

extension ServerIntegrationTests {
    /// thumbor 7.8.0's own test cases against a real thumbor and `imago serve` (Scripts/compare-thumbor-suite.py
    /// starts both as children on loopback): every case passes (same status class; for a 200 the same size and
    /// format and at least 30 dB) unless it is listed below, and every listed case still fails, so the list stays
    /// true. Phase 2 of issue 35 empties the `.phase2` entries by wiring the rows of Docs/Dialects.md's coverage
    /// table; `.stays` entries are differences the table states.
    @Suite struct ThumborSuiteTests {
        enum ExpectedFailure {
            /// Fixed by wiring this row in phase 2.
            case phase2(String)
            /// A difference that stays, and why.
            case stays(String)
        }

        static let focal = ExpectedFailure.phase2("focal(): ResizeAdjustments.focalRegions with cropsWholePixels")
        static let orig = ExpectedFailure.phase2("orig beside a number: ResizeAdjustments.usesSourceWidth/Height")
        static let truncated = ExpectedFailure.phase2("sides thumbor computes are truncated: roundsSidesDown")
        static let watermark = ExpectedFailure.phase2(
            "watermark(): WatermarkProcessor positions, tiles and ratios (Core work left), the mark fetched under "
                + "allowedSources")
        static let proportion = ExpectedFailure.phase2(
            "proportion(): ScaleProcessor(rounding: .down); outside (0, 1] ignored")
        static let averageFill = ExpectedFailure.phase2("fill(auto): CanvasFillProcessor(.average)")
        static let blurFill = ExpectedFailure.phase2("fill(blur): CanvasFillProcessor(.blur)")
        static let thumborBlur = ExpectedFailure.phase2("blur(): TruncatedGaussianBlurProcessor (radius cut at 150)")
        static let ignoredFocal = ExpectedFailure.phase2(
            "focal() with an empty or invalid region: ignored, as thumbor does")

        /// Every case expected to fail today, by the id the script gives it.
        static let expectedFailures: [String: ExpectedFailure] = [
            "TESTITEMS[6]": focal, "TESTITEMS[7]": focal, "TESTITEMS[8]": focal, "TESTITEMS[9]": focal,
            "TESTITEMS[10]": focal, "TESTITEMS[11]": focal, "TESTITEMS[12]": focal, "TESTITEMS[13]": focal,
            "TESTITEMS[14]": focal, "TESTITEMS[15]": focal, "TESTITEMS[16]": focal,
            "TESTITEMS[39]": truncated, "TESTITEMS[40]": truncated, "TESTITEMS[41]": truncated,
            "TESTITEMS[61]": .stays("0x1 of 200×400: thumbor answers 500 (a zero-pixel-wide resize), Imago 1×1"),
            "TESTITEMS[87]": orig, "TESTITEMS[88]": orig, "FIT_IN_CROP_DATA[7]": orig, "FIT_IN_CROP_DATA[8]": orig,
            "FIT_IN_CROP_DATA[6]": .phase2("adaptive-full-fit-in: a rule of OrientationFitProcessor (Core work left)"),
            "test_background_color.py::test_background_color_filter_with_fixed_color": .phase2(
                "background_color(NAME): FlattenProcessor, RGBA(cssColor:)"),
            "test_background_color.py::test_background_color_filter_with_auto_color": .phase2(
                "background_color(auto): CanvasFillProcessor(.average, fillsTransparency: true)"),
            "test_blur.py::test_blur_filter_with_max_radius": thumborBlur,
            "test_blur.py::test_blur_filter_for_png_palette_mode": thumborBlur,
            "test_blur.py::test_blur_filter_png_with_transparency_rgba_mode": thumborBlur,
            "test_colorize.py::test_colorize_filter": .phase2("colorize(): ColorizeProcessor"),
            "test_convolution.py::test_convolution_filter_true": .phase2("convolution(): ConvolutionProcessor"),
            "test_convolution.py::test_convolution_filter_false": .phase2("convolution(): ConvolutionProcessor"),
            "test_fill.py::test_fill_filter_with_average": averageFill,
            "test_fill.py::test_fill_filter_with_full_fit_in": averageFill,
            "test_fill.py::test_fill_filter_with_full_fit_in_orig_width": averageFill,
            "test_fill.py::test_fill_filter_with_blur": blurFill,
            "test_fill.py::test_fill_filter_with_blur_transparency_true": blurFill,
            "test_focal.py::test_focal_filter_valid": focal,
            "test_focal.py::test_focal_filter_no_change": focal,
            "test_focal.py::test_focal_filter_pass_through_empty": ignoredFocal,
            "test_focal.py::test_focal_filter_pass_through_invalid": ignoredFocal,
            "test_focal.py::test_focal_filter_pass_through_dumb": ignoredFocal,
            "test_format.py::test_invalid_format_should_be_null": .phase2(
                "format(invalid): ignored (the source's format), as thumbor does"),
            "test_no_upscale.py::test_no_upscale_filter_request_bigger_than_image": .phase2(
                "no_upscale(): ResizeAdjustments.clampsTargetToImage"),
            "test_no_upscale.py::test_no_upscale_filter_request_lower_than_image": .phase2(
                "thumbor's whole-pixel window: ResizeAdjustments.cropsWholePixels"),
            "test_noise.py::test_noise_filter": .phase2("noise(): NoiseProcessor"),
            "test_proportion.py::test_proportion_filter_equal": proportion,
            "test_proportion.py::test_proportion_filter_value_above_one_is_ignored": proportion,
            "test_proportion.py::test_proportion_filter_zero_is_ignored": proportion,
            "test_proportion.py::test_proportion_filter_negative_is_ignored": proportion,
            "test_rgb.py::test_rgb_filter": .phase2("rgb(): ChannelShiftProcessor"),
            "test_rotate.py::test_rotate_filter_with_invalid_value": .phase2(
                "rotate(N) not a multiple of 90: no rotation, as thumbor does"),
            "test_saturation.py::test_saturation_filter": .phase2("saturation(): SaturationProcessor"),
            "test_stretch.py::test_stretch_filter_with_resize": .phase2("stretch(): StretchProcessor"),
            "test_upscale.py::test_upscale_filter_with_adaptive_fit_in_big": truncated,
            "test_upscale.py::test_upscale_filter_with_adaptive_full_fit_in_big": .phase2(
                "adaptive-full-fit-in: a rule of OrientationFitProcessor (Core work left)"),
            "test_watermark.py::test_watermark_filter_centered": watermark,
            "test_watermark.py::test_watermark_filter_centered_x": watermark,
            "test_watermark.py::test_watermark_filter_repeated": watermark,
            "test_watermark.py::test_watermark_filter_simple": watermark,
            "test_watermark.py::test_watermark_filter_calculated": watermark,
            "test_watermark.py::test_watermark_filter_simple_big": watermark,
            "test_watermark.py::test_watermark_filter_simple_50p_width": watermark,
            "test_base_handler.py::test_can_get_image_with_filter": .phase2(
                "fill(NAME) without fit-in: CanvasFillProcessor at the image's size, RGBA(cssColor:)"),
        ]

        struct Result: Decodable {
            var id: String
            var url: String
            var passed: Bool
            var detail: String
        }

        @Test func thumborsOwnCasesPassOrAreListed() throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
            let output = try DialectPython.run(
                file: root.appendingPathComponent("Scripts/compare-thumbor-suite.py"),
                ["--imago", try ServeChild.executable().path])
            let lines = output.split(separator: "\n").map { Data($0.utf8) }
            let results = lines.compactMap { try? JSONDecoder().decode(Result.self, from: $0) }
            #expect(results.count >= 160, "\(results.count) cases")
            for result in results {
                if let expected = Self.expectedFailures[result.id] {
                    #expect(!result.passed, "\(result.id) passes now: remove it from the list (\(expected))")
                } else {
                    #expect(result.passed, "\(result.id) \(result.url): \(result.detail)")
                }
            }
            let ids = Set(results.map(\.id))
            #expect(Set(Self.expectedFailures.keys).subtracting(ids).isEmpty, "listed cases the suite no longer has")
            let passed = results.filter(\.passed).count
            print("[thumbor suite] \(results.count) cases: \(passed) pass, \(results.count - passed) fail")
        }
    }
}
