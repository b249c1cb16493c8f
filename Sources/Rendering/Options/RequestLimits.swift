/// Limits one request tightens below the service's, never above (imgproxy's security options `max_src_resolution`,
/// `max_src_file_size`, `max_animation_frames`, `max_animation_frame_resolution`, `max_result_dimension`): each
/// nil leaves the service's limit. They are checked where the service's are, with the same errors.
public struct RequestLimits: Sendable, Hashable {
    /// `msr`: most pixels of the source, all frames of an animation together (`serve.maxSourcePixels`).
    public var maxSourcePixels: Int?
    /// `msfs`: most bytes of the source (`serve.maxSourceBytes`).
    public var maxSourceBytes: Int?
    /// `maf`: most frames of an animation (`loader.limits.maxFrames`).
    public var maxFrames: Int?
    /// `mafr`: most pixels of one frame (a still image is one frame).
    public var maxFramePixels: Int?
    /// `mrd`: the finished image is scaled down to fit within this side (at most `serve.maxOutputSide`).
    public var maxResultSide: Int?

    /// No tightening.
    public init() {}

    /// Whether nothing is tightened.
    public var isEmpty: Bool { self == RequestLimits() }

    /// `limits` tightened: each limit the smaller of the two.
    public func applied(to limits: DecodeLimits) -> DecodeLimits {
        var tightened = limits
        if let pixels = maxSourcePixels {
            tightened.maxPixels = min(tightened.maxPixels, pixels)
            tightened.maxTotalPixels = min(tightened.maxTotalPixels, pixels)
        }
        if let pixels = maxFramePixels { tightened.maxPixels = min(tightened.maxPixels, pixels) }
        if let frames = maxFrames { tightened.maxFrames = min(tightened.maxFrames, frames) }
        if let bytes = maxSourceBytes { tightened.maxBytes = min(tightened.maxBytes, bytes) }
        return tightened
    }

    /// The first value above the service's limit (by its Imago key), with that limit; nil when every value
    /// tightens. `limits` nil: only `mrd` is checked.
    func looser(than limits: DecodeLimits?, maxOutputSide: Int) -> (key: String, limit: String)? {
        if let side = maxResultSide, side > maxOutputSide { return ("mrd", "\(maxOutputSide) px") }
        guard let limits else { return nil }
        if let pixels = maxSourcePixels, pixels > limits.maxPixels {
            return ("msr", DecodeLimits.megapixels(limits.maxPixels))
        }
        if let bytes = maxSourceBytes, bytes > limits.maxBytes { return ("msfs", "\(limits.maxBytes) bytes") }
        if let frames = maxFrames, frames > limits.maxFrames { return ("maf", "\(limits.maxFrames) frames") }
        if let pixels = maxFramePixels, pixels > limits.maxPixels {
            return ("mafr", DecodeLimits.megapixels(limits.maxPixels))
        }
        return nil
    }
}
