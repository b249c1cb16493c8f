import Foundation
import ImagoContracts
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Whether `pid` is a process that still runs (a zombie waiting for its parent does not).
private func isRunning(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let end = stat.lastIndex(of: ")")
    else { return false }
    return !stat[end...].hasPrefix(") Z")
}

/// Waits (at most about a minute) until `condition` holds.
private func until(_ condition: () -> Bool) async {
    for _ in 0..<6000 where !condition() { try? await Task.sleep(nanoseconds: 10_000_000) }
}

/// Starts `script` with Python, as a test starts a small origin server.
private func python(_ script: String, exitsWithTestProcess: Bool = true) throws -> ChildProcess {
    try ChildProcess("/usr/bin/python3", ["-u", "-c", script], exitsWithTestProcess: exitsWithTestProcess)
}

/// The test-support helper for servers a plugin's tests start: stopped for sure, never left behind.
@Suite struct ChildProcessTests {
    @Test func aChildOfAThreadThatBlocksSIGTERMStillHearsIt() async throws {
        // Test runners block SIGTERM on their threads, and a child inherits the mask of the thread that starts it.
        func startWithSIGTERMBlocked() throws -> ChildProcess {
            var blocked = sigset_t()
            var previous = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGTERM)
            pthread_sigmask(SIG_BLOCK, &blocked, &previous)
            defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
            return try python(
                "import signal, time; print(sorted(signal.pthread_sigmask(signal.SIG_BLOCK, [])), flush=True); "
                    + "time.sleep(600)", exitsWithTestProcess: false)
        }
        let child = try startWithSIGTERMBlocked()
        #expect(try await child.readLine() == "[]", "the child starts with no signal blocked")
        // SIGTERM ends it: a SIGKILL after the grace would say signal 9.
        #expect(await child.stop(grace: 120) == .signalled(SIGTERM))
    }

    @Test func aProgramThatIgnoresSIGTERMIsKilledAfterTheGrace() async throws {
        let child = try python(
            "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); print('ready', flush=True); "
                + "time.sleep(600)", exitsWithTestProcess: false)
        #expect(try await child.readLine() == "ready")
        #expect(await child.stop(grace: 0.2) == .signalled(SIGKILL))
        #expect(!isRunning(child.pid))
        #expect(await child.stop() == .signalled(SIGKILL), "a second stop reports the same end")
    }

    @Test func stoppingItStopsWhatTheProgramStarted() async throws {
        let child = try python(
            "import subprocess, time; p = subprocess.Popen(['sleep', '600']); print(p.pid, flush=True); "
                + "time.sleep(600)")
        let grandchild = try #require(Int32(try await child.readLine()))
        #expect(isRunning(grandchild))
        await child.stop()
        await until { !isRunning(grandchild) }
        #expect(!isRunning(grandchild), "the program's own child was left running")
    }

    @Test func itEndsWhenTheTestProcessGoesAway() async throws {
        // The test process dying closes the pipe to the watcher; `closeInput()` closes it the same way.
        let child = try python("import os, time; print(os.getpid(), flush=True); time.sleep(600)")
        let program = try #require(Int32(try await child.readLine()))
        child.closeInput()
        await until { !isRunning(program) }
        #expect(!isRunning(program))
        await until { child.termination != nil }
        #expect(child.termination == .signalled(SIGKILL))
    }

    @Test func itReportsHowTheProgramEnded() async throws {
        let child = try ChildProcess("/bin/sh", ["-c", "echo bye; exit 3"])
        #expect(try await child.readLine() == "bye")
        await until { child.termination != nil }
        #expect(child.termination == .exited(3))
        await #expect(throws: ChildProcessError.self) { _ = try await child.readLine(timeout: 5) }
    }

    @Test func readingALineThatNeverComesTimesOut() async throws {
        let child = try python("import time; time.sleep(600)")
        let error = await #expect(throws: ChildProcessError.self) { _ = try await child.readLine(timeout: 0.2) }
        #expect(error?.description.contains("no line") == true)
        await child.stop()
    }
}
