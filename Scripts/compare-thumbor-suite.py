#!/usr/bin/python3
"""thumbor's own test cases, run against a real thumbor 7.8.0 and `imago serve` (issue 35).

The cases come from thumbor 7.8.0's repository (github.com/thumbor/thumbor, tag 7.8.0): every TestData of
tests/fixtures/transformer_test_data.py (the resize, crop, alignment, focal-point and fit-in cases its transformer
tests check) as the URL that asks for it, on a generated PNG of the case's source size; and the calls of
tests/filters/test_*.py (and a few URLs of tests/handlers/test_base_handler.py) as URLs on thumbor's own fixture
images (thumbor/fixtures/filters, installed with thumbor). Each case's id names where it comes from.

Both servers are started as children the way Scripts/compare-thumbor.py starts them (its functions are reused:
thumbor from /opt/imago-thumbor-venv with the file loader, `imago serve` with thumbor's grammar at the root), on
127.0.0.1 and free ports. A case passes when both answer the same status class and, for a 200: the same format
and size, and a PSNR of at least 30 dB over RGBA, fully transparent pixels counted as transparent black (rule
"pixels"), or only the same format and size (rule "size",
for smart detection and thumbor's unseeded noise, whose pixels cannot agree).

Prints one JSON object per case (`id`, `url`, `rule`, `thumbor`, `imago`, `size`, `psnr`, `passed`, `detail`),
then a last line `{"tally": …}`. The Swift test (ThumborSuiteTests) holds the named expected failures.

Usage: Scripts/compare-thumbor-suite.py --imago .build/debug/imago [--only ID-PREFIX]
"""
import argparse, importlib.util, json, math, os, shutil, subprocess, sys, tempfile

import numpy
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("compare_thumbor", os.path.join(HERE, "compare-thumbor.py"))
compare = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compare)

PSNR_THRESHOLD = 30.0

# tests/fixtures/transformer_test_data.py: (id, source width, source height, target width, target height, halign,
# valign, focal points (x, y, width, height), fit_in, adaptive, full).
TRANSFORMER_CASES = [
    ('TESTITEMS[0]', 800, 600, 400, 150, 'center', 'middle', [], False, False, False),
    ('TESTITEMS[1]', 600, 800, 150, 400, 'center', 'middle', [], False, False, False),
    ('TESTITEMS[2]', 600, 800, 300, 400, 'center', 'middle', [], False, False, False),
    ('TESTITEMS[3]', 800, 600, 0, 0, 'center', 'middle', [], False, False, False),
    ('TESTITEMS[4]', 800, 600, 400, 0, 'center', 'middle', [], False, False, False),
    ('TESTITEMS[5]', 200, 140, 180, 100, 'center', 'middle', [], False, False, False),
    ('TESTITEMS[6]', 200, 200, 100, 100, 'center', 'middle', [(100, 100, 1, 1)], False, False, False),
    ('TESTITEMS[7]', 400, 200, 100, 100, 'center', 'middle', [(100, 100, 1, 1)], False, False, False),
    ('TESTITEMS[8]', 400, 200, 100, 200, 'center', 'middle', [(100, 50, 1, 1), (300, 50, 1, 1)], False, False, False),
    ('TESTITEMS[9]', 400, 200, 100, 200, 'center', 'middle', [(100, 150, 1, 1), (300, 150, 1, 1)], False, False, False),
    ('TESTITEMS[10]', 400, 200, 100, 200, 'center', 'middle', [(100, 50, 1, 1), (100, 150, 1, 1)], False, False, False),
    ('TESTITEMS[11]', 400, 200, 100, 200, 'center', 'middle', [(300, 50, 1, 1), (300, 150, 1, 1)], False, False, False),
    ('TESTITEMS[12]', 200, 400, 100, 200, 'center', 'middle', [(100, 50, 1, 1), (300, 50, 1, 1)], False, False, False),
    ('TESTITEMS[13]', 200, 400, 100, 200, 'center', 'middle', [(100, 150, 1, 1), (300, 150, 1, 1)], False, False, False),
    ('TESTITEMS[14]', 200, 400, 100, 200, 'center', 'middle', [(100, 50, 1, 1), (100, 150, 1, 1)], False, False, False),
    ('TESTITEMS[15]', 200, 400, 100, 200, 'center', 'middle', [(300, 50, 1, 1), (300, 150, 1, 1)], False, False, False),
    ('TESTITEMS[16]', 400, 200, 100, 100, 'center', 'middle', [(50, 100, 1, 1), (50, 300, 1, 1), (150, 100, 1, 1), (150, 300, 1, 1)], False, False, False),
    ('TESTITEMS[17]', 800, 600, 400, 300, 'center', 'bottom', [], False, False, False),
    ('TESTITEMS[18]', 700, 300, 150, 300, 'center', 'bottom', [], False, False, False),
    ('TESTITEMS[19]', 700, 300, 300, 150, 'right', 'bottom', [], False, False, False),
    ('TESTITEMS[20]', 700, 300, 300, 150, 'left', 'bottom', [], False, False, False),
    ('TESTITEMS[21]', 700, 300, 150, 300, 'center', 'bottom', [], False, False, False),
    ('TESTITEMS[22]', 700, 300, 150, 300, 'left', 'bottom', [], False, False, False),
    ('TESTITEMS[23]', 700, 300, 150, 300, 'right', 'bottom', [], False, False, False),
    ('TESTITEMS[24]', 300, 800, 200, 300, 'center', 'bottom', [], False, False, False),
    ('TESTITEMS[25]', 300, 800, 200, 300, 'left', 'bottom', [], False, False, False),
    ('TESTITEMS[26]', 300, 800, 200, 300, 'right', 'bottom', [], False, False, False),
    ('TESTITEMS[27]', 500, 600, 300, 250, 'center', 'bottom', [], False, False, False),
    ('TESTITEMS[28]', 500, 600, 300, 250, 'left', 'bottom', [], False, False, False),
    ('TESTITEMS[29]', 500, 600, 300, 250, 'right', 'bottom', [], False, False, False),
    ('TESTITEMS[30]', 600, 800, 300, 0, 'right', 'bottom', [], False, False, False),
    ('TESTITEMS[31]', 600, 800, 300, 0, 'center', 'bottom', [], False, False, False),
    ('TESTITEMS[32]', 600, 800, 300, 0, 'left', 'bottom', [], False, False, False),
    ('TESTITEMS[33]', 600, 800, 250, 0, 'left', 'bottom', [], False, False, False),
    ('TESTITEMS[34]', 600, 800, 250, 0, 'right', 'bottom', [], False, False, False),
    ('TESTITEMS[35]', 600, 800, 250, 0, 'center', 'bottom', [], False, False, False),
    ('TESTITEMS[36]', 600, 800, 0, 400, 'right', 'bottom', [], False, False, False),
    ('TESTITEMS[37]', 600, 800, 0, 400, 'left', 'bottom', [], False, False, False),
    ('TESTITEMS[38]', 600, 800, 0, 400, 'center', 'bottom', [], False, False, False),
    ('TESTITEMS[39]', 600, 800, 0, 350, 'center', 'bottom', [], False, False, False),
    ('TESTITEMS[40]', 600, 800, 0, 350, 'left', 'bottom', [], False, False, False),
    ('TESTITEMS[41]', 600, 800, 0, 350, 'right', 'bottom', [], False, False, False),
    ('TESTITEMS[42]', 800, 600, 400, 150, 'center', 'middle', [], False, False, False),
    ('TESTITEMS[43]', 800, 300, 400, 150, 'center', 'middle', [], False, False, False),
    ('TESTITEMS[44]', 800, 300, 400, 150, 'right', 'middle', [], False, False, False),
    ('TESTITEMS[45]', 800, 300, 400, 150, 'left', 'middle', [], False, False, False),
    ('TESTITEMS[46]', 700, 300, 300, 150, 'center', 'middle', [], False, False, False),
    ('TESTITEMS[47]', 700, 300, 300, 150, 'left', 'middle', [], False, False, False),
    ('TESTITEMS[48]', 700, 300, 300, 150, 'right', 'middle', [], False, False, False),
    ('TESTITEMS[49]', 700, 300, 150, 300, 'center', 'middle', [], False, False, False),
    ('TESTITEMS[50]', 700, 300, 150, 300, 'left', 'middle', [], False, False, False),
    ('TESTITEMS[51]', 700, 300, 150, 300, 'right', 'middle', [], False, False, False),
    ('TESTITEMS[52]', 350, 700, 200, 600, 'left', 'middle', [], False, False, False),
    ('TESTITEMS[53]', 350, 700, 200, 600, 'center', 'middle', [], False, False, False),
    ('TESTITEMS[54]', 350, 700, 200, 600, 'right', 'middle', [], False, False, False),
    ('TESTITEMS[55]', 500, 600, 300, 250, 'left', 'middle', [], False, False, False),
    ('TESTITEMS[56]', 500, 600, 300, 250, 'center', 'middle', [], False, False, False),
    ('TESTITEMS[57]', 500, 600, 300, 250, 'right', 'middle', [], False, False, False),
    ('TESTITEMS[58]', 1, 1, 0, 0, 'left', 'middle', [], False, False, False),
    ('TESTITEMS[59]', 1, 1, 0, 0, 'center', 'middle', [], False, False, False),
    ('TESTITEMS[60]', 1, 1, 0, 0, 'right', 'middle', [], False, False, False),
    ('TESTITEMS[61]', 200, 400, 0, 1, 'left', 'middle', [], False, False, False),
    ('TESTITEMS[62]', 200, 200, 16, 16, 'left', 'middle', [], False, False, False),
    ('TESTITEMS[63]', 800, 600, 400, 150, 'left', 'top', [], False, False, False),
    ('TESTITEMS[64]', 800, 600, 400, 150, 'center', 'top', [], False, False, False),
    ('TESTITEMS[65]', 800, 600, 400, 150, 'right', 'top', [], False, False, False),
    ('TESTITEMS[66]', 600, 800, 150, 400, 'left', 'top', [], False, False, False),
    ('TESTITEMS[67]', 600, 800, 150, 400, 'center', 'top', [], False, False, False),
    ('TESTITEMS[68]', 600, 800, 150, 400, 'right', 'top', [], False, False, False),
    ('TESTITEMS[69]', 800, 60, 400, 15, 'left', 'top', [], False, False, False),
    ('TESTITEMS[70]', 800, 60, 400, 15, 'center', 'top', [], False, False, False),
    ('TESTITEMS[71]', 800, 60, 400, 15, 'right', 'top', [], False, False, False),
    ('TESTITEMS[72]', 60, 800, 15, 400, 'left', 'top', [], False, False, False),
    ('TESTITEMS[73]', 60, 800, 15, 400, 'center', 'top', [], False, False, False),
    ('TESTITEMS[74]', 60, 800, 15, 400, 'right', 'top', [], False, False, False),
    ('TESTITEMS[75]', 8, 6, 4, 2, 'left', 'top', [], False, False, False),
    ('TESTITEMS[76]', 8, 6, 4, 2, 'center', 'top', [], False, False, False),
    ('TESTITEMS[77]', 8, 6, 4, 2, 'right', 'top', [], False, False, False),
    ('TESTITEMS[78]', 6, 8, 2, 4, 'left', 'top', [], False, False, False),
    ('TESTITEMS[79]', 6, 8, 2, 4, 'center', 'top', [], False, False, False),
    ('TESTITEMS[80]', 6, 8, 2, 4, 'right', 'top', [], False, False, False),
    ('TESTITEMS[81]', 800, 600, 400, 300, 'left', 'top', [], False, False, False),
    ('TESTITEMS[82]', 800, 600, 400, 300, 'center', 'top', [], False, False, False),
    ('TESTITEMS[83]', 800, 600, 400, 300, 'right', 'top', [], False, False, False),
    ('TESTITEMS[84]', 800, 600, 800, 600, 'left', 'top', [], False, False, False),
    ('TESTITEMS[85]', 800, 600, 800, 600, 'center', 'top', [], False, False, False),
    ('TESTITEMS[86]', 800, 600, 800, 600, 'right', 'top', [], False, False, False),
    ('TESTITEMS[87]', 800, 400, 400, 'orig', 'middle', 'middle', [], False, False, False),
    ('TESTITEMS[88]', 800, 400, 'orig', 100, 'middle', 'middle', [], False, False, False),
    ('TESTITEMS[89]', 800, 400, 'orig', 'orig', 'middle', 'middle', [], False, False, False),
    ('FIT_IN_CROP_DATA[0]', 800, 400, 400, 100, 'middle', 'middle', [], True, False, False),
    ('FIT_IN_CROP_DATA[1]', 1000, 250, 500, 200, 'middle', 'middle', [], True, False, False),
    ('FIT_IN_CROP_DATA[2]', 200, 250, 500, 400, 'middle', 'middle', [], True, False, False),
    ('FIT_IN_CROP_DATA[3]', 800, 400, 100, 400, 'middle', 'middle', [], True, True, False),
    ('FIT_IN_CROP_DATA[4]', 800, 400, 400, 100, 'middle', 'middle', [], True, False, True),
    ('FIT_IN_CROP_DATA[5]', 200, 250, 500, 400, 'middle', 'middle', [], True, False, True),
    ('FIT_IN_CROP_DATA[6]', 800, 400, 100, 400, 'middle', 'middle', [], True, True, True),
    ('FIT_IN_CROP_DATA[7]', 500, 500, 250, 'orig', 'middle', 'middle', [], True, False, False),
    ('FIT_IN_CROP_DATA[8]', 500, 500, 'orig', 250, 'middle', 'middle', [], True, False, False),
    ('FIT_IN_CROP_DATA[9]', 500, 500, 'orig', 'orig', 'middle', 'middle', [], True, False, False),
]

# tests/filters/test_*.py and tests/handlers/test_base_handler.py: (id, path after /unsafe/, rule).
FILTER_CASES = [
    ("test_background_color.py::test_background_color_filter_with_fixed_color",
     "fit-in/300x300/filters:background_color(blue)/PNG_transparency_demonstration_1.png", "pixels"),
    ("test_background_color.py::test_background_color_filter_with_auto_color",
     "fit-in/300x300/filters:background_color(auto)/PNG_transparency_demonstration_1.png", "pixels"),
    ("test_blur.py::test_blur_filter_with_sigma", "filters:blur(4,2)/source.jpg", "pixels"),
    ("test_blur.py::test_blur_filter_with_zero_radius", "filters:blur(0)/source.jpg", "pixels"),
    ("test_blur.py::test_blur_filter_without_sigma", "filters:blur(8)/source.jpg", "pixels"),
    ("test_blur.py::test_blur_filter_with_max_radius", "filters:blur(500)/source.jpg", "pixels"),
    ("test_blur.py::test_blur_filter_for_png_palette_mode", "filters:blur(10)/256_color_palette.png", "pixels"),
    ("test_blur.py::test_blur_filter_png_with_transparency_rgba_mode",
     "filters:blur(10)/PNG_transparency_demonstration_1.png", "pixels"),
    ("test_brightness.py::test_brightness_filter", "filters:brightness(20)/source.jpg", "pixels"),
    ("test_colorize.py::test_colorize_filter", "filters:colorize(40,80,20,ffffff)/source.jpg", "pixels"),
    ("test_contrast.py::test_contrast_filter", "filters:contrast(20)/source.jpg", "pixels"),
    ("test_convolution.py::test_convolution_filter_true",
     "filters:convolution(1;2;1;2;4;2;1;2;1,3,true)/source.jpg", "pixels"),
    ("test_convolution.py::test_convolution_filter_false",
     "filters:convolution(-1;-1;-1;-1;8;-1;-1;-1;-1,3,false)/source.jpg", "pixels"),
    ("test_fill.py::test_fill_filter_with_fixed_color", "fit-in/800x800/filters:fill(0000ff)/source.jpg", "pixels"),
    ("test_fill.py::test_fill_filter_with_average", "fit-in/800x800/filters:fill(auto)/source.jpg", "pixels"),
    ("test_fill.py::test_fill_filter_with_full_fit_in", "full-fit-in/800x800/filters:fill(auto)/source.jpg",
     "pixels"),
    ("test_fill.py::test_fill_filter_with_full_fit_in_orig_width",
     "full-fit-in/origx800/filters:fill(auto)/source.jpg", "pixels"),
    ("test_fill.py::test_fill_filter_with_blur", "fit-in/800x800/filters:fill(blur)/source.jpg", "pixels"),
    ("test_fill.py::test_fill_filter_with_blur_transparency_true",
     "fit-in/300x325/filters:fill(blur,true)/PNG_transparency_demonstration_1.png", "pixels"),
    ("test_focal.py::test_focal_filter_valid", "400x100/filters:focal(146x156:279x208)/source.jpg", "pixels"),
    ("test_focal.py::test_focal_filter_no_change", "filters:focal(0x0:400x600)/source.jpg", "pixels"),
    ("test_focal.py::test_focal_filter_pass_through_empty", "filters:focal()/source.jpg", "pixels"),
    ("test_focal.py::test_focal_filter_pass_through_invalid", "filters:focal(0x0:0x0)/source.jpg", "pixels"),
    ("test_focal.py::test_focal_filter_pass_through_dumb", "filters:focal(lkasjdklfjlkajsfd)/source.jpg", "pixels"),
    ("test_format.py::test_invalid_format_should_be_null", "filters:format(invalid)/source.jpg", "pixels"),
    ("test_format.py::test_can_set_proper_format", "filters:format(webp)/source.jpg", "pixels"),
    ("test_no_upscale.py::test_no_upscale_filter_request_bigger_than_image",
     "600x400/filters:no_upscale()/PNG_transparency_demonstration_1.png", "pixels"),
    ("test_no_upscale.py::test_no_upscale_filter_request_lower_than_image",
     "150x100/filters:no_upscale()/PNG_transparency_demonstration_1.png", "pixels"),
    ("test_noise.py::test_noise_filter", "filters:noise(200,123)/source.jpg", "pixels"),
    ("test_proportion.py::test_proportion_filter_equal", "filters:proportion(0.60)/source.jpg", "pixels"),
    ("test_proportion.py::test_proportion_filter_value_above_one_is_ignored",
     "filters:proportion(10000)/source.jpg", "pixels"),
    ("test_proportion.py::test_proportion_filter_zero_is_ignored", "filters:proportion(0)/source.jpg", "pixels"),
    ("test_proportion.py::test_proportion_filter_negative_is_ignored", "filters:proportion(-0.5)/source.jpg",
     "pixels"),
    ("test_quality.py::test_quality_filter", "filters:quality(10)/source.jpg", "pixels"),
    ("test_rgb.py::test_rgb_filter", "filters:rgb(10,2,4)/source.jpg", "pixels"),
    ("test_rotate.py::test_rotate_filter", "filters:rotate(180)/source.jpg", "pixels"),
    ("test_rotate.py::test_rotate_filter_with_invalid_value", "filters:rotate(181)/source.jpg", "pixels"),
    ("test_rotate.py::test_normalized_rotate_should_equal_180", "filters:rotate(540)/source.jpg", "pixels"),
    ("test_round_corner.py::test_round_corner_filter_with_a_radius", "filters:round_corner(50,255,0,0)/source.jpg",
     "pixels"),
    ("test_round_corner.py::test_round_corner_filter_with_ab_radius",
     "filters:round_corner(50|75,255,0,0)/source.jpg", "pixels"),
    ("test_round_corner.py::test_round_corner_filter_with_blue_background",
     "filters:round_corner(50,0,0,255)/source.jpg", "pixels"),
    ("test_round_corner.py::test_round_corner_filter_without_transparent",
     "filters:round_corner(50,255,0,0,0)/source.jpg", "pixels"),
    ("test_round_corner.py::test_round_corner_filter_with_transparent_by_png",
     "filters:round_corner(50,255,0,0,1):format(png)/source.jpg", "pixels"),
    ("test_round_corner.py::test_round_corner_filter_with_transparent_by_webp",
     "filters:round_corner(50,255,0,0,1):format(webp)/source.jpg", "pixels"),
    ("test_saturation.py::test_saturation_filter", "filters:saturation(10)/source.jpg", "pixels"),
    ("test_stretch.py::test_stretch_filter_with_resize", "300x533/filters:stretch()/source.jpg", "pixels"),
    ("test_upscale.py::test_upscale_filter_with_fit_in_big", "fit-in/1000x1000/filters:upscale()/source.jpg",
     "pixels"),
    ("test_upscale.py::test_upscale_filter_with_fit_in_small", "fit-in/400x400/filters:upscale()/source.jpg",
     "pixels"),
    ("test_upscale.py::test_upscale_filter_with_full_fit_in", "full-fit-in/800x800/filters:upscale()/source.jpg",
     "pixels"),
    ("test_upscale.py::test_upscale_filter_with_adaptive_fit_in_big",
     "adaptive-fit-in/1000x1200/filters:upscale()/source.jpg", "pixels"),
    ("test_upscale.py::test_upscale_filter_with_adaptive_full_fit_in_big",
     "adaptive-full-fit-in/800x800/filters:upscale()/source.jpg", "pixels"),
    ("test_watermark.py::test_watermark_filter_centered",
     "filters:watermark(watermark.png,center,center,60)/source.jpg", "pixels"),
    ("test_watermark.py::test_watermark_filter_centered_x",
     "filters:watermark(watermark.png,center,40,20)/source.jpg", "pixels"),
    ("test_watermark.py::test_watermark_filter_repeated",
     "filters:watermark(watermark.png,repeat,repeat,70)/source.jpg", "pixels"),
    ("test_watermark.py::test_watermark_filter_detect_extension_simple",
     "filters:watermark(watermark,30,-50,60)/source.jpg", "pixels"),
    ("test_watermark.py::test_watermark_filter_simple", "filters:watermark(watermark.png,30,-50,60)/source.jpg",
     "pixels"),
    ("test_watermark.py::test_watermark_filter_calculated",
     "filters:watermark(watermark.png,4p,-30p,60)/source.jpg", "pixels"),
    ("test_watermark.py::test_watermark_filter_simple_big",
     "filters:watermark(watermarkBig.png,-10,-100,50)/source.jpg", "pixels"),
    ("test_watermark.py::test_watermark_filter_simple_50p_width",
     "filters:watermark(watermark.png,30,-50,20,50)/source.jpg", "pixels"),
    # tests/handlers/test_base_handler.py, on the fixtures above (its own images are not installed with thumbor).
    ("test_base_handler.py::test_can_get_image", "smart/source.jpg", "size"),
    ("test_base_handler.py::test_get_unknown_image_returns_not_found", "smart/imag", "pixels"),
    ("test_base_handler.py::test_can_get_image_with_filter", "filters:fill(blue)/source.jpg", "pixels"),
    ("test_base_handler.py::test_getting_invalid_watermark_returns_bad_request",
     "filters:watermark(boom.jpg,0,0,0)/source.jpg", "pixels"),
    ("test_base_handler.py::test_can_read_image_with_small_width_and_no_height", "0x0:400x300/1x/source.jpg",
     "pixels"),
    ("test_base_handler.py::test_can_read_cmyk_jpeg_as_png", "filters:format(png)/source.jpg", "pixels"),
]

FIXTURES = ["source.jpg", "PNG_transparency_demonstration_1.png", "256_color_palette.png", "watermark.png",
            "watermarkBig.png"]


def transformer_path(case):
    """The URL (after /unsafe/) asking for a TestData, on a PNG of its source size."""
    _, sw, sh, tw, th, halign, valign, focal, fit_in, adaptive, full = case
    parts = []
    if fit_in:
        parts.append(("adaptive-" if adaptive else "") + ("full-" if full else "") + "fit-in")
    parts.append(f"{tw}x{th}")
    if halign in ("left", "right"):
        parts.append(halign)
    if valign in ("top", "bottom"):
        parts.append(valign)
    if focal:
        parts.append("filters:" + ":".join(f"focal({x}x{y}:{x + w}x{y + h})" for x, y, w, h in focal))
    parts.append(f"src-{sw}x{sh}.png")
    return "/".join(parts)


def make_source(folder, width, height):
    """A smooth but uneven picture, so a window off by a few pixels shows in the PSNR."""
    y, x = numpy.mgrid[0:height, 0:width].astype(numpy.float64)
    picture = numpy.stack([
        127 + 100 * numpy.sin(x / 23.0) * numpy.cos(y / 31.0), x * 255 / max(1, width - 1),
        64 + 120 * numpy.sin((x + 2 * y) / 41.0),
    ], axis=-1)
    Image.fromarray(picture.clip(0, 255).astype(numpy.uint8), "RGB").save(
        os.path.join(folder, f"src-{width}x{height}.png"))


def thumbor_fixtures():
    script = "import os, thumbor; print(os.path.join(os.path.dirname(thumbor.__file__), 'fixtures', 'filters'))"
    python = os.path.join(os.path.dirname(compare.THUMBOR), "python3")
    return subprocess.run([python, "-c", script], check=True, capture_output=True, text=True).stdout.strip()


def run_case(case_id, path, rule, thumbor_port, imago_port):
    url = "/unsafe/" + path
    (ts, tb), (ims, ib) = compare.get(thumbor_port, url), compare.get(imago_port, url)
    result = {"id": case_id, "url": url, "rule": rule, "thumbor": ts, "imago": ims, "size": None, "psnr": None}
    if ts // 100 != ims // 100:
        return dict(result, passed=False, detail=f"status {ts} / {ims}")
    if ts != 200:
        return dict(result, passed=True, detail="same error class")
    try:
        tf, tsize, tpixels = compare.decoded(tb)
        imf, imsize, ipixels = compare.decoded(ib)
    except Exception as error:  # an answer Pillow cannot read fails the case, not the run
        return dict(result, passed=False, detail=f"undecodable answer: {error}")
    result["size"] = f"{tsize[0]}x{tsize[1]} {tf.lower()}" + (
        "" if (tf, tsize) == (imf, imsize) else f" / {imsize[0]}x{imsize[1]} {imf.lower()}")
    if (tf, tsize) != (imf, imsize):
        return dict(result, passed=False, detail="size or format")
    if rule == "size":
        return dict(result, passed=True, detail="same size and format")
    # Fully transparent pixels are compared as transparent black: their colour is invisible, and thumbor leaves
    # whatever colour was there where Imago clears it.
    for pixels in (tpixels, ipixels):
        pixels[pixels[..., 3] == 0] = 0
    mse = float(numpy.mean((tpixels - ipixels) ** 2))
    psnr = math.inf if mse == 0 else 10 * math.log10(255 * 255 / mse)
    result["psnr"] = None if psnr == math.inf else round(psnr, 1)
    passed = psnr >= PSNR_THRESHOLD
    return dict(result, passed=passed, detail="exact" if psnr == math.inf else ("within" if passed else "pixels"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--imago", required=True)
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="imago-thumbor-suite-")
    images = os.path.join(work, "images")
    os.mkdir(images)
    fixtures = thumbor_fixtures()
    for name in FIXTURES:
        shutil.copy(os.path.join(fixtures, name), images)
    cases = [(case[0], transformer_path(case), "pixels") for case in TRANSFORMER_CASES]
    cases += FILTER_CASES
    cases = [case for case in cases if case[0].startswith(args.only)]
    for width, height in sorted({(case[1], case[2]) for case in TRANSFORMER_CASES}):
        make_source(images, width, height)
    thumbor = imago = None
    results = []
    try:
        thumbor, thumbor_port = compare.start_thumbor(work, images)
        imago, imago_port = compare.start_imago(args.imago, work, images)
        for case_id, path, rule in cases:
            results.append(run_case(case_id, path, rule, thumbor_port, imago_port))
            print(json.dumps(results[-1]), flush=True)
    finally:
        compare.stop(thumbor, imago)
        shutil.rmtree(work, ignore_errors=True)
    passed = sum(1 for result in results if result["passed"])
    print(json.dumps({"tally": {"cases": len(results), "passed": passed, "failed": len(results) - passed}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
