import Foundation
import Imago

/// A URL grammar: Imago's own, imgproxy's or thumbor's. It reads a path into a source and the one options model
/// (its option table writes typed values into `ProcessingOptions`; one validation runs), checking the grammar's
/// own signature. What follows (source policy, limits, result tiers, rendering, metrics) is the server's one
/// request flow, whatever the grammar.
protocol URLDialect: Sendable {
    /// The grammar's name, for messages and the router (`imgproxy`).
    var name: String { get }

    /// Reads `target` (what follows the grammar's prefix, starting with `/`, query included) at `time`. Throws
    /// typed errors: `OptionError` for an option, `RequestError` for the path, the signature or the expiry (as the
    /// grammar's service answers it: imgproxy's expired URL is not found). Nothing is fetched.
    func request(for target: Substring, time: Date, context: ProcessingOptions.Context) throws -> DialectRequest
}

/// What a grammar asks for: the source as a URL (checked by the source policy later) and the options.
struct DialectRequest: Sendable {
    /// The absolute source URL, decoded.
    var source: String
    /// The options, checked.
    var options: ProcessingOptions
    /// Each option (by its Imago key) as the user wrote it, for messages about the render.
    var spellings: [String: String] = [:]
    /// What the grammar skipped as its service does (thumbor's unknown filters), as written: named in the answer.
    var skipped: [String] = []

    /// The option `key` as the user wrote it, or the key.
    func spelling(of key: String) -> String { spellings[key] ?? key }
}

extension URLDialect {
    /// Longest path segment a dialect reads (an option, a signature, a piece of an encoded source): longer is a 400
    /// before any parsing, far below the 8 KiB target limit.
    static var maxSegmentBytes: Int { 1024 }

    /// Throws a 400 when a `/`-separated segment of `path` is over `maxSegmentBytes`.
    func checkSegments(_ path: Substring) throws {
        for segment in path.split(separator: "/") where segment.utf8.count > Self.maxSegmentBytes {
            throw RequestError(
                .malformedPath, "\(name): a path segment is \(segment.utf8.count) bytes, over \(Self.maxSegmentBytes)")
        }
    }

    /// `target` without its query: imgproxy and thumbor sign and read the path only (a source with a query is
    /// percent-encoded in it).
    func pathOnly(_ target: Substring) -> Substring { target[..<(target.firstIndex(of: "?") ?? target.endIndex)] }
}
