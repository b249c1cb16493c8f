import Foundation

/// HTTP caching (RFC 9111) for a private cache: what a response says about how long its bytes may be reused.
extension CacheMetadata {
    /// The metadata to store with a response's bytes, or `nil` when they must not be stored.
    ///
    /// `nil` for `Cache-Control: no-store` and for statuses other than 2xx (206 included: a part is not the
    /// whole). Freshness comes from `max-age`, else `Expires` (relative to `Date`), minus the response's apparent
    /// age (`now - Date`); `no-cache` makes the bytes stale at once (revalidated before every use). `s-maxage`
    /// concerns shared caches and is ignored; with no freshness information `expires` stays `nil` (revalidate
    /// when there are validators, as `isFresh` says). An invalid `Expires` (such as `0`) means already expired.
    public init?(response: TransportMetadata, now: Date = Date()) {
        if let status = response.statusCode, !(200..<300).contains(status) || status == 206 { return nil }
        let control = CacheControl(parsing: response.cacheControl ?? "")
        if control.noStore { return nil }
        self.init(
            etag: response.etag, lastModified: response.lastModified,
            expires: Self.expiry(of: response, control: control, now: now), storedAt: now,
            contentType: response.contentType)
    }

    /// The metadata after a `304 Not Modified` answered a revalidation: stored again at `now`, with the
    /// validators and freshness the 304 carries, keeping the old ones it does not mention.
    ///
    /// When the 304 has no `Cache-Control` or `Expires`, the entry gets its old freshness lifetime again. A 304
    /// saying `no-store` leaves the entry stale, so it is revalidated next time.
    public func refreshed(by response: TransportMetadata, now: Date = Date()) -> CacheMetadata {
        var refreshed = self
        refreshed.storedAt = now
        if let etag = response.etag { refreshed.etag = etag }
        if let lastModified = response.lastModified { refreshed.lastModified = lastModified }
        if let contentType = response.contentType { refreshed.contentType = contentType }
        let control = CacheControl(parsing: response.cacheControl ?? "")
        if control.noStore {
            refreshed.expires = now
        } else if response.cacheControl != nil || response.expires != nil {
            refreshed.expires = Self.expiry(of: response, control: control, now: now)
        } else if let expires {
            refreshed.expires = now.addingTimeInterval(max(0, expires.timeIntervalSince(storedAt)))
        }
        return refreshed
    }

    private static func expiry(of response: TransportMetadata, control: CacheControl, now: Date) -> Date? {
        if control.noCache { return now }
        let date = response.date.flatMap(HTTPDate.parse)
        let age = date.map { max(0, now.timeIntervalSince($0)) } ?? 0
        if let maxAge = control.maxAge {
            return now.addingTimeInterval(max(0, Double(maxAge) - age))
        }
        guard let expiresHeader = response.expires else { return nil }
        guard let expires = HTTPDate.parse(expiresHeader) else { return now }
        guard let date else { return expires }
        return now.addingTimeInterval(max(0, expires.timeIntervalSince(date) - age))
    }
}

extension TransportRequest {
    /// This request made conditional on a cached entry's validators (`If-None-Match`, `If-Modified-Since`), so the
    /// origin can answer `304 Not Modified` instead of sending the bytes again.
    public func revalidating(_ metadata: CacheMetadata) -> TransportRequest {
        var request = self
        request.ifNoneMatch = metadata.etag
        request.ifModifiedSince = metadata.lastModified
        return request
    }
}

/// The directives of a `Cache-Control` header that matter to a private cache of images.
public struct CacheControl: Sendable, Hashable {
    /// `max-age`, in seconds; an unparsable value reads as 0 (stale), as RFC 9111 asks.
    public var maxAge: Int?
    /// `s-maxage`, in seconds (for shared caches; parsed, not used for freshness here).
    public var sharedMaxAge: Int?
    /// `no-store`: the response must not be stored.
    public var noStore = false
    /// `no-cache`: the response must be revalidated before every use.
    public var noCache = false
    /// `must-revalidate`: once stale, the response must not be served without revalidating (this cache never
    /// serves stale bytes anyway).
    public var mustRevalidate = false

    /// Parses a header such as `public, max-age=3600, must-revalidate`; unknown directives are ignored.
    public init(parsing header: String) {
        for directive in Self.directives(of: header) {
            switch directive.name {
            case "max-age": maxAge = Self.seconds(directive.value)
            case "s-maxage": sharedMaxAge = Self.seconds(directive.value)
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "must-revalidate": mustRevalidate = true
            default: break
            }
        }
    }

    private static func seconds(_ value: String?) -> Int {
        guard let value, !value.isEmpty, value.allSatisfy(\.isASCIIDigitCharacter) else { return 0 }
        // Absurdly large values are clamped (RFC 9111 suggests 2^31 seconds).
        return Int(value.prefix(10)).map { min($0, Int(Int32.max)) } ?? 0
    }

    /// Splits on commas outside quoted strings; names are lowercased, quoted values unquoted.
    private static func directives(of header: String) -> [(name: String, value: String?)] {
        var parts: [String] = []
        var current = ""
        var quoted = false
        for character in header {
            if character == "\"" { quoted.toggle() }
            if character == ",", !quoted {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts.compactMap { part in
            let pieces = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = pieces.first?.lowercased(), !name.isEmpty else { return nil }
            var value = pieces.count > 1 ? pieces[1] : nil
            if let text = value, text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") {
                value = String(text.dropFirst().dropLast())
            }
            return (name, value)
        }
    }
}

/// HTTP dates (RFC 9110 §5.6.7): IMF-fixdate, and the obsolete RFC 850 and asctime forms recipients must accept.
public enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]

    /// Parses `Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94 08:49:37 GMT` or `Sun Nov  6 08:49:37 1994`;
    /// `nil` for anything else.
    public static func parse(_ text: String) -> Date? {
        let tokens = text.split { $0 == " " || $0 == "," || $0 == "-" || $0 == "\t" }.map(String.init)
        var numbers: [(value: Int, digits: Int)] = []
        var month: Int?
        var time: (Int, Int, Int)?
        for token in tokens {
            if token.allSatisfy(\.isASCIIDigitCharacter), token.count <= 4, let value = Int(token) {
                numbers.append((value, token.count))
            } else if token.contains(":") {
                let fields = token.split(separator: ":").compactMap { Int($0) }
                guard fields.count == 3, time == nil else { return nil }
                time = (fields[0], fields[1], fields[2])
            } else if let index = months.firstIndex(of: token.lowercased()) {
                month = index + 1
            } else if !["gmt", "utc", "z", "+0000"].contains(token.lowercased()), !token.allSatisfy(\.isLetter) {
                return nil
            }
        }
        guard let month, let (hour, minute, second) = time, numbers.count == 2 else { return nil }
        let day = numbers[0].value
        var year = numbers[1].value
        if numbers[1].digits == 2 { year += year < 70 ? 2000 : 1900 }
        guard numbers[0].digits <= 2, numbers[1].digits != 1, numbers[1].digits != 3, (1...31).contains(day),
            hour < 24, minute < 60, second < 61
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3600 + minute * 60 + second))
    }

    /// Formats `date` as an IMF-fixdate, for example `Sun, 06 Nov 1994 08:49:37 GMT`.
    public static func string(from date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let clock = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let weekday = weekdays[((days % 7) + 7) % 7]
        return "\(weekday), \(two(day)) \(months[month - 1].capitalized) \(year) "
            + "\(two(clock / 3600)):\(two(clock / 60 % 60)):\(two(clock % 60)) GMT"
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
