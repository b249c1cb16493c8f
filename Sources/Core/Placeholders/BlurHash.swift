import Foundation

/// BlurHash (Wolt, https://blurha.sh): a short base-83 string holding an image's average colour and a few DCT
/// components in linear light. Ported from the published reference encoder, with one difference: the stored
/// average (DC) is corrected so the placeholder decoders draw has the image's average sRGB colour (the reference
/// stores the linear-light mean, which decodes up to a dozen levels brighter on contrasty photos); the AC terms
/// are the reference's, digit for digit.
///
/// BlurHash has no alpha: transparent pixels take the image's alpha-weighted average colour (as ThumbHash does),
/// so the hash shows the visible pixels' colour.
public enum BlurHash {
    /// The base-83 digits.
    static let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~")

    /// The BlurHash of `raster` with `componentsX` × `componentsY` components (1…9 each; 4 × 3 by default),
    /// computed on a copy shrunk to fit 64 × 64 (the hash keeps only low frequencies); other counts throw
    /// `processingFailed`.
    public static func encode(_ raster: Raster, componentsX: Int = 4, componentsY: Int = 3) throws -> String {
        guard (1...9).contains(componentsX), (1...9).contains(componentsY) else {
            throw ImagoError(.processingFailed, "BlurHash components \(componentsX)x\(componentsY) are not 1…9")
        }
        var small = raster
        if raster.width > 64 || raster.height > 64 {
            let scale = 64 / Double(max(raster.width, raster.height))
            small = try raster.resampled(
                sourceRect: (0, 0, Double(raster.width), Double(raster.height)),
                outputWidth: max(1, Int((Double(raster.width) * scale).rounded())),
                outputHeight: max(1, Int((Double(raster.height) * scale).rounded())), filter: .box)
        }
        let (w, h) = (small.width, small.height)
        let rgba = small.pixels
        // Transparent pixels take the alpha-weighted average colour.
        var average = (r: 0.0, g: 0.0, b: 0.0, a: 0.0)
        for i in 0..<(w * h) {
            let alpha = Double(rgba[i * 4 + 3])
            average.r += Double(rgba[i * 4]) * alpha
            average.g += Double(rgba[i * 4 + 1]) * alpha
            average.b += Double(rgba[i * 4 + 2]) * alpha
            average.a += alpha
        }
        if average.a > 0 {
            average = (average.r / average.a, average.g / average.a, average.b / average.a, average.a)
        }
        var linear = [SIMD3<Double>](repeating: .zero, count: w * h)
        for i in 0..<(w * h) {
            let alpha = Double(rgba[i * 4 + 3]) / 255
            let mix = { (value: UInt8, background: Double) in Double(value) * alpha + background * (1 - alpha) }
            linear[i] = SIMD3(
                srgbToLinear(mix(rgba[i * 4], average.r)), srgbToLinear(mix(rgba[i * 4 + 1], average.g)),
                srgbToLinear(mix(rgba[i * 4 + 2], average.b)))
        }
        var factors: [SIMD3<Double>] = []
        for j in 0..<componentsY {
            for i in 0..<componentsX {
                let normalisation = i == 0 && j == 0 ? 1.0 : 2.0
                var sum = SIMD3<Double>.zero
                for y in 0..<h {
                    let basisY = cos(Double.pi * Double(j) * Double(y) / Double(h))
                    for x in 0..<w {
                        let basis = normalisation * cos(Double.pi * Double(i) * Double(x) / Double(w)) * basisY
                        sum += basis * linear[y * w + x]
                    }
                }
                factors.append(sum / Double(w * h))
            }
        }
        var hash = base83((componentsX - 1) + (componentsY - 1) * 9, length: 1)
        let ac = Array(factors.dropFirst())
        var maximum = 1.0
        if ac.isEmpty {
            hash += base83(0, length: 1)
        } else {
            let actual = ac.map { max(abs($0.x), abs($0.y), abs($0.z)) }.max() ?? 0
            let quantised = max(0, min(82, Int((actual * 166 - 0.5).rounded(.down))))
            maximum = Double(quantised + 1) / 166
            hash += base83(quantised, length: 1)
        }
        func quantise(_ value: Double) -> Int {
            let scaled = value / maximum
            let signed = (scaled < 0 ? -1.0 : 1.0) * abs(scaled).squareRoot()
            return max(0, min(18, Int((signed * 9 + 9.5).rounded(.down))))
        }
        let quantisedAC = ac.map { SIMD3(quantise($0.x), quantise($0.y), quantise($0.z)) }
        let dc = correctedDC(
            factors[0], ac: quantisedAC, maximum: maximum, componentsX: componentsX, componentsY: componentsY,
            target: linear.reduce(SIMD3<Double>.zero) { $0 + $1.gammaEncoded } / Double(w * h))
        hash += base83((linearToSRGB(dc.x) << 16) + (linearToSRGB(dc.y) << 8) + linearToSRGB(dc.z), length: 4)
        for q in quantisedAC { hash += base83(q.x * 19 * 19 + q.y * 19 + q.z, length: 2) }
        return hash
    }

    /// The DC term (linear light) whose decoded placeholder (32 × 32, as decoders draw it) has `target` as its
    /// average sRGB colour: the plain linear-light mean, which the reference encoder stores, decodes a few levels
    /// brighter than the image looks on average (the gamma curve is not linear), so it is corrected in three
    /// steps. The AC terms are the reference encoder's.
    static func correctedDC(
        _ mean: SIMD3<Double>, ac: [SIMD3<Int>], maximum: Double, componentsX: Int, componentsY: Int,
        target: SIMD3<Double>
    ) -> SIMD3<Double> {
        let size = 32
        let decodedAC = ac.map { q in
            SIMD3(
                signedSquare(Double(q.x - 9) / 9), signedSquare(Double(q.y - 9) / 9), signedSquare(Double(q.z - 9) / 9)
            ) * maximum
        }
        // The AC part of every decoded pixel does not depend on the DC: sum it once.
        var acField = [SIMD3<Double>](repeating: .zero, count: size * size)
        for y in 0..<size {
            for x in 0..<size {
                var sum = SIMD3<Double>.zero
                for j in 0..<componentsY {
                    for i in 0..<componentsX where i > 0 || j > 0 {
                        let basis =
                            cos(Double.pi * Double(x) * Double(i) / Double(size))
                            * cos(Double.pi * Double(y) * Double(j) / Double(size))
                        sum += decodedAC[j * componentsX + i - 1] * basis
                    }
                }
                acField[y * size + x] = sum
            }
        }
        var dc = mean
        for _ in 0..<3 {
            let quantisedDC = SIMD3(
                srgbToLinear(Double(linearToSRGB(dc.x))), srgbToLinear(Double(linearToSRGB(dc.y))),
                srgbToLinear(Double(linearToSRGB(dc.z))))
            var average = SIMD3<Double>.zero
            for value in acField {
                let pixel = quantisedDC + value
                average += SIMD3(
                    Double(linearToSRGB(pixel.x)), Double(linearToSRGB(pixel.y)), Double(linearToSRGB(pixel.z)))
            }
            average /= Double(acField.count)
            for channel in 0..<3 {
                let wanted = srgbToLinear(target[channel]) - srgbToLinear(average[channel])
                dc[channel] = min(1, max(0, dc[channel] + wanted))
            }
        }
        return dc
    }

    static func signedSquare(_ value: Double) -> Double { value < 0 ? -value * value : value * value }

    static func base83(_ value: Int, length: Int) -> String {
        var digits: [Character] = []
        var divisor = 1
        for _ in 1..<max(1, length) { divisor *= 83 }
        for _ in 0..<length {
            digits.append(Self.digits[(value / divisor) % 83])
            divisor /= 83
        }
        return String(digits)
    }

    static func srgbToLinear(_ value: Double) -> Double {
        let v = value / 255
        return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    static func linearToSRGB(_ value: Double) -> Int {
        let v = max(0, min(1, value))
        return v <= 0.003_130_8 ? Int(v * 12.92 * 255 + 0.5) : Int((1.055 * pow(v, 1 / 2.4) - 0.055) * 255 + 0.5)
    }
}

extension SIMD3<Double> {
    /// Linear light (0…1 a channel) back to 8-bit sRGB values, unrounded.
    fileprivate var gammaEncoded: SIMD3<Double> {
        func encode(_ v: Double) -> Double {
            let c = Swift.max(0, Swift.min(1, v))
            return (c <= 0.003_130_8 ? c * 12.92 : 1.055 * pow(c, 1 / 2.4) - 0.055) * 255
        }
        return SIMD3(encode(x), encode(y), encode(z))
    }
}
