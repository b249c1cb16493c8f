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

// `imago-bench encoder-memory [FORMAT…]`: each encoder's peak memory per output megapixel (issue 33).
if CommandLine.arguments.dropFirst().first == "encoder-memory" {
    try EncoderMemoryBenchmark.run(Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}
// `imago-bench faces FOLDER` and `imago-bench video FILE` (issue 38): face crops and detection CPU, video posters and
// previews (CPU time and peak memory).
if CommandLine.arguments.dropFirst().first == "faces" {
    try FaceBenchmark.run(Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}
if CommandLine.arguments.dropFirst().first == "video" {
    try VideoBenchmark.run(Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}
// `imago-bench quality-sweep DIR [SIDE …]`: the calibration data of q=auto (QualitySweep.swift).
if CommandLine.arguments.dropFirst().first == "quality-sweep" {
    try QualitySweep.run(Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}
// `imago-bench quality DIR [--target T]`: issue 37's figures for q=auto and f=best (QualityBenchmark.swift).
if CommandLine.arguments.dropFirst().first == "quality" {
    try QualityBenchmark.run(Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}

// `imago-bench transports …`: the HTTP transports' CPU and throughput (run by Scripts/bench-transports.sh).
if CommandLine.arguments.dropFirst().first == "transports" {
    try TransportBenchmark.run(Array(CommandLine.arguments.dropFirst(2)))
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
