import Foundation

/// ThumbHash (Evan Wallace, https://evanw.github.io/thumbhash/): a placeholder of about 25 bytes holding an image's
/// average colour, its aspect ratio, alpha, and the low frequencies of luminance (up to 7 × 7), two chroma
/// channels (3 × 3) and alpha (5 × 5) as a DCT. Ported from the published reference encoder and decoder.
public enum ThumbHash {
    /// The ThumbHash of `raster`, which is first shrunk to fit 100 × 100 (the algorithm's limit; premultiplied
    /// resampling) when it is larger.
    public static func encode(_ raster: Raster) throws -> [UInt8] {
        var small = raster
        if raster.width > 100 || raster.height > 100 {
            let scale = 100 / Double(max(raster.width, raster.height))
            let width = max(1, min(100, Int((Double(raster.width) * scale).rounded())))
            let height = max(1, min(100, Int((Double(raster.height) * scale).rounded())))
            small = try raster.resampled(
                sourceRect: (0, 0, Double(raster.width), Double(raster.height)), outputWidth: width,
                outputHeight: height, filter: .box)
        }
        return encode(width: small.width, height: small.height, rgba: small.pixels)
    }

    /// The ThumbHash of `width` × `height` (each at most 100) straight-alpha RGBA bytes.
    static func encode(width w: Int, height h: Int, rgba: [UInt8]) -> [UInt8] {
        let count = w * h
        var average = (r: 0.0, g: 0.0, b: 0.0, a: 0.0)
        for i in 0..<count {
            let alpha = Double(rgba[i * 4 + 3]) / 255
            average.r += alpha / 255 * Double(rgba[i * 4])
            average.g += alpha / 255 * Double(rgba[i * 4 + 1])
            average.b += alpha / 255 * Double(rgba[i * 4 + 2])
            average.a += alpha
        }
        if average.a > 0 {
            average.r /= average.a
            average.g /= average.a
            average.b /= average.a
        }
        let hasAlpha = average.a < Double(count)
        let lLimit = hasAlpha ? 5.0 : 7.0  // Fewer luminance bits when alpha takes some.
        let longest = Double(max(w, h))
        let lx = max(1, Int((lLimit * Double(w) / longest).rounded()))
        let ly = max(1, Int((lLimit * Double(h) / longest).rounded()))
        var l = [Double](repeating: 0, count: count)
        var p = l
        var q = l
        var a = l
        // Transparent pixels take the average colour, so they do not darken the hash.
        for i in 0..<count {
            let alpha = Double(rgba[i * 4 + 3]) / 255
            let r = average.r * (1 - alpha) + alpha / 255 * Double(rgba[i * 4])
            let g = average.g * (1 - alpha) + alpha / 255 * Double(rgba[i * 4 + 1])
            let b = average.b * (1 - alpha) + alpha / 255 * Double(rgba[i * 4 + 2])
            l[i] = (r + g + b) / 3
            p[i] = (r + g) / 2 - b
            q[i] = r - g
            a[i] = alpha
        }
        func encodeChannel(_ channel: [Double], _ nx: Int, _ ny: Int) -> (dc: Double, ac: [Double], scale: Double) {
            var dc = 0.0
            var ac: [Double] = []
            var scale = 0.0
            var fx = [Double](repeating: 0, count: w)
            for cy in 0..<ny {
                var cx = 0
                while cx * ny < nx * (ny - cy) {
                    var f = 0.0
                    for x in 0..<w { fx[x] = cos(Double.pi / Double(w) * Double(cx) * (Double(x) + 0.5)) }
                    for y in 0..<h {
                        let fy = cos(Double.pi / Double(h) * Double(cy) * (Double(y) + 0.5))
                        for x in 0..<w { f += channel[x + y * w] * fx[x] * fy }
                    }
                    f /= Double(count)
                    if cx > 0 || cy > 0 {
                        ac.append(f)
                        scale = max(scale, abs(f))
                    } else {
                        dc = f
                    }
                    cx += 1
                }
            }
            if scale > 0 { ac = ac.map { 0.5 + 0.5 / scale * $0 } }
            return (dc, ac, scale)
        }
        let lChannel = encodeChannel(l, max(3, lx), max(3, ly))
        let pChannel = encodeChannel(p, 3, 3)
        let qChannel = encodeChannel(q, 3, 3)
        let aChannel = hasAlpha ? encodeChannel(a, 5, 5) : (dc: 1.0, ac: [], scale: 1.0)

        func round(_ value: Double) -> Int { Int(value.rounded(.toNearestOrAwayFromZero)) }
        let isLandscape = w > h
        let header24 =
            round(63 * lChannel.dc) | (round(31.5 + 31.5 * pChannel.dc) << 6)
            | (round(31.5 + 31.5 * qChannel.dc) << 12) | (round(31 * lChannel.scale) << 18) | (hasAlpha ? 1 << 23 : 0)
        let header16 =
            (isLandscape ? ly : lx) | (round(63 * pChannel.scale) << 3) | (round(63 * qChannel.scale) << 9)
            | (isLandscape ? 1 << 15 : 0)
        var hash: [UInt8] = [
            UInt8(header24 & 255), UInt8((header24 >> 8) & 255), UInt8(header24 >> 16), UInt8(header16 & 255),
            UInt8(header16 >> 8),
        ]
        if hasAlpha { hash.append(UInt8(round(15 * aChannel.dc) | (round(15 * aChannel.scale) << 4))) }
        let start = hash.count
        var index = 0
        for ac in [lChannel.ac, pChannel.ac, qChannel.ac] + (hasAlpha ? [aChannel.ac] : []) {
            for f in ac {
                if start + index / 2 >= hash.count { hash.append(0) }
                hash[start + index / 2] |= UInt8(round(15 * f) << ((index & 1) * 4))
                index += 1
            }
        }
        return hash
    }

    /// The image a hash stands for, about 32 pixels on its longest side (the reference decoder's size and its
    /// 1.25 saturation boost); throws `invalidSource` for bytes that are not a ThumbHash.
    public static func decode(_ hash: [UInt8]) throws -> Raster {
        guard hash.count >= 5 else { throw ImagoError(.invalidSource, "a ThumbHash has at least 5 bytes") }
        let header24 = Int(hash[0]) | Int(hash[1]) << 8 | Int(hash[2]) << 16
        let header16 = Int(hash[3]) | Int(hash[4]) << 8
        let lDC = Double(header24 & 63) / 63
        let pDC = Double((header24 >> 6) & 63) / 31.5 - 1
        let qDC = Double((header24 >> 12) & 63) / 31.5 - 1
        let lScale = Double((header24 >> 18) & 31) / 31
        let hasAlpha = header24 >> 23 != 0
        let pScale = Double((header16 >> 3) & 63) / 63
        let qScale = Double((header16 >> 9) & 63) / 63
        let isLandscape = header16 >> 15 != 0
        let lMax = hasAlpha ? 5 : 7
        let lCount = header16 & 7
        let lx = max(3, isLandscape ? lMax : lCount)
        let ly = max(3, isLandscape ? lCount : lMax)
        guard !hasAlpha || hash.count >= 6 else { throw ImagoError(.invalidSource, "a ThumbHash with alpha is short") }
        let aDC = hasAlpha ? Double(hash[5] & 15) / 15 : 1
        let aScale = hasAlpha ? Double(hash[5] >> 4) / 15 : 1
        let start = hasAlpha ? 6 : 5
        var index = 0
        func decodeChannel(_ nx: Int, _ ny: Int, _ scale: Double) throws -> [Double] {
            var ac: [Double] = []
            for cy in 0..<ny {
                var cx = cy > 0 ? 0 : 1
                while cx * ny < nx * (ny - cy) {
                    guard start + index / 2 < hash.count else {
                        throw ImagoError(.invalidSource, "a ThumbHash is shorter than its header says")
                    }
                    let nibble = (Int(hash[start + index / 2]) >> ((index & 1) * 4)) & 15
                    ac.append((Double(nibble) / 7.5 - 1) * scale)
                    index += 1
                    cx += 1
                }
            }
            return ac
        }
        let lAC = try decodeChannel(lx, ly, lScale)
        let pAC = try decodeChannel(3, 3, pScale * 1.25)
        let qAC = try decodeChannel(3, 3, qScale * 1.25)
        let aAC = hasAlpha ? try decodeChannel(5, 5, aScale) : []
        // The reference decoder's approximate aspect ratio, 32 pixels on the longest side.
        let ratio = Double(lx) / Double(ly)
        let w = Int((ratio > 1 ? 32 : 32 * ratio).rounded())
        let h = Int((ratio > 1 ? 32 / ratio : 32).rounded())
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        let columns = max(lx, hasAlpha ? 5 : 3)
        let rows = max(ly, hasAlpha ? 5 : 3)
        var fx = [Double](repeating: 0, count: columns)
        var fy = [Double](repeating: 0, count: rows)
        for y in 0..<h {
            for x in 0..<w {
                for cx in 0..<columns { fx[cx] = cos(Double.pi / Double(w) * (Double(x) + 0.5) * Double(cx)) }
                for cy in 0..<rows { fy[cy] = cos(Double.pi / Double(h) * (Double(y) + 0.5) * Double(cy)) }
                var l = lDC
                var j = 0
                for cy in 0..<ly {
                    var cx = cy > 0 ? 0 : 1
                    while cx * ly < lx * (ly - cy) {
                        l += lAC[j] * fx[cx] * fy[cy] * 2
                        j += 1
                        cx += 1
                    }
                }
                var p = pDC
                var q = qDC
                j = 0
                for cy in 0..<3 {
                    var cx = cy > 0 ? 0 : 1
                    while cx < 3 - cy {
                        let f = fx[cx] * fy[cy] * 2
                        p += pAC[j] * f
                        q += qAC[j] * f
                        j += 1
                        cx += 1
                    }
                }
                var a = aDC
                if hasAlpha {
                    j = 0
                    for cy in 0..<5 {
                        var cx = cy > 0 ? 0 : 1
                        while cx < 5 - cy {
                            a += aAC[j] * fx[cx] * fy[cy] * 2
                            j += 1
                            cx += 1
                        }
                    }
                }
                let b = l - 2 / 3 * p
                let r = (3 * l - b + q) / 2
                let g = r - q
                let offset = (y * w + x) * 4
                for (channel, value) in [r, g, b, a].enumerated() {
                    pixels[offset + channel] = UInt8((max(0, min(1, value)) * 255).rounded())
                }
            }
        }
        return try Raster(width: w, height: h, pixels: pixels)
    }
}
