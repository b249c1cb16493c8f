import Foundation
import FuzzSupport
import ImagoCore
import ImagoVideo

/// libFuzzer entry (libFuzzer owns `main`): any bytes through `VideoCodec` (its facts, its poster, a scaled poster,
/// and a few sampled frames one at a time) give an image or an error, never a crash, hang or sanitizer report.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVideo(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    let codec = VideoCodec(maxDuration: 600, posterSearch: 1)
    let limits = FuzzDecoding.limits
    _ = codec.canDecode(data.prefix(ImageFormat.sniffLength))
    _ = try? codec.videoInfo(data, limits: limits)
    if let poster = try? codec.decode(data, options: DecodeOptions(limits: limits)) {
        precondition(poster.frames.count == 1 && poster.width > 0 && poster.height > 0)
    }
    var options = DecodeOptions(limits: limits, targetSize: PixelSize(width: 17, height: 9))
    options.timeline.maxFrames = 4
    options.timeline.maxFrameRate = 2
    if let source = try? codec.makeFrameSource(data, options: options) {
        for _ in 0..<4 {
            guard let frame = try? source.nextFrame() else { break }
            precondition(frame.raster.width == source.canvasSize.width)
        }
    }
    return 0
}
