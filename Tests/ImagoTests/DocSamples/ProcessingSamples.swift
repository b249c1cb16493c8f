import Foundation
import Imago
import Testing

// The Swift sample of Docs/Processing.md, verbatim (DocSamplesTests checks it is here), and a test that the two
// requests it builds run the same processors.

/// Docs/Processing.md, the processors and the grammar.
func processingSample(url: URL) throws -> (ImageRequest, ImageRequest) {
    let middle = CropRegion(x: .fraction(0.1), y: .fraction(0.1), width: .fraction(0.8), height: .fraction(0.8))
    let request = ImageRequest(
        url: url,
        processors: [
            try TrimProcessor(threshold: 10),
            CropProcessor(region: middle),
            ResizeProcessor(width: 300, height: 300, mode: .fill, gravity: .smart),
            try BlurProcessor(sigma: 2),
        ])
    // The same, in the grammar `imago serve` URLs, `--ops` and string presets share:
    let options = try ProcessingOptions(parsing: "trim=10,crop=0.1:0.1:0.8:0.8,w=300,h=300,fit=cover,g=sm,blur=2")
    let same = ImageRequest(url: url, processors: try options.processors())
    return (request, same)
}

@Suite struct ProcessingSampleTests {
    @Test func theGrammarBuildsTheSameProcessors() throws {
        let (request, same) = try processingSample(url: URL(fileURLWithPath: "/tmp/photo.jpg"))
        #expect(request.processors.map(\.identifier) == same.processors.map(\.identifier))
    }
}
