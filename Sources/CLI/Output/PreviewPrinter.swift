import Foundation
import Imago
import Synchronization

/// Prints `load --json --previews`'s line for each preview of one source, flushed as it is printed (standard
/// output is written unbuffered), and none once the source's own line is due.
final class PreviewPrinter: Sendable {
    private let source: String
    private let start: ContinuousClock.Instant
    private let isStopped = Mutex(false)

    init(source: String, start: ContinuousClock.Instant) {
        self.source = source
        self.start = start
    }

    func print(_ preview: ImageResponse) {
        let line = JSONOutput.object([
            ("source", .string(source)), ("preview", .bool(true)), ("width", .int(preview.image.width)),
            ("height", .int(preview.image.height)), ("bytes", .int(preview.metrics.byteCount)),
            ("ms", .rounded(Stopwatch.milliseconds(since: start), digits: 3)),
        ]).text
        // Printed under the lock, so no preview line can follow the source's line.
        isStopped.withLock { stopped in if !stopped { Console.print(line) } }
    }

    /// No more lines: the source's final line comes next.
    func stop() { isStopped.withLock { $0 = true } }
}
