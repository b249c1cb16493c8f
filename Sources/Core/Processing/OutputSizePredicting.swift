/// A processor that can tell, from its input's size alone, the largest size its output can have: the render path
/// reserves the processed pixels (and the encoder's memory for them) in the pixel budget before processing, so an
/// enlargement that could never fit is refused before the work, and concurrent ones wait their turn. A processor
/// that does not adopt it is charged once its output exists.
public protocol OutputSizePredicting: ImageProcessor {
    /// The largest output size for an input of `size` (an upper bound: a crop may keep less); nil when it cannot
    /// tell after all (a wrapper around a processor that cannot).
    func predictedOutputSize(for size: PixelSize) -> PixelSize?
}

extension Sequence where Element == any ImageProcessor {
    /// The largest output size of these processors run in order on an input of `size`, or nil when one of them
    /// cannot tell.
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? {
        var size = size
        for processor in self {
            guard let predicting = processor as? any OutputSizePredicting,
                let next = predicting.predictedOutputSize(for: size)
            else { return nil }
            size = next
        }
        return size
    }
}

extension ResizeProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? {
        let plan = self.plan(width: size.width, height: size.height)
        return PixelSize(width: plan.outputWidth, height: plan.outputHeight)
    }
}

extension OrientationFitProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? {
        resize(forWidth: size.width, height: size.height).predictedOutputSize(for: size)
    }
}

extension StretchProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? {
        let (width, height) = outputSize(width: size.width, height: size.height)
        return PixelSize(width: width, height: height)
    }
}

extension PadProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? {
        PixelSize(width: size.width + left + right, height: size.height + top + bottom)
    }
}

extension ExtendProcessor: OutputSizePredicting {
    /// The canvas: an image larger than it is cut.
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? { PixelSize(width: width, height: height) }
}

extension ScaleProcessor: OutputSizePredicting {
    /// The scaled size, or the input's own when a side would fall below 1 (the image is then left as it is).
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? {
        outputSize(width: size.width, height: size.height).map { PixelSize(width: $0.width, height: $0.height) }
            ?? size
    }
}

extension AspectExtendProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? {
        let canvas = canvas(width: size.width, height: size.height)
        return PixelSize(width: canvas.width, height: canvas.height)
    }
}

extension CanvasFillProcessor: OutputSizePredicting {
    /// The canvas (a frame larger than it is cut), each side the frame's own where it is nil.
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? {
        PixelSize(width: width ?? size.width, height: height ?? size.height)
    }
}

extension RotateProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? {
        angle == .degrees180 ? size : PixelSize(width: size.height, height: size.width)
    }
}

/// Processors whose output is at most their input's size.
extension CropProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? { size }
}

extension TrimProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? { size }
}

extension FlipProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? { size }
}

extension BlurProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? { size }
}

extension SharpenProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? { size }
}

extension GrayscaleProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? { size }
}

extension BrightnessProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? { size }
}

extension ContrastProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? { size }
}

extension RoundCornerProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? { size }
}

extension WatermarkProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? { size }
}

extension PixelateProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? { size }
}

extension FlattenProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? { size }
}

extension RegionHidingProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? { size }
}

extension WaveletSharpenProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? { size }
}

extension TruncatedGaussianBlurProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? { size }
}

extension ChannelShiftProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? { size }
}

extension ColorizeProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? { size }
}

extension ConvolutionProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? { size }
}

extension CurveProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? { size }
}

extension EqualizeProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? { size }
}

extension NoiseProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? { size }
}

extension SaturationProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? { size }
}
