import Foundation

// imago-bench: decode benchmarks, each against the C library called directly in the same process.
// Usage: imago-bench [--runs N] [name-filter]. Build in release: swift build -c release --product imago-bench

/// Every benchmark case; add one line per case (each lives in its own file).
let cases: [() throws -> BenchmarkCase] = [
    JPEGDecodeBenchmark.make,
    JPEGScaledDecodeBenchmark.make,
    ThumbnailBatchBenchmark.make,
    PNGDecodeBenchmark.make,
    GIFDecodeBenchmark.make,
    WebPDecodeBenchmark.make,
    WebPDecodeBenchmark.makeScaled,
    AVIFDecodeBenchmark.make,
    HEIFDecodeBenchmark.make,
    JXLDecodeBenchmark.make,
    LoaderBatchBenchmark.make,
    LoaderMemoryHitBenchmark.make,
    MemoryCacheBenchmark.make,
    ICCConversionBenchmark.make,
    ICCConversionBenchmark.makeThumbnail,
    ICCNewFormatsBenchmark.makeHEIC,
    ICCNewFormatsBenchmark.makeAVIF,
    CacheTierBenchmark.redisHit,
    CacheTierBenchmark.diskHit,
    CacheTierBenchmark.networkFetch,
]

/// Benchmarks with arguments of their own, `imago-bench NAME ARGUMENTS…`; each lives in its own file.
let subcommands: [String: ([String]) throws -> Void] = [
    // Each encoder's peak memory per output megapixel (issue 33): `encoder-memory [FORMAT…]`.
    "encoder-memory": EncoderMemoryBenchmark.run,
    // Face crops and detection CPU (issue 38): `faces FOLDER`.
    "faces": FaceBenchmark.run,
    // Video posters and previews, CPU time and peak memory (issue 38): `video FILE`.
    "video": VideoBenchmark.run,
    // The calibration data of q=auto (issue 37): `quality-sweep DIR [SIDE…]`.
    "quality-sweep": QualitySweep.run,
    // The figures of q=auto and f=best (issue 37): `quality DIR [--target T]`.
    "quality": QualityBenchmark.run,
    // The HTTP transports' CPU and throughput (run by Scripts/bench-transports.sh).
    "transports": TransportBenchmark.run,
]
if let name = CommandLine.arguments.dropFirst().first, let run = subcommands[name] {
    try run(Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}

let options = BenchmarkOptions(arguments: Array(CommandLine.arguments.dropFirst()))
// Progressive previews are measured in CPU time, not against a C floor (PreviewCPUBenchmark.swift).
if options.filter == "previews-cpu" {
    try PreviewCPUBenchmark.run(runs: min(options.runs, 5))
    exit(0)
}
// Issue 28's serve path against the C libraries' own work (ServeFloorBenchmark.swift).
if let index = CommandLine.arguments.firstIndex(of: "serve-floor") {
    // `serve-floor [--runs N] [jpeg|png|webp …]`; IMAGO_FLOOR_ONLY=imago runs that path alone (for a profiler).
    let formats = CommandLine.arguments[(index + 1)...].filter { ["jpeg", "png", "webp"].contains($0) }
    try ServeFloorBenchmark.run(runs: options.runs, formats: Array(formats))
    exit(0)
}
// Issue 28's PNG question: libspng against libpng, and zlib levels for PNG output (PNGSpngBenchmark.swift).
if options.filter == "png-spng" {
    try PNGSpngBenchmark.run(runs: min(options.runs, 15))
    exit(0)
}
// Issue 24's filters against Pillow in a python3 child (FilterBenchmark.swift).
if options.filter == "filters" {
    try FilterBenchmark.run(runs: min(options.runs, 10))
    exit(0)
}
var results: [BenchmarkResult] = []
print(
    "imago-bench: median of \(options.runs) runs each (after \(options.warmups) warm-ups), "
        + "ours and the C floor interleaved")
for make in cases {
    let benchmark = try make()
    guard options.filter.map({ benchmark.name.contains($0) }) ?? true else { continue }
    let result = try benchmark.run(runs: options.runs, warmups: options.warmups)
    print(result.line)
    results.append(result)
}
if results.contains(where: { $0.ratio > 1.10 }) { print("note: a case is more than 10% over its C floor") }
