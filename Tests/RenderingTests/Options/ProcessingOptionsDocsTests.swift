import Foundation
import ImagoRendering
import Testing

/// Docs/Server.md's options table: every key of the grammar has a row, and every example in it parses.
@Suite struct ProcessingOptionsDocsTests {
    static let serverDoc = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Docs/Server.md")

    @Test func everyKeyHasARowAndEveryExampleParses() throws {
        let text = try String(contentsOf: Self.serverDoc, encoding: .utf8)
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| `") && $0.split(separator: "|").count == 4 }
        let keys = Set(
            rows.flatMap { row in
                row.split(separator: "|")[0].split(separator: ",").map {
                    $0.trimmingCharacters(in: .init(charactersIn: " `"))
                }
            })
        for row in ProcessingOptions.grammar.rows { #expect(keys.contains(row.name), "no row for \(row.name)") }
        let context = ProcessingOptions.Context(presets: ["card": "w=600", "soft": "blur=2"])
        var examples = 0
        for row in rows {
            let column = row.split(separator: "|")[3]
            for example in column.split(separator: "`").enumerated().filter({ $0.offset % 2 == 1 }).map(\.element) {
                examples += 1
                #expect(throws: Never.self, "\(example)") { try ProcessingOptions(parsing: example, context: context) }
            }
        }
        #expect(examples >= ProcessingOptions.grammar.rows.count - 2)
    }
}
