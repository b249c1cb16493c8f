import Foundation
import Imago
import Testing

@Suite struct ShowCommandTests {
    /// The colours of each cell of a line, `"r;g;b"` for the foreground (top pixel) and the background (bottom
    /// pixel), following the escape codes, which are only sent when a colour changes.
    static func cells(_ line: String) -> [(top: String, bottom: String)] {
        var cells: [(top: String, bottom: String)] = []
        var top = ""
        var bottom = ""
        var rest = Substring(line)
        while let next = rest.firstIndex(where: { $0 == "\u{1B}" || $0 == "▀" }) {
            if rest[next] == "▀" {
                cells.append((top, bottom))
                rest = rest[rest.index(after: next)...]
                continue
            }
            let code = rest[next...].dropFirst(2).prefix { $0 != "m" }
            if code.hasPrefix("38;2;") { top = String(code.dropFirst(5)) }
            if code.hasPrefix("48;2;") { bottom = String(code.dropFirst(5)) }
            rest = rest[next...].dropFirst(2 + code.count + 1)
        }
        return cells
    }

    @Test func redOverBlueDrawsRedRowsAboveBlueRows() async throws {
        let fixtures = try Fixtures()
        let path = try fixtures.redOverBluePNG(width: 16, height: 16)
        let result = try await ImagoTool.run(["show", path, "--width", "8"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.lines
        #expect(lines.count == 4)
        let first = Self.cells(lines[0])
        let last = Self.cells(lines[3])
        #expect(first.count == 8)
        #expect(first.allSatisfy { $0.top == "255;0;0" && $0.bottom == "255;0;0" })
        #expect(last.count == 8)
        #expect(last.allSatisfy { $0.top == "0;0;255" && $0.bottom == "0;0;255" })
    }

    @Test func widthComesFromCOLUMNSWhenNotATerminal() async throws {
        let fixtures = try Fixtures()
        let path = try fixtures.redOverBluePNG(width: 64, height: 32)
        let result = try await ImagoTool.run(["show", path], environment: ["COLUMNS": "20"])
        #expect(result.status == 0)
        #expect(result.lines.count == 5)
        #expect(Self.cells(result.lines[0]).count == 20)
    }

    @Test func noColorFallsBackToAGrayscaleRamp() async throws {
        let fixtures = try Fixtures()
        let raster = try Fixtures.split(width: 8, height: 8, top: RGBA(255, 255, 255), bottom: RGBA(0, 0, 0))
        let path = try fixtures.write(DecodedImage(raster: raster, format: .png), as: .png, name: "bw.png")
        let result = try await ImagoTool.run(["show", path, "--width", "8"], environment: ["NO_COLOR": "1"])
        #expect(result.status == 0)
        #expect(!result.stdout.contains("\u{1B}"))
        #expect(result.lines == ["@@@@@@@@", "@@@@@@@@", "        ", "        "].map { $0 })
    }

    @Test func aFailedSourceIsOneLineAndExit1() async throws {
        let fixtures = try Fixtures()
        let text = try fixtures.notAnImage()
        let result = try await ImagoTool.run(["show", text])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.errorLines == ["\(text): not an image: unknown format"])
    }
}
