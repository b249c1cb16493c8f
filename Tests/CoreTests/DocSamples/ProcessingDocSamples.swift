import Foundation
import ImagoCore
import Testing

// The Swift sample of Docs/Processing.md, verbatim (DocSamplesTests checks it is here), run.

@Test func theProcessingSampleBuildsItsProcessorsInOrder() throws {
    let url = URL(string: "https://example.com/photo.jpg")!
    let request = ImageRequest(
        url: url,
        processors: [
            try TrimProcessor(threshold: 10),
            CropProcessor(
                region: CropRegion(x: .fraction(0.1), y: .fraction(0.1), width: .fraction(0.8), height: .fraction(0.8))),
            ResizeProcessor(width: 300, height: 300, mode: .fill, gravity: .smart),
            try BlurProcessor(sigma: 2),
        ])
    #expect(request.processors.map(\.identifier).count == 4)
    #expect(request.processors.last?.identifier == "blur(2.0)")
}
