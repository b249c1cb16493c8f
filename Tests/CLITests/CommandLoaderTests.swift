import Foundation
import Imago
import ImagoTestSupport
import Testing

/// The one-shot commands that look at a source's structure before decoding it (`info`, `show`) read it once.
@Suite struct CommandLoaderTests {
    @Test(arguments: [["info"], ["info", "--json"], ["show"]])
    func aRemoteSourceIsReadOnce(_ command: [String]) async throws {
        let fixtures = try Fixtures()
        let still = try Data(contentsOf: URL(fileURLWithPath: try fixtures.redOverBluePNG(name: "still.png")))
        let animated = try Data(contentsOf: URL(fileURLWithPath: try fixtures.animation(as: .gif, name: "anim.gif")))
        let origin = try CountingOrigin(files: ["still.png": still, "anim.gif": animated])
        for name in ["still.png", "anim.gif"] {
            let result = try await ImagoTool.run(command + [origin.url(name).absoluteString])
            #expect(result.status == 0, "\(command) \(name): \(result.stderr)")
            #expect(try await origin.count(name) == 1, "\(command) \(name)")
        }
    }
}
