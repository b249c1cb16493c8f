import Foundation

/// An independent implementation to check against: a `/usr/bin/python3` child (standard library, Pillow, numpy)
/// running `script` with `arguments`, its standard output returned. A failing script fails the test.
enum DialectPython {
    struct Failure: Error, CustomStringConvertible { var description: String }

    static func run(_ script: String, _ arguments: [String] = [], python: String = "/usr/bin/python3") throws -> String
    {
        try launch(["-c", script] + arguments, python: python)
    }

    /// Runs the script file at `file` with `arguments`; its standard output returned.
    static func run(file: URL, _ arguments: [String] = [], python: String = "/usr/bin/python3") throws -> String {
        try launch([file.path] + arguments, python: python)
    }

    private static func launch(_ arguments: [String], python: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
        let output = Pipe()
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("imago-dialect-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "python failed: " + ((try? String(contentsOf: errors, encoding: .utf8)) ?? ""))
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// imgproxy's signature of each path by Python's `hmac`: key and salt in hex, `size` bytes kept.
    static func imgproxySignatures(key: String, salt: String, size: Int, paths: [String]) throws -> [String] {
        try run(
            """
            import sys, hmac, hashlib, base64
            key, salt, size = bytes.fromhex(sys.argv[1]), bytes.fromhex(sys.argv[2]), int(sys.argv[3])
            for path in sys.argv[4:]:
                digest = hmac.new(key, salt + path.encode(), hashlib.sha256).digest()[:size]
                print(base64.urlsafe_b64encode(digest).rstrip(b"=").decode())
            """, [key, salt, String(size)] + paths
        ).split(separator: "\n").map(String.init)
    }

    /// thumbor's signature of each path by Python's `hmac` (urlsafe base64 of HMAC-SHA1, padded).
    static func thumborSignatures(key: String, paths: [String]) throws -> [String] {
        try run(
            """
            import sys, hmac, hashlib, base64
            for path in sys.argv[2:]:
                print(base64.urlsafe_b64encode(hmac.new(sys.argv[1].encode(), path.encode(), hashlib.sha1).digest()).decode())
            """, [key] + paths
        ).split(separator: "\n").map(String.init)
    }
}
