import Foundation
import Imago
import Synchronization

/// `imago-bench quality DIR [--target T] [--sides 512,0] [--formats jpeg,webp,avif,jxl] [--exhaustive SIDES]
/// [--trace]`: the figures of issue 37 over the photo set (Scripts/bench/photo-set.sh). Per format and side (512 fits each photo into 512×512, 0 keeps
/// its full size), `q=auto` at the target against a fixed `q=80`: total and median bytes, the DSSIM spread (10th to
/// 90th percentile), the share within the target, whether `q=auto` is ever larger where `q=80` meets the target,
/// encodes per request, CPU per request. Then `f=best` for a Chromium-like `Accept` (AVIF, WebP, then JPEG) against
/// each single format at `q=auto`, and the metric's own CPU per megapixel. CPU time of this process, not wall time.
/// `--exhaustive` adds, at those sides, how far the search lands from the lowest quality that meets the target
/// (found by trying every quality); `--trace` prints the qualities each search tried.
enum QualityBenchmark {
    struct Sample {
        var photo: String
        var bytes: Int
        var dssim: Double
        var quality: Int?
        var encodes: Int
        var milliseconds: Double
    }

    static func run(_ arguments: [String]) throws {
        var folder: String?
        var target = AutoQuality.defaultTarget
        var sides = [512, 0]
        var formats: [ImageFormat] = [.jpeg, .webp, .avif, .jxl]
        var exhaustiveSides: [Int] = []
        var trace = false
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--target": target = iterator.next().flatMap(Double.init) ?? target
            case "--sides": sides = iterator.next()?.split(separator: ",").compactMap { Int($0) } ?? sides
            case "--trace": trace = true
            case "--exhaustive": exhaustiveSides = iterator.next()?.split(separator: ",").compactMap { Int($0) } ?? []
            case "--formats":
                formats = iterator.next()?.split(separator: ",").map { ImageFormat(String($0)) } ?? formats
            default: folder = argument
            }
        }
        guard let folder else {
            throw QualityBenchmarkError(
                "usage: quality DIR [--target T] [--sides 512,0] [--formats jpeg,webp] [--exhaustive 512] [--trace]")
        }
        let photos = try QualityPhotos.masters(in: folder)
        let settings = AutoQuality(target: target)
        print("imago-bench quality: \(photos.count) photos, target \(target), CPU time of this process")
        var pooled: [ImageFormat: (fixed: [Double], auto: [Double])] = [:]
        for side in sides {
            let images = try photos.map { ($0.name, try QualityPhotos.processed($0.image, side: side)) }
            print("\n## \(side == 0 ? "full size (about 2040 px)" : "fitted into \(side)x\(side)")\n")
            print(
                "| format | q=80 total / median bytes | q=auto total / median bytes | q=80 DSSIM median (p10–p90) | "
                    + "q=auto DSSIM median (p10–p90) | within target q=80 / auto | auto larger where q=80 meets | "
                    + "auto quality median (range) | encodes median (max) | CPU ms q=80 / auto (median) |")
            print("|---|---|---|---|---|---|---|---|---|---|")
            var exhaustive: [String] = []
            var autoByFormat: [ImageFormat: [Sample]] = [:]
            var fixedByFormat: [ImageFormat: [Sample]] = [:]
            for codec in QualityCodecs.lossy where formats.contains(codec.format) {
                var fixed: [Sample] = [], auto: [Sample] = []
                for (name, image) in images {
                    fixed.append(try measureFixed(name, image, codec: codec, quality: 80))
                    auto.append(try measureAuto(name, image, codec: codec, settings: settings, trace: trace))
                }
                autoByFormat[codec.format] = auto
                pooled[codec.format, default: ([], [])].fixed += fixed.map(\.dssim)
                pooled[codec.format, default: ([], [])].auto += auto.map(\.dssim)
                fixedByFormat[codec.format] = fixed
                print(row(codec.format, fixed: fixed, auto: auto, target: target))
                if exhaustiveSides.contains(side) {
                    exhaustive.append(try distance(images, codec: codec, auto: auto, settings: settings))
                }
            }
            for line in exhaustive { print(line) }
            try bestFormat(images, settings: settings, singles: autoByFormat, fixed: fixedByFormat)
        }
        // The calibration: the default target makes q=auto's median DSSIM over every side JPEG q=80's.
        print("\nMedian DSSIM over every side: q=80 against q=auto")
        for format in formats {
            guard let values = pooled[format] else { continue }
            print(String(format: "  %@: %.4f against %.4f", format.rawValue, median(values.fixed), median(values.auto)))
        }
        try metricCost(photos.map(\.image))
    }

    static func measureFixed(_ name: String, _ image: DecodedImage, codec: QualityCodecs.Codec, quality: Int) throws
        -> Sample
    {
        let start = processCPUMilliseconds()
        let data = try codec.encoder.encode(image, options: EncodeOptions(quality: quality))
        let milliseconds = processCPUMilliseconds() - start
        let decoded = try codec.decoder.decode(data, options: QualityCodecs.decodeOptions)
        let dssim = try DSSIM.between(image.raster, decoded.raster)
        return Sample(
            photo: name, bytes: data.count, dssim: dssim, quality: quality, encodes: 1, milliseconds: milliseconds)
    }

    static func measureAuto(
        _ name: String, _ image: DecodedImage, codec: QualityCodecs.Codec, settings: AutoQuality, trace: Bool
    ) throws -> Sample {
        let start = processCPUMilliseconds()
        let tracing = TracingEncoder(codec.encoder)
        let choice = try QualitySearch(encoder: tracing, decoder: codec.decoder, settings: settings).run(image)
        if trace {
            print("  \(codec.format) \(name): tried \(tracing.tried), answered \(choice.decision.headerValue)")
        }
        let milliseconds = processCPUMilliseconds() - start
        return Sample(
            photo: name, bytes: choice.data.count, dssim: choice.decision.dssim ?? 0, quality: choice.decision.quality,
            encodes: choice.encodes, milliseconds: milliseconds)
    }

    /// How far the search lands from the lowest quality that meets the target, found by trying each quality from
    /// the minimum up: quality points above it (median, max) and the bytes that cost.
    static func distance(
        _ images: [(String, DecodedImage)], codec: QualityCodecs.Codec, auto: [Sample], settings: AutoQuality
    ) throws -> String {
        var above: [Double] = []
        var (exactBytes, autoBytes) = (0, 0)
        for ((_, image), sample) in zip(images, auto) {
            var found: (quality: Int, bytes: Int)?
            for quality in settings.minQuality...settings.maxQuality {
                let data = try codec.encoder.encode(image, options: EncodeOptions(quality: quality))
                let decoded = try codec.decoder.decode(data, options: QualityCodecs.decodeOptions)
                if try DSSIM.between(image.raster, decoded.raster) <= settings.target {
                    found = (quality, data.count)
                    break
                }
            }
            guard let found, let quality = sample.quality else { continue }
            above.append(Double(quality - found.quality))
            exactBytes += found.bytes
            autoBytes += sample.bytes
        }
        return String(
            format: "%@: q=auto is %.0f quality points above the lowest that meets the target (median; max %.0f, "
                + "min %.0f), %+.1f %% bytes against it (%d photos where some quality meets it)",
            codec.format.rawValue, median(above), above.max() ?? 0, above.min() ?? 0,
            (Double(autoBytes) / Double(max(exactBytes, 1)) - 1) * 100, above.count)
    }

    static func row(_ format: ImageFormat, fixed: [Sample], auto: [Sample], target: Double) -> String {
        let within = { (samples: [Sample]) in samples.filter { $0.dssim <= target }.count }
        let meeting = zip(fixed, auto).filter { $0.0.dssim <= target }
        let larger = meeting.filter { $0.1.bytes > $0.0.bytes }
        let qualities = auto.compactMap(\.quality)
        let columns = [
            "\(format)",
            "\(total(fixed)) / \(median(fixed.map { Double($0.bytes) }).formatted0)",
            "\(total(auto)) / \(median(auto.map { Double($0.bytes) }).formatted0)"
                + String(format: " (%+.1f %%)", (Double(total(auto)) / Double(total(fixed)) - 1) * 100),
            spread(fixed.map(\.dssim)), spread(auto.map(\.dssim)),
            "\(within(fixed))/\(fixed.count) / \(within(auto))/\(auto.count)",
            "\(larger.count) of \(meeting.count)"
                + (larger.isEmpty
                    ? ""
                    : " (" + larger.map { "\($0.0.photo) +\($0.1.bytes - $0.0.bytes) B" }.joined(separator: ", ") + ")"),
            "\(median(qualities.map(Double.init)).formatted0) (\(qualities.min() ?? 0)–\(qualities.max() ?? 0))",
            "\(median(auto.map { Double($0.encodes) }).formatted1) (\(auto.map(\.encodes).max() ?? 0))",
            "\(median(fixed.map(\.milliseconds)).formatted1) / \(median(auto.map(\.milliseconds)).formatted1)",
        ]
        return "| " + columns.joined(separator: " | ") + " |"
    }

    /// `f=best` for Chromium's `Accept` (AVIF, WebP; JPEG for these opaque photos) against each single format.
    static func bestFormat(
        _ images: [(String, DecodedImage)], settings: AutoQuality, singles: [ImageFormat: [Sample]],
        fixed: [ImageFormat: [Sample]]
    ) throws {
        let codecs = QualityCodecs.lossy
        let chromium: Set<ImageFormat> = [.avif, .webp]
        var samples: [Sample] = []
        var wins: [ImageFormat: Int] = [:]
        var skipped = 0
        for (name, image) in images {
            let formats = BestFormat.formats(accepting: chromium.contains, hasAlpha: image.raster.hasTransparency)
            let candidates = formats.compactMap { format in codecs.first { $0.format == format } }.map {
                BestFormat.Candidate(encoder: $0.encoder, decoder: $0.decoder)
            }
            let start = processCPUMilliseconds()
            let outcome = try BestFormat(candidates: candidates).choose(image, quality: .auto(settings))
            let milliseconds = processCPUMilliseconds() - start
            wins[outcome.choice.decision.format, default: 0] += 1
            skipped += outcome.reports.filter { if case .encoded = $0 { false } else { true } }.count
            samples.append(
                Sample(
                    photo: name, bytes: outcome.choice.data.count, dssim: outcome.choice.decision.dssim ?? 0,
                    quality: outcome.choice.decision.quality, encodes: outcome.choice.encodes,
                    milliseconds: milliseconds))
        }
        let oracle = images.indices.map { index in
            [ImageFormat.avif, .webp, .jpeg].compactMap { singles[$0]?[index].bytes }.min() ?? 0
        }.reduce(0, +)
        print(
            "\nf=best (Accept: image/avif,image/webp,*/*): total \(total(samples)) bytes, median "
                + "\(median(samples.map { Double($0.bytes) }).formatted0); DSSIM median (p10–p90) \(spread(samples.map(\.dssim))); "
                + "encodes median \(median(samples.map { Double($0.encodes) }).formatted1) (max "
                + "\(samples.map(\.encodes).max() ?? 0)); candidates given up or skipped: \(skipped); chosen: "
                + wins.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key) \($0.value)" }.joined(
                    separator: ", "))
        print(
            String(
                format: "  against the smallest single format per photo (each at q=auto): %+.1f %%",
                (Double(total(samples)) / Double(oracle) - 1) * 100))
        for format in [ImageFormat.avif, .webp, .jpeg] {
            guard let single = singles[format], let q80 = fixed[format] else { continue }
            print(
                String(
                    format:
                        "  against %@ at q=auto: %+.1f %% bytes; CPU median %.1f ms against %.1f ms for %@ q=80 (%.1fx)",
                    format.rawValue, (Double(total(samples)) / Double(total(single)) - 1) * 100,
                    median(samples.map(\.milliseconds)), median(q80.map(\.milliseconds)), format.rawValue,
                    median(samples.map(\.milliseconds)) / max(median(q80.map(\.milliseconds)), 0.001)))
        }
    }

    /// DSSIM alone (no encode, no decode): CPU milliseconds per megapixel over the full-size photos.
    static func metricCost(_ images: [DecodedImage]) throws {
        var pixels = 0
        let start = processCPUMilliseconds()
        for image in images {
            for _ in 0..<3 { _ = try DSSIM.between(image.raster, image.raster) }
            pixels += 3 * image.width * image.height
        }
        let milliseconds = processCPUMilliseconds() - start
        print(
            String(
                format: "\nDSSIM alone: %.1f ms of CPU per megapixel (%d measurements)",
                milliseconds / (Double(pixels) / 1e6), 3 * images.count))
    }

    static func total(_ samples: [Sample]) -> Int { samples.reduce(0) { $0 + $1.bytes } }

    static func median(_ values: [Double]) -> Double { percentile(values, 0.5) }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let position = fraction * Double(sorted.count - 1)
        let low = Int(position), high = min(low + 1, sorted.count - 1)
        return sorted[low] + (sorted[high] - sorted[low]) * (position - Double(low))
    }

    /// The median, then the 10th to 90th percentile.
    static func spread(_ values: [Double]) -> String {
        String(
            format: "%.4f (%.4f–%.4f)", percentile(values, 0.5), percentile(values, 0.1), percentile(values, 0.9))
    }
}

extension Double {
    fileprivate var formatted0: String { String(format: "%.0f", self) }
    fileprivate var formatted1: String { String(format: "%.1f", self) }
}

/// An encoder that records the qualities it is asked for (`--trace`).
final class TracingEncoder: ImageEncoder {
    let base: any ImageEncoder
    private let qualities = Mutex<[Int]>([])

    init(_ base: any ImageEncoder) { self.base = base }

    var format: ImageFormat { base.format }
    var supportsAnimation: Bool { base.supportsAnimation }
    var tried: [Int] { qualities.withLock { $0 } }

    func encode(_ image: DecodedImage, options: EncodeOptions) throws -> Data {
        qualities.withLock { $0.append(options.quality) }
        return try base.encode(image, options: options)
    }
}
