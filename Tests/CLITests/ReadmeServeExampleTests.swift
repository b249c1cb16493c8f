import Foundation
import Imago
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The README's `imago serve` example, run as written (with the built executable, a free port and a temporary
/// folder in place of `swift run`, 8080 and /tmp).
@Suite struct ReadmeServeExampleTests {
    @Test func theServeExampleAnswersAResizedWebP() async throws {
        let readme = try String(
            contentsOf: ImagoTool.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Serving images").dropFirst().first)
        let block = try #require(
            section.components(separatedBy: "```sh\n").dropFirst().first?
                .components(separatedBy: "```").first)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imago-readme-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // /tmp/ first: the executable's own path may lie under /tmp (a checkout there) and must stay as it is.
        let script = block.replacingOccurrences(of: "/tmp/", with: folder.path + "/")
            .replacingOccurrences(of: "swift run -c release imago", with: try ImagoTool.executable().path)
            .replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(try Self.freePort())")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "set -e\n" + script]
        process.currentDirectoryURL = ImagoTool.packageRoot
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let data = try Data(contentsOf: folder.appendingPathComponent("photo-48.webp"))
        let image = try PluginRegistry.standard().decoder(for: data, limits: .default).decode(data)
        #expect(image.format == .webp && image.width == 48 && image.height == 72)
    }

    /// A port nothing listens on now.
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw TestFailure("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
