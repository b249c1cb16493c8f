import CWebP
import Foundation
import ImagoCore

extension WebPCodec: DecodedSizeEstimating {
    /// From the header: a still at the size its scaled decode would give; an animation as one canvas per frame is
    /// not known without demuxing, so nil (charged once decoded).
    public func decodedByteCount(_ data: Data, options: DecodeOptions) -> Int? {
        decodedGeometry(data, options: options)?.byteCount
    }

    /// A still's size (scaled as its decode would be) and EXIF orientation; nil for an animation.
    public func decodedGeometry(_ data: Data, options: DecodeOptions) -> DecodedGeometry? {
        guard WebPCodec.hasSignature(data) else { return nil }
        return data.withUnsafeBytes { bytes -> DecodedGeometry? in
            var features = WebPBitstreamFeatures()
            guard WebPGetFeatures(bytes.baseAddress, bytes.count, &features) == VP8_STATUS_OK,
                features.has_animation == 0
            else { return nil }
            let orientation = WebPCodec.orientation(bytes)
            let (width, height) =
                scaledDecoding
                ? WebPCodec.scaledSize(
                    width: Int(features.width), height: Int(features.height), orientation: orientation,
                    options: options)
                : (Int(features.width), Int(features.height))
            return DecodedGeometry(size: PixelSize(width: width, height: height), orientation: orientation)
        }
    }
}
