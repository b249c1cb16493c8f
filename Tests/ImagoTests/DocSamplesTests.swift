import Foundation
import Testing

/// Every Swift sample in README.md and Docs/*.md is checked: a sample of code must appear, line for line, in a
/// Swift file under Tests/ (so it compiles with the tests, and runs where it is a test), and a sample of a package
/// manifest must resolve against this checkout with `swift package show-dependencies`.
@Suite struct DocSamplesTests {
    /// One fenced ```swift block.
    struct Sample: CustomStringConvertible {
        let file: String
        let line: Int
        let text: String
        var description: String { "\(file):\(line)" }
        var isManifest: Bool { text.contains(".package(") || text.contains(".target(") }
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func samples() throws -> [Sample] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "Docs/" + $0 }
        return try (["README.md"] + docs).flatMap { file in
            let lines = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
                .components(separatedBy: "\n")
            var samples: [Sample] = []
            var start: Int?
            for (index, line) in lines.enumerated() {
                if start == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                    start = index
                } else if let first = start, line.trimmingCharacters(in: .whitespaces) == "```" {
                    let text = lines[(first + 1)..<index].joined(separator: "\n")
                    samples.append(Sample(file: file, line: first + 1, text: text))
                    start = nil
                }
            }
            return samples
        }
    }

    /// The lines that must match: whitespace runs collapsed, blank lines and imports left out (a test file has
    /// its imports at the top).
    static func normalized(_ text: String) -> [String] {
        text.components(separatedBy: "\n")
            .map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ") }
            .filter { !$0.isEmpty && !$0.hasPrefix("import ") }
    }

    /// Every Swift file under Tests/, normalized.
    static let testSources: [(path: String, lines: [String])] = {
        let tests = root.appendingPathComponent("Tests")
        guard let walker = FileManager.default.enumerator(atPath: tests.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().compactMap { path in
            guard let text = try? String(contentsOf: tests.appendingPathComponent(path), encoding: .utf8) else {
                return nil
            }
            return ("Tests/" + path, normalized(text))
        }
    }()

    static func contains(_ haystack: [String], _ needle: [String]) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }

    @Test func thereAreSamplesToCheck() throws {
        let samples = try Self.samples()
        #expect(samples.contains { $0.file == "README.md" })
        #expect(samples.contains { $0.file == "Docs/Plugins.md" && $0.isManifest })
        #expect(samples.filter { $0.file == "Docs/Plugins.md" }.count >= 10)
    }

    @Test func everyCodeSampleIsCompiledByATest() throws {
        for sample in try Self.samples() where !sample.isManifest {
            let lines = Self.normalized(sample.text)
            let home = Self.testSources.first { Self.contains($0.lines, lines) }
            #expect(
                home != nil,
                """
                \(sample) is in no test: copy it verbatim into a Swift file under Tests/ (for example a \
                DocSamples folder of the test target that has its types), so it compiles
                """)
        }
    }

    @Test func everyManifestSampleResolvesAgainstThisCheckout() throws {
        for sample in try Self.samples() where sample.isManifest {
            let result = try Self.resolve(manifestArguments: sample.text)
            #expect(result.status == 0, "\(sample) does not resolve: \(result.output)")
        }
    }

    /// Writes a package `MyPlugin` whose `Package(…)` arguments are `manifestArguments`, beside a link named
    /// `imago` to this checkout, with an empty file in each target's folder, and runs
    /// `swift package show-dependencies` in it (it loads the graph: an unknown package or product fails). A sample
    /// of targets alone is put in `targets: […]`, and one without `dependencies:` depends on `../imago`.
    static func resolve(manifestArguments sample: String) throws -> (status: Int32, output: String) {
        var manifestArguments = sample.contains("targets:") ? sample : "targets: [\n\(sample)\n]"
        if !manifestArguments.contains("dependencies: [.package(") {
            manifestArguments = "dependencies: [.package(path: \"../imago\")],\n" + manifestArguments
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imago-manifest-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let package = folder.appendingPathComponent("MyPlugin")
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("imago"), withDestinationURL: root)
        let manifest = """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "MyPlugin",
            \(manifestArguments)
            )
            """
        try Data(manifest.utf8).write(to: package.appendingPathComponent("Package.swift"))
        let targets = try NSRegularExpression(pattern: #"\.(target|testTarget)\(\s*name: "([^"]+)""#)
        let range = NSRange(manifestArguments.startIndex..., in: manifestArguments)
        for match in targets.matches(in: manifestArguments, range: range) {
            let kind = String(manifestArguments[Range(match.range(at: 1), in: manifestArguments)!])
            let name = String(manifestArguments[Range(match.range(at: 2), in: manifestArguments)!])
            let sources = package.appendingPathComponent(kind == "testTarget" ? "Tests" : "Sources")
                .appendingPathComponent(name)
            try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
            try Data().write(to: sources.appendingPathComponent("\(name).swift"))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "--package-path", package.path, "show-dependencies"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
