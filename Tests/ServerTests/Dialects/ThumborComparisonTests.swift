import Foundation
import Testing

extension ServerIntegrationTests {
    /// The comparison against a real thumbor (Scripts/compare-thumbor.py starts thumbor and `imago serve` as
    /// children on loopback and compares 60+ URLs): this run's table must be the one in Docs/Dialects.md.
    @Suite struct ThumborComparisonTests {
        @Test func theDocumentedTableIsWhatARunGives() throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
            let output = try DialectPython.run(
                try String(contentsOf: root.appendingPathComponent("Scripts/compare-thumbor.py"), encoding: .utf8),
                [
                    "--imago", try ServeChild.executable().path, "--check",
                    root.appendingPathComponent("Docs/Dialects.md").path,
                ])
            let summary = try #require(output.split(separator: "\n").first)
            let count = Int(summary.prefix { $0.isNumber }) ?? 0
            #expect(count >= 60, "\(summary)")
            let rows = output.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| URL") }
            #expect(rows.count == count)
            // Every 200 that is not smart has a PSNR at or above 30 dB, or is a documented difference.
            let pixelDifferences = rows.filter { $0.contains("differs (pixels)") }
            #expect(pixelDifferences.allSatisfy { $0.contains("contrast(20):brightness(10)") }, "\(pixelDifferences)")
            #expect(!rows.contains { $0.contains("differs (size or format)") })
        }
    }
}
