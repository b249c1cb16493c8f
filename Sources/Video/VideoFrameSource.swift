import Foundation
import ImagoCore

/// A video's frames one at a time, as `VideoCodec` samples them, over a copy of the bytes it owns.
final class VideoFrameSource: AnimationFrameSource {
    private let bytes: UnsafeMutableRawBufferPointer
    private let reader: VideoReader
    private let sampler: FrameSampler

    init(_ data: Data, codec: VideoCodec, options: DecodeOptions) throws {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
        data.withUnsafeBytes { copy.copyMemory(from: $0) }
        do {
            reader = try VideoReader(
                UnsafeRawBufferPointer(rebasing: copy[0..<data.count]), codec: codec, limits: options.limits)
        } catch {
            copy.deallocate()
            throw error
        }
        bytes = copy
        sampler = FrameSampler(reader: reader, options: options)
    }

    deinit { bytes.deallocate() }

    var canvasSize: PixelSize { sampler.size }
    /// Videos play once; a conversion to an animated format loops them (0: forever), as players of previews do.
    var loopCount: Int { 0 }
    let warnings: [String] = []
    var orientation: ImageOrientation { reader.orientation }

    func nextFrame() throws -> ImageFrame? { try sampler.next() }
    func rewind() throws { try sampler.rewind() }
}
