import CWebP
import Foundation
import ImagoCore

extension WebPCodec: DecodedSizeEstimating {
    /// From the header: a still at the size its scaled decode would give; an animation as one canvas per frame is
    /// not known without demuxing, so nil (charged once decoded).
    public func decodedByteCount(_ data: Data, options: DecodeOptions) -> Int? {
        guard WebPCodec.hasSignature(data) else { return nil }
        return data.withUnsafeBytes { bytes -> Int? in
            var features = WebPBitstreamFeatures()
            guard WebPGetFeatures(bytes.baseAddress, bytes.count, &features) == VP8_STATUS_OK,
                features.has_animation == 0
            else { return nil }
            let (width, height) =
                scaledDecoding
                ? WebPCodec.scaledSize(
                    width: Int(features.width), height: Int(features.height),
                    orientation: WebPCodec.orientation(bytes), options: options)
                : (Int(features.width), Int(features.height))
            return Self.rgbaBytes(width: width, height: height)
        }
    }
}
