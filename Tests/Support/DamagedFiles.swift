import Foundation

/// Flips a byte in the middle of every file in `folder`, as a bad disk or a half-finished write would: what a data
/// cache's damage check (contract tests, tiered layers) must then read as a miss.
public func damageEveryFile(in folder: URL) throws {
    for file in try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil) {
        var bytes = try Data(contentsOf: file)
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: file)
    }
}
