import Foundation
import Imago
import Testing

/// `imago show` plays an animation in a pseudo-terminal (Python's `pty` drives it): the frames drawn change, and
/// after Ctrl-C the terminal is restored (attributes reset, cursor shown) and the exit status is 130.
@Suite struct ShowAnimationTests {
    /// Runs `imago show GIF` in a pseudo-terminal, waits for three different frames, sends SIGINT, reads to the
    /// end; prints the distinct frames seen, whether the restore sequence came after the signal, and the status.
    static let driver = """
        import json, os, pty, re, select, signal, sys, time
        imago, gif = sys.argv[1], sys.argv[2]
        pid, fd = pty.fork()
        if pid == 0:
            os.execv(imago, [imago, "show", gif, "--width", "8", "--loops", "1000"])
        output, after, sent = b"", b"", False
        deadline = time.monotonic() + 120  # a safety net for a hung child, not a measurement
        while True:
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                if sent:
                    after += chunk
                else:
                    output += chunk
            frames = {f for f in re.split(rb"\\x1b\\[\\d+A\\r", output) if b"\\n" in f}
            if not sent and (len(frames) >= 3 or time.monotonic() > deadline):
                os.kill(pid, signal.SIGINT)
                sent = True
        _, status = os.waitpid(pid, 0)
        frames = {f for f in re.split(rb"\\x1b\\[\\d+A\\r", output) if b"\\n" in f}
        print(json.dumps({"frames": len(frames), "restored": b"\\x1b[0m\\x1b[?25h" in after,
                          "hidden": b"\\x1b[?25l" in output, "status": os.waitstatus_to_exitcode(status)}))
        """

    @Test func playsFramesThatChangeAndRestoresTheTerminalOnCtrlC() async throws {
        let fixtures = try Fixtures()
        let gif = try fixtures.animation(as: .gif, name: "anim.gif")
        let imago = try ImagoTool.executable()
        let report = try await WorkExecutor.compute.run { try Self.runDriver(imago.path, gif) }
        let object = try #require(try JSONSerialization.jsonObject(with: report) as? [String: Any])
        #expect(object["frames"] as? Int ?? 0 >= 3, "\(object)")
        #expect(object["hidden"] as? Bool == true)
        #expect(object["restored"] as? Bool == true, "\(object)")
        #expect(object["status"] as? Int == 130)
    }

    static func runDriver(_ imago: String, _ gif: String) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", driver, imago, gif]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }
}
