/// A processor that gives an animation's frames the same result whether it processes the whole animation or each
/// frame as an image of its own: what a streaming conversion (frame by frame) needs to run it. Processors that
/// decide from the first frame's content (smart gravity, trimming) do not qualify; a conversion with one of them
/// decodes every frame first.
public protocol FrameWiseProcessing {
    /// Whether processing each frame alone gives the frames processing the animation gives.
    var processesFramesIndependently: Bool { get }
}

extension ResizeProcessor: FrameWiseProcessing {
    /// True unless `.fill` places its window by the first frame's content (`.smart`, regions without one).
    public var processesFramesIndependently: Bool { contentMode == .fit || !gravity.looksAtContent }
}

extension CropProcessor: FrameWiseProcessing {
    /// True unless the window is placed by the first frame's content (`.smart`, regions without one).
    public var processesFramesIndependently: Bool {
        switch shape {
        case .aspect(_, _, let gravity), .window(_, _, let gravity): !gravity.looksAtContent
        case .region: true
        }
    }
}

extension OrientationProcessor: FrameWiseProcessing {
    /// Always: every frame turns alike.
    public var processesFramesIndependently: Bool { true }
}

extension RotateProcessor: FrameWiseProcessing {
    /// Always: every frame turns alike.
    public var processesFramesIndependently: Bool { true }
}

extension FlipProcessor: FrameWiseProcessing {
    /// Always: every frame is mirrored alike.
    public var processesFramesIndependently: Bool { true }
}

extension BlurProcessor: FrameWiseProcessing {
    /// Always: each frame is blurred on its own.
    public var processesFramesIndependently: Bool { true }
}

extension SharpenProcessor: FrameWiseProcessing {
    /// Always: each frame is sharpened on its own.
    public var processesFramesIndependently: Bool { true }
}

extension StretchProcessor: FrameWiseProcessing {
    /// Always: each frame is scaled alike.
    public var processesFramesIndependently: Bool { true }
}

extension PadProcessor: FrameWiseProcessing {
    /// Always: each frame gets the same border.
    public var processesFramesIndependently: Bool { true }
}

extension ExtendProcessor: FrameWiseProcessing {
    /// Always: each frame is placed alike on the same canvas.
    public var processesFramesIndependently: Bool { true }
}

extension WatermarkProcessor: FrameWiseProcessing {
    /// Always: the mark is drawn at the same place on each frame.
    public var processesFramesIndependently: Bool { true }
}

extension Sequence where Element == any ImageProcessor {
    /// Whether every processor can run frame by frame (`FrameWiseProcessing`); an unknown processor cannot.
    public var processFramesIndependently: Bool {
        allSatisfy { ($0 as? any FrameWiseProcessing)?.processesFramesIndependently ?? false }
    }
}
