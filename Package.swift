// swift-tools-version: 6.0
import Foundation
import PackageDescription

/// System C libraries, found through pkg-config (Debian's -dev packages; `.ci/run` installs them).
let cLibraries: [Target] = [
    .systemLibrary(
        name: "CPNG", path: "Sources/CLibraries/CPNG", pkgConfig: "libpng16", providers: [.apt(["libpng-dev"])]),
    .systemLibrary(
        name: "CJPEG", path: "Sources/CLibraries/CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg-dev"])]),
    .systemLibrary(
        name: "CGIF", path: "Sources/CLibraries/CGIF", providers: [.apt(["libgif-dev"])]),
    .systemLibrary(
        name: "CWebP", path: "Sources/CLibraries/CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
    .systemLibrary(
        name: "CWebPDemux", path: "Sources/CLibraries/CWebPDemux", pkgConfig: "libwebpdemux",
        providers: [.apt(["libwebp-dev"])]),
    .systemLibrary(
        name: "CWebPMux", path: "Sources/CLibraries/CWebPMux", pkgConfig: "libwebpmux",
        providers: [.apt(["libwebp-dev"])]),
    // The calls that may longjmp (libpng, libjpeg error handlers) live in C, so no Swift frame is jumped over.
    .target(name: "CImagoShim", dependencies: ["CPNG", "CJPEG"], path: "Sources/CLibraries/CImagoShim"),
]

// libcurl for the HTTP(S) transport `CurlTransport` (issue 17): typed wrappers of its variadic calls in shim.h.
let curlLibrary: [Target] = [
    .systemLibrary(
        name: "CCurl", path: "Sources/CLibraries/CCurl", pkgConfig: "libcurl",
        providers: [.apt(["libcurl4-openssl-dev"])])
]

let codecDependencies: [Target.Dependency] = [
    "ImagoCore", "CImagoShim", "CPNG", "CJPEG", "CGIF", "CWebP", "CWebPDemux", "CWebPMux",
]

// ICC colour management (issue 13): lcms2 behind ImagoColor, a support module the codec modules share (Codecs and
// the AVIF, HEIF and JXL plugins); Core knows nothing of colour profiles.
let colorLibraries: [Target] = [
    .systemLibrary(
        name: "CLCMS2", path: "Sources/CLibraries/CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
    .target(name: "ImagoColor", dependencies: ["ImagoCore", "CLCMS2"], path: "Sources/Color"),
]
let colorDependencies: [Target.Dependency] = ["ImagoColor"]

// AVIF, HEIF/HEIC and JPEG XL (issue 14): three plugin modules, each over its own C library and Core, so a user
// who wants fewer C dependencies depends on the ones they need. The umbrella registers all three. Each also uses
// ImagoColor for embedded ICC profiles. The headers are found without pkg-config (in /usr/include and the
// multiarch folder beside it): libavif's and libjxl's .pc files add -DAVIF_DLL / -DHWY_SHARED_DEFINE (export
// attributes that matter on Windows), which SwiftPM refuses with a warning, and libheif's would link the library.
//
// The three libraries are not linked: each C<FORMAT>Loader (written by Scripts/generate-lazy-loaders.py) defines
// the library's functions and opens it with dlopen on first use, so a program that never decodes these formats
// does not load their forty-odd shared objects at start (8 of the 20 ms `imago` took to start).
let newFormats: [(module: String, folder: String, c: String, apt: String)] = [
    ("ImagoAVIF", "AVIF", "CAVIF", "libavif-dev"),
    ("ImagoHEIF", "HEIF", "CHEIF", "libheif-dev"),
    ("ImagoJXL", "JXL", "CJXL", "libjxl-dev"),
]
let newFormatModules: [Target.Dependency] = newFormats.map { .target(name: $0.module) }
let newFormatLibraries: [Target.Dependency] = newFormats.flatMap {
    [.target(name: $0.c), .target(name: "\($0.c)Loader")]
}
let newFormatTargets: [Target] =
    [
        .target(
            name: "CLazyLibrary", path: "Sources/CLibraries/CLazyLibrary",
            linkerSettings: [
                .linkedLibrary("dl", .when(platforms: [.linux])),
                .linkedLibrary("pthread", .when(platforms: [.linux])),
            ])
    ]
    + newFormats.flatMap { format -> [Target] in
        [
            .systemLibrary(
                name: format.c, path: "Sources/CLibraries/\(format.c)", providers: [.apt([format.apt])]),
            .target(
                name: "\(format.c)Loader", dependencies: ["CLazyLibrary"],
                path: "Sources/CLibraries/\(format.c)Loader"),
            .target(
                name: format.module,
                dependencies: ["ImagoCore", "ImagoColor", .target(name: format.c), .target(name: "\(format.c)Loader")],
                path: "Sources/\(format.folder)"),
            .testTarget(
                name: "\(format.folder)Tests",
                dependencies: [.target(name: format.module), "ImagoContracts", "ImagoTestSupport"],
                resources: [.copy("Fixtures")]),
        ]
    }

// The fleet's parts: Redis (issue 15, the data cache and leases over hiredis; no `pkgConfig`: hiredis.pc adds
// `-D_FILE_OFFSET_BITS=64`, which SwiftPM refuses with a warning, and `<hiredis/hiredis.h>` needs no search path),
// and S3 (issue 25: the libcurl engine ImagoCurl, shared by the curl transport and ImagoS3, signed by libcurl's
// SigV4).
let fleetTargets: [Target] = [
    .systemLibrary(name: "CHiredis", path: "Sources/CLibraries/CHiredis", providers: [.apt(["libhiredis-dev"])]),
    .target(name: "ImagoRedis", dependencies: ["ImagoCore", "CHiredis"], path: "Sources/Redis"),
    .testTarget(
        name: "RedisTests", dependencies: ["ImagoRedis", "ImagoCaches", "Imago", "ImagoContracts", "ImagoTestSupport"]),
    .target(name: "ImagoCurl", dependencies: ["ImagoCore", "CCurl"], path: "Sources/Curl"),
    .target(name: "ImagoS3", dependencies: ["ImagoCore", "ImagoCurl"], path: "Sources/S3"),
    .testTarget(
        name: "S3Tests", dependencies: ["ImagoS3", "ImagoCaches", "Imago", "ImagoContracts", "ImagoTestSupport"]),
]

// `imago serve`'s HTTP server (issue 16): libmicrohttpd, a C shim for its variadic start call, libcrypto for
// HMAC-SHA1 (thumbor's signatures, issue 26), and the ImagoServer module the CLI's `serve` command starts.
let serverTargets: [Target] = [
    .systemLibrary(
        name: "CMicroHTTPD", path: "Sources/CLibraries/CMicroHTTPD", pkgConfig: "libmicrohttpd",
        providers: [.apt(["libmicrohttpd-dev"])]),
    .target(name: "CMicroHTTPDShim", dependencies: ["CMicroHTTPD"], path: "Sources/CLibraries/CMicroHTTPDShim"),
    .systemLibrary(
        name: "CCrypto", path: "Sources/CLibraries/CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
    .target(
        name: "ImagoServer", dependencies: ["Imago", "CMicroHTTPD", "CMicroHTTPDShim", "CCrypto"],
        path: "Sources/Server"),
    .testTarget(name: "ServerTests", dependencies: ["ImagoServer", "ImagoTestSupport"]),
]

// Media (issue 38): the face detector over OpenCV's cascade classifier, reached through a C++ shim with a C interface
// (CImagoFaces), and video as a source over FFmpeg's libavformat, libavcodec and libswscale (CImagoVideo). Each shim
// compiles its library's code only when `__has_include` finds the headers (CImagoFaces through include/opencv2, a
// link to Debian's /usr/include/opencv4/opencv2) and reaches the library through dlopen/dlsym on first use: the
// package builds and runs without OpenCV or FFmpeg (the plugin then reports why it cannot run), and a program that
// never detects or reads a video loads neither. No pkg-config: opencv4.pc would link every OpenCV library.
let mediaTargets: [Target] = [
    .target(
        name: "CImagoFaces", path: "Sources/CLibraries/CImagoFaces",
        linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
    .target(name: "ImagoDetect", dependencies: ["ImagoCore", "CImagoFaces"], path: "Sources/Detect"),
    .testTarget(
        name: "DetectTests", dependencies: ["ImagoDetect", "Imago", "ImagoContracts", "ImagoTestSupport"],
        resources: [.copy("Fixtures")]),
    .target(
        name: "CImagoVideo", path: "Sources/CLibraries/CImagoVideo",
        linkerSettings: [
            .linkedLibrary("dl", .when(platforms: [.linux])), .linkedLibrary("m", .when(platforms: [.linux])),
        ]),
    .target(name: "ImagoVideo", dependencies: ["ImagoCore", "CImagoVideo"], path: "Sources/Video"),
    .testTarget(name: "VideoTests", dependencies: ["ImagoVideo", "Imago", "ImagoContracts", "ImagoTestSupport"]),
]

// libspng (issue 28): measured against libpng in imago-bench only (`png-spng`); the PNG codec stays on libpng.
let spng: Target = .systemLibrary(
    name: "CSPNG", path: "Sources/CLibraries/CSPNG", pkgConfig: "spng", providers: [.apt(["libspng-dev"])])

// Every target, each declared once with all its dependencies.
var targets: [Target] =
    cLibraries + colorLibraries + curlLibrary + newFormatTargets + fleetTargets + serverTargets + mediaTargets + [spng]
    + [
        .target(name: "ImagoCore", path: "Sources/Core"),
        // The UI layer (an observable model, phases and transitions), apart from Core as NukeUI is from Nuke.
        .target(name: "ImagoUI", dependencies: ["ImagoCore"], path: "Sources/UI"),
        .target(
            name: "ImagoTransports", dependencies: ["ImagoCore", "CCurl", "ImagoCurl"], path: "Sources/Transports"),
        .target(name: "ImagoCodecs", dependencies: codecDependencies + colorDependencies, path: "Sources/Codecs"),
        .target(name: "ImagoCaches", dependencies: ["ImagoCore"], path: "Sources/Caches"),
        // What to render and how it is asked for: the options model, its three URL grammars (Imago's own,
        // imgproxy's, thumbor's), the processors and render requests it makes, and `ImageInfo`; Core only.
        .target(name: "ImagoRendering", dependencies: ["ImagoCore"], path: "Sources/Rendering"),
        // The umbrella: every built-in plugin, registered by its standard registry, and the UI layer, as
        // `import Imago` brought them in 0.1.0.
        .target(
            name: "Imago",
            dependencies: [
                "ImagoCore", "ImagoUI", "ImagoTransports", "ImagoCodecs", "ImagoCaches", "ImagoRendering", "ImagoRedis",
                "ImagoS3", "ImagoDetect", "ImagoVideo",
            ] + newFormatModules,
            path: "Sources/Imago"),
        .target(name: "ImagoContracts", dependencies: ["ImagoCore"], path: "Sources/Contracts"),
        // The CLI plays animations through ImagoUI's player (`imago bench play`) and starts `imago serve`; nothing
        // depends on the CLI.
        .executableTarget(name: "ImagoCLI", dependencies: ["Imago", "ImagoUI", "ImagoServer"], path: "Sources/CLI"),
        // The benchmarks compare with the C libraries called directly (hiredis, libspng and the new formats'
        // included), and time the server (issue 28).
        .executableTarget(
            name: "ImagoBenchmarks",
            dependencies: [
                "Imago", "CImagoShim", "CPNG", "CJPEG", "CGIF", "CWebP", "CWebPDemux", "CHiredis", "ImagoTestSupport",
                "ImagoServer", "CSPNG",
            ] + newFormatModules + newFormatLibraries,
            path: "Sources/Benchmarks"),
        // Test helpers shared by the test targets (loopback server, corpus location, bundled fixtures); no product.
        .target(name: "ImagoTestSupport", dependencies: ["ImagoCore"], path: "Tests/Support"),
        .testTarget(name: "CoreTests", dependencies: ["ImagoCore", "ImagoTestSupport"]),
        .testTarget(name: "UITests", dependencies: ["ImagoUI", "ImagoCore", "ImagoTestSupport"]),
        .testTarget(
            name: "TransportsTests",
            dependencies: ["ImagoTransports", "ImagoCurl", "ImagoContracts", "ImagoTestSupport"]),
        .testTarget(name: "CodecsTests", dependencies: ["ImagoCodecs", "ImagoContracts", "ImagoTestSupport"]),
        .testTarget(name: "CachesTests", dependencies: ["ImagoCaches", "ImagoContracts", "ImagoTestSupport"]),
        .testTarget(name: "RenderingTests", dependencies: ["ImagoRendering", "ImagoTestSupport"]),
        .testTarget(name: "ImagoTests", dependencies: ["Imago", "ImagoContracts", "ImagoTestSupport", "CLazyLibrary"]),
        .testTarget(name: "ContractsTests", dependencies: ["ImagoContracts", "Imago", "ImagoTestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["Imago", "ImagoTestSupport"]),
    ]

var products: [Product] =
    [
        .library(name: "Imago", targets: ["Imago"]),
        .library(name: "ImagoCore", targets: ["ImagoCore"]),
        .library(name: "ImagoUI", targets: ["ImagoUI"]),
        .library(name: "ImagoTransports", targets: ["ImagoTransports"]),
        .library(name: "ImagoCodecs", targets: ["ImagoCodecs"]),
        .library(name: "ImagoColor", targets: ["ImagoColor"]),
        .library(name: "ImagoCaches", targets: ["ImagoCaches"]),
        .library(name: "ImagoRendering", targets: ["ImagoRendering"]),
        .library(name: "ImagoContracts", targets: ["ImagoContracts"]),
        .executable(name: "imago", targets: ["ImagoCLI"]),
        .executable(name: "imago-bench", targets: ["ImagoBenchmarks"]),
    ] + newFormats.map { .library(name: $0.module, targets: [$0.module]) }
    + [
        .library(name: "ImagoRedis", targets: ["ImagoRedis"]), .library(name: "ImagoS3", targets: ["ImagoS3"]),
        .library(name: "ImagoServer", targets: ["ImagoServer"]),
        .library(name: "ImagoDetect", targets: ["ImagoDetect"]), .library(name: "ImagoVideo", targets: ["ImagoVideo"]),
    ]

// libFuzzer targets have no `main`, so they join the package only when asked: IMAGO_FUZZ=1 (see Scripts/fuzz.sh).
if ProcessInfo.processInfo.environment["IMAGO_FUZZ"] != nil {
    // Only the fuzzers whose folder exists, so the package resolves while some are still being written.
    let fuzzRoot = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("Fuzz")
    targets.append(.target(name: "FuzzSupport", dependencies: ["ImagoCodecs"], path: "Fuzz/Support"))
    for name in ["PNG", "JPEG", "GIF", "WebP", "Incremental"]
    where FileManager.default.fileExists(atPath: fuzzRoot.appendingPathComponent(name).path) {
        products.append(.executable(name: "fuzz-\(name.lowercased())", targets: ["Fuzz\(name)"]))
        targets.append(
            .executableTarget(
                name: "Fuzz\(name)", dependencies: ["FuzzSupport", "ImagoCodecs"], path: "Fuzz/\(name)"))
    }
    // The video decoder's fuzzer (issue 38) links ImagoVideo.
    if FileManager.default.fileExists(atPath: fuzzRoot.appendingPathComponent("Video").path) {
        products.append(.executable(name: "fuzz-video", targets: ["FuzzVideo"]))
        targets.append(
            .executableTarget(name: "FuzzVideo", dependencies: ["FuzzSupport", "ImagoVideo"], path: "Fuzz/Video"))
    }
    // The new formats' fuzzers (issue 14) link their own module as well.
    for name in ["AVIF", "HEIF", "JXL"]
    where FileManager.default.fileExists(atPath: fuzzRoot.appendingPathComponent(name).path) {
        products.append(.executable(name: "fuzz-\(name.lowercased())", targets: ["Fuzz\(name)"]))
        targets.append(
            .executableTarget(
                name: "Fuzz\(name)", dependencies: ["FuzzSupport", .target(name: "Imago\(name)")],
                path: "Fuzz/\(name)"))
    }
}

let package = Package(
    name: "Imago",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: products,
    targets: targets,
    swiftLanguageModes: [.v6]
)
