import Foundation
import ImagoCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What an HTTP response head tells: status and the metadata the caches and the retry policy use.
package struct HTTPResponseHead {
    package let statusCode: Int
    package let metadata: TransportMetadata

    package init(_ response: HTTPURLResponse, now: Date = Date()) {
        self.init(
            statusCode: response.statusCode, fields: Self.lowercasedFields(of: response), url: response.url, now: now)
    }

    /// A head from its status and its header fields (names lowercased), as read from the wire.
    package init(statusCode: Int, fields: [String: String], url: URL?, now: Date = Date()) {
        self.statusCode = statusCode
        // A compressed body's length is not the length of the bytes handed over after inflating it.
        let encoding = fields["content-encoding"]?.trimmingCharacters(in: .whitespaces).lowercased()
        let isEncoded = encoding.map { !$0.isEmpty && $0 != "identity" } ?? false
        let length = fields["content-length"].flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
        metadata = TransportMetadata(
            statusCode: statusCode,
            expectedLength: isEncoded ? nil : length.flatMap { $0 >= 0 ? $0 : nil },
            contentType: fields["content-type"],
            etag: fields["etag"],
            lastModified: fields["last-modified"],
            cacheControl: fields["cache-control"],
            expires: fields["expires"],
            date: fields["date"],
            retryAfter: fields["retry-after"].flatMap { Self.retryAfterSeconds($0, now: now) },
            finalURL: url)
    }

    /// `404 Not Found`: the status with its standard phrase.
    package var statusReason: String {
        let phrase = HTTPURLResponse.localizedString(forStatusCode: statusCode)
        return phrase.isEmpty ? "HTTP status \(statusCode)" : "\(statusCode) \(phrase)"
    }

    /// The `Location` of a redirect, resolved against the response's URL.
    package static func locationURL(of response: HTTPURLResponse) -> URL? {
        guard let location = lowercasedFields(of: response)["location"] else { return nil }
        return URL(string: location.trimmingCharacters(in: .whitespaces), relativeTo: response.url)?.absoluteURL
    }

    private static func lowercasedFields(of response: HTTPURLResponse) -> [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            guard let name = name as? String, let value = value as? String else { continue }
            fields[name.lowercased()] = value
        }
        return fields
    }

    /// Seconds to wait from a `Retry-After` value: delay seconds, or an HTTP date (0 when already past).
    package static func retryAfterSeconds(_ value: String, now: Date = Date()) -> Double? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) {
            return Double(text)
        }
        guard let date = HTTPDate.parse(text) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
