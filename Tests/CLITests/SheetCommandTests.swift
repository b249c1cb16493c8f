import Foundation
import Imago
import Testing

@Suite struct SheetCommandTests {
    @Test func writesAPNGOfTheGridSizeWithFailedCellsMarked() async throws {
        let fixtures = try Fixtures()
        let first = try fixtures.redOverBluePNG(name: "one.png")
        let second = try fixtures.animation(as: .gif, name: "two.gif")
        let missing = fixtures.path("three.png")
        let sheet = fixtures.path("sheet.png")
        let result = try await ImagoTool.run([
            "sheet", first, second, missing, "-o", sheet, "--cell", "32", "--columns", "2",
        ])
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasPrefix("\(missing): ") == true)
        let image = try fixtures.decode(sheet)
        #expect(image.format == .png)
        // Tiles are cell + 2 × 4 padding wide and cell + 2 × 4 + 12 (label) tall.
        #expect((image.width, image.height) == (2 * 40, 2 * 52))
        // The first thumbnail (16x8 scaled… never enlarged) is centred in its cell: red above blue.
        #expect(image.raster[4 + 16, 4 + 13] == RGBA(255, 0, 0, 255))
        #expect(image.raster[4 + 16, 4 + 18] == RGBA(0, 0, 255, 255))
        // The failed third cell (row 1, column 0) is crossed by a red X through its centre.
        let centre = image.raster[4 + 16, 52 + 4 + 16]
        #expect(centre.r > 180 && centre.g < 80 && centre.b < 80)
        // Its label is drawn under it in red ink.
        var labelInk = 0
        for y in (52 + 4 + 32)..<(52 + 52) {
            for x in 4..<36 where image.raster[x, y].r > 180 && image.raster[x, y].g < 80 { labelInk += 1 }
        }
        #expect(labelInk > 10)
    }

    @Test func defaultsToUpToFourColumnsOf128() async throws {
        let fixtures = try Fixtures()
        let path = try fixtures.redOverBluePNG()
        let sheet = fixtures.path("sheet.png")
        let result = try await ImagoTool.run(["sheet", path, path, "-o", sheet])
        #expect(result.status == 0, "\(result.stderr)")
        let image = try fixtures.decode(sheet)
        #expect((image.width, image.height) == (2 * 136, 148))
    }

    @Test func aSheetOverThePixelLimitIsRefusedBeforeAllocating() async throws {
        // 1,000 columns of 4,096-pixel cells would be a 4,104,000 x 4,124 canvas: 68 GB of RGBA.
        let fixtures = try Fixtures()
        let path = try fixtures.redOverBluePNG()
        let sheet = fixtures.path("sheet.png")
        let result = try await ImagoTool.run(["sheet", path, "-o", sheet, "--cell", "4096", "--columns", "1000"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.contains("too large") == true, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: sheet))
    }
}
