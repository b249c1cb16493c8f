import CGIF
import Foundation
import ImagoCore

extension GIFCodec {
    static func encodeGIF(frames: [ImageFrame], loopCount: Int) throws -> Data {
        throw GIFErrors.encoding("not yet")
    }
}
