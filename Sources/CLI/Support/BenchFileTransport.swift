import Foundation
import Imago

/// Serves local files with HTTP semantics (a 200 status) under its own scheme, for `bench pipeline`.
///
/// The loader keeps in the disk cache only what a transport's `cachePolicy` allows (the file transport has none:
/// local files are at hand already), so the benchmark reads its files through this transport, which keeps them by
/// the HTTP rules, to measure real disk-cache hits.
struct BenchFileTransport: ImageTransport {
    static let scheme = "imago-bench"

    var schemes: Set<String> { [Self.scheme] }
    var cachePolicy: (any TransportCachePolicy)? { HTTPCachePolicy() }

    /// The URL under which `path` is served.
    static func url(for path: String) throws -> URL {
        var components = URLComponents()
        components.scheme = scheme
        components.host = "localhost"
        components.path = URL(fileURLWithPath: path).standardizedFileURL.path
        guard let url = components.url else {
            throw ImagoError(.invalidSource, "invalid source: not a file path", source: path)
        }
        return url
    }

    func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        AsyncThrowingStream { continuation in
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: request.url.path))
                continuation.yield(.response(TransportMetadata(statusCode: 200, expectedLength: Int64(data.count))))
                continuation.yield(.bytes(data))
                continuation.finish()
            } catch {
                continuation.finish(
                    throwing: ImagoError(
                        .invalidSource, "cannot read the file", source: request.url.path))
            }
        }
    }
}
