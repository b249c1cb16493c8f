import Foundation
import Imago

/// `imago-bench quality-sweep DIR [SIDE …]`: the calibration data of `q=auto` (issue 37). For every master photo of
/// the photo set (`DIR/master/*.png`, made by Scripts/bench/photo-set.sh), at each side (512 fits the photo into
/// 512×512, 0 keeps its full size) and in each lossy format, every quality from 20 to 100 in steps of 5: the output
/// bytes, its DSSIM against the processed image, and the CPU time of the encode and of the measurement. Also prints
/// each image's complexity features. CSV on stdout.
enum QualitySweep {
    static let qualities = Array(stride(from: 20, through: 100, by: 5))

    static func run(_ arguments: [String]) throws {
        guard let folder = arguments.first else { throw QualityBenchmarkError("usage: quality-sweep DIR [SIDE …]") }
        let sides = arguments.dropFirst().compactMap(Int.init)
        let formats = ProcessInfo.processInfo.environment["IMAGO_SWEEP_FORMATS"]?.split(separator: ",").map {
            ImageFormat(String($0))
        }
        let print = { (line: String) in FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
        print("photo,side,width,height,format,quality,bytes,dssim,encode_ms,measure_ms")
        for photo in try QualityPhotos.masters(in: folder) {
            for side in sides.isEmpty ? [512, 0] : sides {
                let image = try QualityPhotos.processed(photo.image, side: side)
                print("#complexity,\(photo.name),\(side),\(ImageComplexity.score(of: image.raster))")
                let features = ComplexityFeatures.of(image.raster)
                print(
                    "#features,\(photo.name),\(side),"
                        + features.map { String(format: "%.5f", $0) }.joined(separator: ","))
                for codec in QualityCodecs.lossy where formats?.contains(codec.format) ?? true {
                    for quality in qualities {
                        var start = processCPUMilliseconds()
                        let data = try codec.encoder.encode(image, options: EncodeOptions(quality: quality))
                        let encodeTime = processCPUMilliseconds() - start
                        start = processCPUMilliseconds()
                        let decoded = try codec.decoder.decode(data, options: QualityCodecs.decodeOptions)
                        let dssim = try DSSIM.between(image.raster, decoded.raster)
                        let measureTime = processCPUMilliseconds() - start
                        print(
                            "\(photo.name),\(side),\(image.width),\(image.height),\(codec.format),\(quality),"
                                + "\(data.count),\(String(format: "%.6f", dssim)),"
                                + String(format: "%.1f,%.1f", encodeTime, measureTime))
                    }
                }
            }
        }
    }
}

/// A benchmark's bad arguments.
struct QualityBenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The photo set's masters, decoded, and their processed forms.
enum QualityPhotos {
    static func masters(in folder: String) throws -> [(name: String, image: DecodedImage)] {
        let masters = URL(fileURLWithPath: folder).appendingPathComponent("master")
        let names = try FileManager.default.contentsOfDirectory(atPath: masters.path).filter { $0.hasSuffix(".png") }
            .sorted()
        guard !names.isEmpty else { throw QualityBenchmarkError("no master PNG in \(masters.path)") }
        return try names.map { name in
            let data = try Data(contentsOf: masters.appendingPathComponent(name))
            return (String(name.dropLast(4)), try PNGCodec().decode(data))
        }
    }

    /// The photo fitted into `side`×`side` (Lanczos 3, as the serve benchmark's requests), or whole for 0.
    static func processed(_ image: DecodedImage, side: Int) throws -> DecodedImage {
        guard side > 0 else { return image }
        return try ResizeProcessor(width: side, height: side, mode: .fit, filter: .lanczos3).process(image)
    }
}

/// The encoders and decoders measured, with the settings `imago serve` uses by default.
enum QualityCodecs {
    struct Codec {
        var format: ImageFormat
        var encoder: any ImageEncoder
        var decoder: any ImageDecoder
    }

    /// Stored pixels, as the encoder was given them.
    static let decodeOptions = DecodeOptions(colorProfiles: .ignore)

    static let lossy: [Codec] = [
        Codec(format: .jpeg, encoder: JPEGCodec(), decoder: JPEGCodec(scaledDecoding: false)),
        Codec(format: .webp, encoder: WebPCodec(), decoder: WebPCodec(scaledDecoding: false)),
        Codec(format: .avif, encoder: AVIFCodec(), decoder: AVIFCodec()),
        Codec(format: .jxl, encoder: JXLCodec(), decoder: JXLCodec()),
        Codec(format: .heic, encoder: HEIFCodec(), decoder: HEIFCodec(usesThumbnails: false)),
    ]
}

/// The complexity features compared when `ImageComplexity.score` was chosen (Docs/Quality.md), on every pixel:
/// mean absolute gradient, mean 8×8 block deviation, mean |Laplacian|, mean gradient clipped at 16, share of
/// pixels with a gradient over 4.
enum ComplexityFeatures {
    static func of(_ raster: Raster) -> [Double] {
        let width = raster.width, height = raster.height
        var luma = [Float](repeating: 0, count: width * height)
        raster.withUnsafeBytes { bytes in
            for y in 0..<height {
                for x in 0..<width {
                    let offset = y * raster.bytesPerRow + x * 4
                    let alpha = Float(bytes[offset + 3]) / 255
                    let value =
                        0.299 * Float(bytes[offset]) + 0.587 * Float(bytes[offset + 1]) + 0.114
                        * Float(bytes[offset + 2])
                    luma[y * width + x] = 255 + alpha * (value - 255)
                }
            }
        }
        var gradient = 0.0, clipped = 0.0, laplacian = 0.0, busy = 0.0, count = 0.0
        for y in 1..<(height - 1) {
            for x in 1..<(width - 1) {
                let centre = luma[y * width + x]
                let dx = abs(luma[y * width + x + 1] - centre), dy = abs(luma[(y + 1) * width + x] - centre)
                let g = Double(dx + dy) / 2
                gradient += g
                clipped += min(g, 16)
                busy += g > 4 ? 1 : 0
                let l =
                    4 * centre - luma[y * width + x - 1] - luma[y * width + x + 1] - luma[(y - 1) * width + x]
                    - luma[(y + 1) * width + x]
                laplacian += Double(abs(l))
                count += 1
            }
        }
        var deviation = 0.0, blocks = 0.0
        for by in stride(from: 0, to: height - 7, by: 8) {
            for bx in stride(from: 0, to: width - 7, by: 8) {
                var sum: Float = 0, squares: Float = 0
                for y in by..<(by + 8) {
                    for x in bx..<(bx + 8) {
                        let v = luma[y * width + x]
                        sum += v
                        squares += v * v
                    }
                }
                let mean = sum / 64
                deviation += Double(max(0, squares / 64 - mean * mean).squareRoot())
                blocks += 1
            }
        }
        return [gradient / count, deviation / max(blocks, 1), laplacian / count, clipped / count, busy / count]
    }
}
