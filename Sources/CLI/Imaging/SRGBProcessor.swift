import Imago

/// Converts an image that carries an ICC profile to sRGB (the profile dropped), as a processor: `convert` runs it
/// after the resize, so a shrink converts fewer pixels. An image without a profile is left as it is.
struct SRGBProcessor: ImageProcessor, FrameWiseProcessing {
    var identifier: String { "srgb" }

    /// Every frame is converted alike.
    var processesFramesIndependently: Bool { true }

    func process(_ image: DecodedImage) throws -> DecodedImage { try ColorManagement.convertedToSRGB(image) }
}
