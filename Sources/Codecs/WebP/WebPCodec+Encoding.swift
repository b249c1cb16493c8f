import CWebP
import Foundation
import ImagoCore

extension WebPCodec {
    static func encodeStill(_ raster: Raster, options: EncodeOptions) throws -> Data {
        throw WebPErrors.encoding("todo")
    }
    static func encodeAnimation(_ image: DecodedImage, options: EncodeOptions) throws -> Data {
        throw WebPErrors.encoding("todo")
    }
}
