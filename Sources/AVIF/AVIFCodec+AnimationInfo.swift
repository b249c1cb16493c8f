import Foundation
import ImagoCore

extension AVIFCodec: AnimationInfoReading {
    /// The frames and duration from libavif's parse of the boxes (no frame is decoded); the loop count is 0
    /// (forever), as libavif 0.11 does not read a sequence's repetition count.
    public func animationInfo(_ data: Data, limits: DecodeLimits) throws -> AnimationInfo {
        let source = try AVIFFrameSource(data, options: DecodeOptions(limits: limits), threads: threads)
        let animated = source.frameCount > 1
        return AnimationInfo(
            canvasSize: source.canvasSize, frameCount: source.frameCount,
            totalDuration: animated ? source.totalDuration : 0, loopCount: 0)
    }
}
