/// DSSIM, the structural dissimilarity imgproxy's `autoquality` uses by default: `1 / SSIM − 1`, where SSIM is the
/// mean structural similarity of Wang et al. (2004) over an 11×11 Gaussian window (σ 1.5; K1 0.01, K2 0.03, L 255),
/// over the window positions wholly inside the image (MATLAB's `filter2` 'valid' region, no padding), on the luma
/// Y = 0.299 R + 0.587 G + 0.114 B of the 8-bit sRGB values (not linearised). Pixels with alpha are composited
/// over white first. 0 means identical; 0.01 is a slight loss, 0.05 a visible one.
///
/// `Scripts/quality/dssim.py` is the reference this code is tested against (within 0.001; in practice 1e-5).
/// The cost is a few passes over each row (separable filtering in `Float`, a ring of 11 filtered rows) and memory
/// for 11 rows, not the image (CPU per megapixel: `imago-bench quality`). CPU-bound: call it off the cooperative pool.
public enum DSSIM {
    /// The side of the Gaussian window, and so the smallest width and height the metric accepts.
    public static let windowSize = 11
    /// The window's standard deviation, in pixels.
    public static let sigma = 1.5

    /// The DSSIM of `candidate` against `reference`. Throws `QualityError` (`sizeMismatch`, `imageTooSmall`) when
    /// the sizes differ or are under 11×11.
    public static func between(_ reference: Raster, _ candidate: Raster) throws -> Double {
        dissimilarity(fromSSIM: try ssim(reference, candidate))
    }

    /// The mean SSIM of `candidate` against `reference` (1 for identical images), under the same rules as
    /// `between(_:_:)`.
    public static func ssim(_ reference: Raster, _ candidate: Raster) throws -> Double {
        guard reference.width == candidate.width, reference.height == candidate.height else {
            throw QualityError(
                .sizeMismatch,
                "cannot compare a \(candidate.width)x\(candidate.height) image with a "
                    + "\(reference.width)x\(reference.height) one")
        }
        guard reference.width >= windowSize, reference.height >= windowSize else {
            throw QualityError(
                .imageTooSmall,
                "a \(reference.width)x\(reference.height) image is smaller than the \(windowSize)x\(windowSize) "
                    + "window DSSIM needs")
        }
        return SSIMWindow.meanSSIM(reference, candidate)
    }

    /// `1 / ssim − 1`; infinity when SSIM is not positive (images with nothing in common).
    public static func dissimilarity(fromSSIM ssim: Double) -> Double {
        ssim > 0 ? 1 / ssim - 1 : .infinity
    }
}
