import Foundation
import Imago

/// How one source's load ended.
struct LoadOutcome: Sendable {
    let source: String
    let result: Result<ImageResponse, ImagoError>
    /// Transport fetches made, for failures too (0 when served from a cache).
    let attempts: Int
    let milliseconds: Double

    var error: ImagoError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    /// `memory`, the data cache layer that answered (`disk`, `redis`) or `network` for a loaded image; `none` for
    /// a failure.
    var cache: String {
        switch result {
        case .success(let response) where response.origin == .dataCache: response.cacheLayer ?? "data"
        case .success(let response): response.origin.rawValue
        case .failure: "none"
        }
    }
}

/// Loads one source through the loader under its deadline, and writes the result into the output folder.
struct LoadJob: Sendable {
    let setup: LoadSetup
    let options: LoadOptions
    let writer: OutputWriter?

    /// Loads `source`; `outputName` is its file name (without extension) in the output folder. `fileSize` is the
    /// source's size when already known (the batch reads the sizes ahead), else it is read here.
    func run(_ source: String, outputName: String?, fileSize: Int? = nil) async -> LoadOutcome {
        let start = ContinuousClock.now
        do {
            let request = try options.request(for: source, preset: setup.preset)
            let loader = setup.loader
            let writer = self.writer
            let previews = options.previews ? PreviewPrinter(source: source, start: start) : nil
            defer { previews?.stop() }
            // Files wait for room among the encoded bytes in flight first, so a high --concurrency does not read
            // every file while the decodes wait for memory.
            let url = request.url
            let size: Int
            if let fileSize {
                size = fileSize
            } else {
                size = await WorkExecutor.io.runToCompletion { Self.fileSize(of: url) }
            }
            let input = try await setup.inputBudget.reserve(bytes: size)
            defer { input.release() }
            // The decoded image keeps its share of the loader's pixel budget until it is written, so the images
            // waiting to be encoded stay within the budget whatever --concurrency says.
            let response = try await PixelMemoryBudget.holdingHandedOverImages {
                let response = try await Self.withDeadline(options.timeout) {
                    guard let previews else { return try await loader.image(for: request) }
                    return try await loader.image(for: request, previews: PreviewPolicy()) { previews.print($0) }
                }
                previews?.stop()
                input.release()  // decoded: the file's bytes are gone
                if let writer, let outputName {
                    let image = response.image
                    try await WorkExecutor.compute.run { try writer.write(image, name: outputName) }
                }
                return response
            }
            return LoadOutcome(
                source: source, result: .success(response), attempts: response.attempts,
                milliseconds: Stopwatch.milliseconds(since: start))
        } catch {
            let error = CommandLoader.named(error, source)
            return LoadOutcome(
                source: source, result: .failure(error), attempts: error.attempts,
                milliseconds: Stopwatch.milliseconds(since: start))
        }
    }

    /// A source given again: served by the loader again (a memory hit unless caching is off); a failure is not
    /// retried.
    func repeatOf(_ first: LoadOutcome) async -> LoadOutcome {
        guard case .success = first.result else {
            return LoadOutcome(source: first.source, result: first.result, attempts: 0, milliseconds: 0)
        }
        return await run(first.source, outputName: nil)
    }

    /// The size of a local file source (0 for other sources, whose size is not known before the fetch).
    static func fileSize(of url: URL) -> Int {
        // stat(2) alone: FileManager's attributes also look up the owner's and group's names, reading
        // /etc/passwd and /etc/group for every file.
        var info = stat()
        guard url.isFileURL, stat(url.path, &info) == 0 else { return 0 }
        return Int(info.st_size)
    }

    /// Runs `body`, throwing `timedOut` when it takes longer than `seconds` (and cancelling it).
    static func withDeadline<T: Sendable>(_ seconds: Double?, _ body: @escaping @Sendable () async throws -> T)
        async throws -> T
    {
        guard let seconds else { return try await body() }
        return try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                throw ImagoError(.timedOut, "timed out after \(ByteFormat.seconds(seconds)) s")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }
}
