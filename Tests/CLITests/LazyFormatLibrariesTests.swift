import Foundation
import Imago
import Testing

/// libavif, libheif and libjxl are opened on first use (Scripts/generate-lazy-loaders.py): a command that only
/// meets JPEG and PNG never loads them, and one that meets an AVIF, HEIC or JPEG XL file loads that library alone.
/// The dynamic loader's own log (`LD_DEBUG=files`) says which shared objects a run loaded, and how.
@Suite struct LazyFormatLibrariesTests {
    static let libraries = ["libavif.so", "libheif.so", "libjxl.so"]

    /// The shared objects the run of `imago arguments…` loaded, as the loader names them.
    static func loadedLibraries(_ arguments: [String]) async throws -> (status: Int32, loaded: [String], log: String) {
        let result = try await ImagoTool.run(arguments, environment: ["LD_DEBUG": "files"])
        let loaded = result.stderr.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "file=") else { return nil }
            return String(line[range.upperBound...].prefix { $0 != " " && $0 != ";" })
        }
        return (result.status, loaded, result.stderr)
    }

    @Test func jpegAndPNGWorkLoadsNoneOfThem() async throws {
        let fixtures = try Fixtures()
        let raster = try Fixtures.split(width: 16, height: 8, top: RGBA(200, 10, 10), bottom: RGBA(10, 10, 200))
        let jpeg = try fixtures.write(DecodedImage(raster: raster, format: .jpeg), as: .jpeg, name: "a.jpg")
        let png = try fixtures.write(DecodedImage(raster: raster, format: .png), as: .png, name: "b.png")
        let run = try await Self.loadedLibraries([
            "load", jpeg, png, "--max-size", "8", "--out", fixtures.path("out"), "--no-cache",
        ])
        #expect(run.status == 0)
        // The log is there (else the check below proves nothing): libjpeg, linked, was loaded.
        #expect(run.loaded.contains { $0.contains("libjpeg.so") }, "\(run.log.suffix(2000))")
        for library in Self.libraries {
            #expect(!run.loaded.contains { $0.contains(library) }, "\(library) was loaded")
        }
    }

    @Test(arguments: [
        ("AVIF", "still.avif", "libavif.so"), ("HEIF", "still.heic", "libheif.so"),
        ("JXL", "lossless.jxl", "libjxl.so"),
    ])
    func aFileOfTheFormatLoadsItsLibraryOnly(module: String, name: String, library: String) async throws {
        let path = NewFormatsCommandTests.fixture(module, name).path
        let run = try await Self.loadedLibraries(["info", "--json", path])
        #expect(run.status == 0, "\(run.log.suffix(2000))")
        #expect(run.loaded.contains { $0.contains(library) }, "\(library) was not loaded")
        for other in Self.libraries where other != library {
            #expect(!run.loaded.contains { $0.contains(other) }, "\(other) was loaded too")
        }
    }
}
