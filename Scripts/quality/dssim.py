#!/usr/bin/python3
"""The reference DSSIM every Imago measurement uses (issues 36 and 37), independent of Imago's own code.

DSSIM = 1/SSIM - 1, SSIM after Wang et al. 2004 as imgproxy defines its default: the mean of the SSIM map over an
11x11 Gaussian window (sigma 1.5, 'valid' region: no padding, as the paper's MATLAB code with filter2 'valid'),
K1 = 0.01, K2 = 0.03, L = 255, on luma Y = 0.299 R + 0.587 G + 0.114 B of the 8-bit sRGB values (no
linearisation). An image with alpha is composited over white first. Both images must have the same size.

    dssim.py A B            prints DSSIM and SSIM of B against A
    import dssim; dssim.dssim(pil_a, pil_b)
"""
import sys

import numpy as np
from PIL import Image

K1, K2, L = 0.01, 0.03, 255.0
WINDOW, SIGMA = 11, 1.5


def luma(image):
    """BT.601 luma of an image as float64, alpha composited over white."""
    image = image.convert("RGBA")
    pixels = np.asarray(image, dtype=np.float64)
    alpha = pixels[..., 3:4] / 255.0
    rgb = pixels[..., :3] * alpha + 255.0 * (1.0 - alpha)
    return rgb[..., 0] * 0.299 + rgb[..., 1] * 0.587 + rgb[..., 2] * 0.114


def _kernel():
    x = np.arange(WINDOW, dtype=np.float64) - (WINDOW - 1) / 2.0
    g = np.exp(-(x * x) / (2.0 * SIGMA * SIGMA))
    return g / g.sum()


def _filter(plane, g):
    """Separable Gaussian, 'valid' region."""
    rows = np.apply_along_axis(lambda r: np.convolve(r, g, mode="valid"), 1, plane)
    return np.apply_along_axis(lambda c: np.convolve(c, g, mode="valid"), 0, rows)


def ssim(a, b):
    """Mean SSIM of two luma planes (2-D float arrays of the same shape, at least 11x11)."""
    if a.shape != b.shape:
        raise ValueError(f"sizes differ: {a.shape} and {b.shape}")
    if min(a.shape) < WINDOW:
        raise ValueError(f"images must be at least {WINDOW}x{WINDOW}")
    g = _kernel()
    c1, c2 = (K1 * L) ** 2, (K2 * L) ** 2
    mu_a, mu_b = _filter(a, g), _filter(b, g)
    aa, bb, ab = _filter(a * a, g), _filter(b * b, g), _filter(a * b, g)
    var_a, var_b, cov = aa - mu_a * mu_a, bb - mu_b * mu_b, ab - mu_a * mu_b
    numerator = (2 * mu_a * mu_b + c1) * (2 * cov + c2)
    denominator = (mu_a * mu_a + mu_b * mu_b + c1) * (var_a + var_b + c2)
    return float(np.mean(numerator / denominator))


def dssim(image_a, image_b):
    """DSSIM (1/SSIM - 1) of two PIL images."""
    value = ssim(luma(image_a), luma(image_b))
    return 1.0 / value - 1.0 if value > 0 else float("inf")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a, b = Image.open(sys.argv[1]), Image.open(sys.argv[2])
    s = ssim(luma(a), luma(b))
    print(f"dssim {1.0 / s - 1.0:.6f} ssim {s:.6f}")
