import Foundation
import Imago

/// A foreign URL grammar (imgproxy's, thumbor's): reads a path into a source and Imago's own options, checking
/// the grammar's own signature. What follows (source policy, limits, result cache, rendering, metrics) is the
/// server's one request flow, the same as for Imago's own URLs.
protocol URLDialect: Sendable {
    /// The grammar's name, for messages (`imgproxy`).
    var name: String { get }

    /// Reads `path` (what follows the grammar's prefix, starting with `/`) at `time`; a malformed path or option is
    /// a 400, a bad signature a 403, and the grammar's own statuses (imgproxy's 404 for an expired URL) as it
    /// documents them. Nothing is fetched.
    func request(for path: Substring, time: Date, context: ProcessingOptions.Context) throws -> DialectRequest
}

/// What a dialect asks for: the source as a URL (checked by the source policy later) and the options.
struct DialectRequest: Sendable {
    /// The absolute source URL, decoded.
    var source: String
    /// The options, in Imago's own grammar.
    var options: ProcessingOptions
}

extension URLDialect {
    /// Longest path segment a dialect reads (an option, a signature, a piece of an encoded source): longer is a 400
    /// before any parsing, far below the 8 KiB target limit.
    static var maxSegmentBytes: Int { 1024 }

    /// Throws a 400 when a `/`-separated segment of `path` is over `maxSegmentBytes`.
    func checkSegments(_ path: Substring) throws {
        for segment in path.split(separator: "/") where segment.utf8.count > Self.maxSegmentBytes {
            throw ServeFailure(
                400, "\(name): a path segment is \(segment.utf8.count) bytes, over \(Self.maxSegmentBytes)")
        }
    }

    /// Imago-grammar `items` (`key` → value) parsed by the one options table; an error names `what` and the
    /// dialect.
    func options(_ items: [(key: String, value: String)], context: ProcessingOptions.Context) throws
        -> ProcessingOptions
    {
        let text = items.isEmpty ? "-" : items.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        do {
            return try ProcessingOptions(parsing: text, context: context)
        } catch let error as OptionError {
            throw ServeFailure(400, "\(name): \(error.message)")
        }
    }
}
