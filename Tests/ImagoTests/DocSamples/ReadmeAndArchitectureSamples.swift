import Foundation
import Imago
import Testing

// The Swift samples of README.md and Docs/Architecture.md, verbatim (DocSamplesTests checks they are here). They
// name example.com and imago.json, so they are compiled, not run: ReadmeExampleTests runs the same calls on local
// files.

/// README.md, "Using the library".
func readmeLibrarySample() async throws {
    let loader = ImageLoader.standard()  // every built-in transport, codec and cache
    let request = ImageRequest(
        url: URL(string: "https://example.com/photo.jpg")!,
        processors: [ResizeProcessor(size: PixelSize(width: 300, height: 300), mode: .fill)])
    let response = try await loader.image(for: request)
    print(response.image.width, response.image.height, response.origin)  // 300 300 network
}

/// README.md, from a configuration file.
func readmeConfigurationSample() throws -> ImageLoader {
    let loader = try ImageLoader(contentsOf: URL(fileURLWithPath: "imago.json"))
    return loader
}

/// Docs/Architecture.md, events.
func architectureEventsSample() -> ImageLoader {
    let log = ImageLoadEventClosure { event in
        switch event.kind {
        case .fetchEnded(let attempt):
            print(event.request.url, attempt.attempt, attempt.error?.kind.name ?? "ok", attempt.retryDelay ?? 0)
        case .decoded(let decode):
            print(decode.format, decode.size, "queued", decode.timing.queued, "took", decode.timing.duration)
        case .cacheWriteFailed(let layer, let error):
            print("cannot write the \(layer) cache:", error)
        default:
            break
        }
    }
    let loader = ImageLoader(registry: .standard(), eventListeners: [log])
    return loader
}

@Test func theArchitectureEventsSampleMakesALoaderThatListens() {
    #expect(architectureEventsSample().eventListeners.count == 1)
}
