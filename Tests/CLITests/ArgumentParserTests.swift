import Foundation
import Testing

/// The table-driven parser, seen from outside: help, usage errors and their exit status.
@Suite struct ArgumentParserTests {
    @Test func topLevelHelpListsEveryCommand() async throws {
        let result = try await ImagoTool.run(["--help"])
        #expect(result.status == 0)
        for command in [
            "info", "convert", "load", "show", "sheet", "cache", "config", "bench decode", "bench pipeline",
        ] {
            #expect(result.stdout.contains("imago \(command) "), "missing \(command)")
        }
    }

    @Test(arguments: ["info", "convert", "load", "show", "sheet", "cache", "config", "bench decode", "bench pipeline"])
    func everyCommandHasHelp(command: String) async throws {
        let result = try await ImagoTool.run(command.split(separator: " ").map(String.init) + ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("usage: imago \(command) "))
        #expect(result.stdout.contains("--help"))
    }

    @Test func unknownFlagPrintsUsageAndExits2() async throws {
        let result = try await ImagoTool.run(["info", "--bogus", "x.png"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("unknown option --bogus"))
        #expect(result.stderr.contains("usage: imago info"))
    }

    @Test(arguments: [
        ["convert", "a.png", "-o", "b.png", "--quality", "300"],
        ["convert", "a.png", "-o", "b.png", "--resize", "10by10"],
        ["convert", "a.png", "-o", "b.png", "--max-size", "4", "--resize", "4x4"],
        ["convert", "a.png", "-o", "b.unknown"],
        ["convert", "a.png"],
        ["load", "a.png", "--concurrency", "0"],
        ["load", "a.png", "--timeout", "soon"],
        // Past what a Duration holds: once a crash converting the seconds, now a usage error.
        ["load", "a.png", "--timeout", "1e300"],
        ["load"],
        ["show", "a.png", "b.png"],
        ["info", "a.png", "--json=yes"],
        ["cache", "wipe"],
        ["bench", "decode", "a.png", "--iterations"],
        ["nonsense"],
        [],
    ])
    func badCommandLinesExit2(arguments: [String]) async throws {
        let result = try await ImagoTool.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains("usage: imago"))
    }

    @Test func flagsTakeInlineValuesAndStopAtDoubleDash() async throws {
        let fixtures = try Fixtures()
        let path = try fixtures.redOverBluePNG(name: "-dash.png")
        let result = try await ImagoTool.run(["info", "--json", "--", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try result.jsonLines().first?["width"] as? Int == 16)
    }
}
