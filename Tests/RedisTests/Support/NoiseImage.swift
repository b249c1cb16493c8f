import Foundation
import Imago
import ImagoTestSupport

/// Images of noise, so a wrong or partial answer cannot match by chance.
enum NoiseImage {
    /// A `width` x `height` PNG of seeded noise, and its pixels.
    static func png(width: Int = 48, height: Int = 32, seed: UInt64) throws -> (data: Data, raster: Raster) {
        let raster = try Raster(
            width: width, height: height, pixels: NoisePixels.rgba(width: width, height: height, seed: seed))
        return (try PNGCodec().encode(DecodedImage(raster: raster, format: .png)), raster)
    }
}
