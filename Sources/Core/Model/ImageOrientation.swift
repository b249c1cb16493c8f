/// The EXIF orientation of an image (TIFF tag 274): how the stored pixels must be turned to be shown upright.
public enum ImageOrientation: Int, Sendable, Hashable, Codable, CaseIterable {
    case up = 1
    case upMirrored = 2
    case down = 3
    case downMirrored = 4
    case leftMirrored = 5
    case right = 6
    case rightMirrored = 7
    case left = 8

    /// Whether showing the image upright swaps its width and height (orientations 5–8).
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// The orientation for an EXIF value; anything outside 1–8 reads as `.up`, as browsers do.
    public init(exifValue: Int) { self = ImageOrientation(rawValue: exifValue) ?? .up }
}
