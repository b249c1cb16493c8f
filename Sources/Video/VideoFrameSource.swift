import Foundation
import ImagoCore

/// A video's frames one at a time, as `VideoCodec` samples them.
final class VideoFrameSource: AnimationFrameSource {
    private let reader: VideoReader
    private let sampler: FrameSampler

    init(_ data: Data, codec: VideoCodec, options: DecodeOptions) throws {
        reader = try VideoReader(data, codec: codec, limits: options.limits)
        sampler = FrameSampler(reader: reader, options: options)
    }

    var canvasSize: PixelSize { sampler.size }
    /// Videos play once; a conversion to an animated format loops them (0: forever), as players of previews do.
    var loopCount: Int { 0 }
    let warnings: [String] = []
    var orientation: ImageOrientation { reader.orientation }

    func nextFrame() throws -> ImageFrame? { try sampler.next() }
    func rewind() throws { try sampler.rewind() }
}
