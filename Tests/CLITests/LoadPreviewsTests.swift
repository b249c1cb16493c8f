import Foundation
import ImagoTestSupport
import Testing

/// `imago load --json --previews` against a server that trickles a progressive JPEG.
@Suite(.serialized) final class LoadPreviewsTests {
    let server: TricklingServer
    let jpeg: Data

    init() throws {
        server = try TricklingServer(folder: ProgressiveFixtures.folder)
        jpeg = try ProgressiveFixtures.data(ProgressiveFixtures.progressiveJPEG)
    }

    deinit { server.stop() }

    /// Runs `imago arguments…` reading standard output through a pipe, with when each line arrived.
    func runStreaming(_ arguments: [String]) throws -> (status: Int32, lines: [(text: String, at: Date)]) {
        let process = Process()
        process.executableURL = try ImagoTool.executable()
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        var lines: [(String, Date)] = []
        var pending = Data()
        while true {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append((String(decoding: pending[pending.startIndex..<newline], as: UTF8.self), Date()))
                pending = Data(pending[pending.index(after: newline)...])
            }
        }
        process.waitUntilExit()
        return (process.terminationStatus, lines)
    }

    func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func previewLinesComeBeforeTheSourceLineAsTheyHappen() async throws {
        let url = server.url(ProgressiveFixtures.progressiveJPEG, rate: jpeg.count / 2, chunk: 2048, id: "cli")
            .absoluteString
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("imago-previews-\(UUID())")
        defer { try? FileManager.default.removeItem(at: out) }
        let (status, lines) = try runStreaming(["load", url, "--json", "--previews", "--no-cache", "--out", out.path])
        #expect(status == 0)
        let objects = try lines.map { try object($0.text) }
        let previews = objects.dropLast()
        let final = try #require(objects.last)
        #expect(previews.count >= 2)
        #expect(final["ok"] as? Bool == true && final["preview"] == nil)
        for preview in previews {
            #expect(Set(preview.keys) == ["source", "preview", "width", "height", "bytes", "ms"])
            #expect(preview["source"] as? String == url)
            #expect(preview["preview"] as? Bool == true)
            #expect(preview["width"] as? Int == 640 && preview["height"] as? Int == 480)
            #expect((preview["bytes"] as? Int ?? .max) < jpeg.count)
        }
        let bytes = previews.compactMap { $0["bytes"] as? Int }
        #expect(bytes == bytes.sorted())
        // Flushed as printed: the first preview line reached the pipe well before the source's line.
        #expect(lines.last!.at.timeIntervalSince(lines.first!.at) > 0.2)
        // Only the final image was written.
        let written = try FileManager.default.contentsOfDirectory(atPath: out.path)
        #expect(written.count == 1)
    }

    /// The issue-23 case: a resized load with previews writes the same file as the same load without them.
    @Test(arguments: [150, 300, 500])
    func aResizedLoadWithPreviewsWritesThePlainLoadsImage(maxSize: Int) async throws {
        var written: [Data] = []
        for previews in [true, false] {
            let url = server.url(
                ProgressiveFixtures.progressiveJPEG, rate: jpeg.count / 2, chunk: 2048, id: "same-\(UUID())")
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("imago-same-\(UUID())")
            defer { try? FileManager.default.removeItem(at: out) }
            var arguments = [
                "load", url.absoluteString, "--json", "--no-cache", "--max-size", "\(maxSize)", "--format", "png",
                "--out", out.path,
            ]
            if previews { arguments.append("--previews") }
            let (status, lines) = try runStreaming(arguments)
            #expect(status == 0)
            if previews { #expect(lines.count >= 2, "the load gave previews") }
            let files = try FileManager.default.contentsOfDirectory(atPath: out.path)
            #expect(files.count == 1)
            written.append(try Data(contentsOf: out.appendingPathComponent(try #require(files.first))))
        }
        #expect(written.count == 2 && written[0] == written[1], "--previews changed the image at --max-size \(maxSize)")
    }

    @Test func previewsNeedJSON() async throws {
        let result = try await ImagoTool.run(["load", "--previews", "x.png"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--json"))
    }
}
