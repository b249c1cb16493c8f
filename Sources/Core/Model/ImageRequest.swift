import Foundation

/// How urgently a request is wanted: a visible image before a prefetch.
public enum ImagePriority: Int, Sendable, Hashable, Comparable, Codable, CaseIterable {
    case veryLow = 0, low, normal, high, veryHigh

    public static func < (lhs: ImagePriority, rhs: ImagePriority) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Which caches a request may read and write.
public struct CachePolicy: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// May be served from the memory cache.
    public static let readMemory = CachePolicy(rawValue: 1 << 0)
    /// Stores its result in the memory cache.
    public static let writeMemory = CachePolicy(rawValue: 1 << 1)
    /// May be served from the disk cache.
    public static let readDisk = CachePolicy(rawValue: 1 << 2)
    /// Stores its bytes in the disk cache.
    public static let writeDisk = CachePolicy(rawValue: 1 << 3)

    /// Read and write both caches (the default).
    public static let `default`: CachePolicy = [.readMemory, .writeMemory, .readDisk, .writeDisk]
    /// Skip both caches when reading, but refresh them with the result.
    public static let reload: CachePolicy = [.writeMemory, .writeDisk]
    /// Touch no cache at all.
    public static let none: CachePolicy = []
}

/// A request for one image: where it is, what to do to it, and how.
///
/// Two requests are equal when every field is; processors compare by `identifier`.
public struct ImageRequest: Sendable, Hashable {
    /// The source: `http`, `https`, `file`, `data`, or any scheme a plugin serves.
    public var url: URL
    /// Processors applied in order after decoding (and after orientation, when it is applied).
    public var processors: [any ImageProcessor]
    /// How urgently the image is wanted.
    public var priority: ImagePriority
    /// Which caches the request may use.
    public var cachePolicy: CachePolicy
    /// Decoding options: target size for reduced-scale decoding, frames, limits.
    public var decodeOptions: DecodeOptions
    /// Whether the EXIF orientation is applied to the pixels (the default), so the image is upright.
    public var appliesOrientation: Bool
    /// Pixels per point for display (2 for @2x images).
    public var scale: Double
    /// Extra request headers for transports that have headers (HTTP), for example `Authorization`.
    ///
    /// Credentials (`Authorization`, `Proxy-Authorization`, `Cookie`) are part of both cache keys, so different
    /// credentials never share an entry and a request without them is never answered with what was fetched with
    /// them; other headers do not split the caches.
    public var headers: [String: String]
    /// The key that names the source in both caches instead of the URL (for example `"avatar:42"` for a URL
    /// with a changing signature); `nil` uses the URL. Processing and credentials are still added.
    public var cacheKey: String?

    /// Creates a request.
    public init(
        url: URL, processors: [any ImageProcessor] = [], priority: ImagePriority = .normal,
        cachePolicy: CachePolicy = .default, decodeOptions: DecodeOptions = .default,
        appliesOrientation: Bool = true, scale: Double = 1, headers: [String: String] = [:], cacheKey: String? = nil
    ) {
        self.url = url
        self.processors = processors
        self.priority = priority
        self.cachePolicy = cachePolicy
        self.decodeOptions = decodeOptions
        self.appliesOrientation = appliesOrientation
        self.scale = scale
        self.headers = headers
        self.cacheKey = cacheKey
    }

    /// A request for a URL string or a plain path; throws `invalidSource` when it is neither.
    public init(source: String) throws {
        self.init(url: try ImageRequest.url(from: source))
    }

    /// The string that names the source in keys and messages.
    public var sourceString: String { url.absoluteString }

    /// Key of the encoded bytes: the source (or `cacheKey`) and the credentials, so requests that differ only in
    /// processing share them.
    public var dataCacheKey: CacheKey { CacheKey(sourceKey) }

    /// Key of the finished image: the source (or `cacheKey`), the credentials, and every option that changes the
    /// pixels.
    public var imageCacheKey: CacheKey {
        var key = sourceKey
        let decode = decodeOptions.cacheKeyComponent
        if !decode.isEmpty { key += "|decode:" + decode }
        if !appliesOrientation { key += "|orientation:stored" }
        if scale != 1 { key += "|scale:\(scale)" }
        for processor in processors { key += "|" + processor.identifier }
        return CacheKey(key)
    }

    /// The headers that identify a user, compared case-insensitively.
    public static let credentialHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie"]

    /// The source part of both keys: the source or `cacheKey`, then a digest of the credentials, if any (the
    /// credentials themselves never appear in a key).
    private var sourceKey: String {
        let base = cacheKey ?? sourceString
        let credentials = self.credentials
        guard !credentials.isEmpty else { return base }
        let digest = SHA256.hex(Array(credentials.joined(separator: "\n").utf8))
        return base + "|credentials:" + digest.prefix(32)
    }

    /// The credential headers, `name:value` with the name lowercased, sorted.
    var credentials: [String] {
        headers.compactMap { name, value -> String? in
            let name = name.lowercased()
            return Self.credentialHeaders.contains(name) ? "\(name):\(value)" : nil
        }.sorted()
    }

    public static func == (lhs: ImageRequest, rhs: ImageRequest) -> Bool {
        lhs.url == rhs.url && lhs.processors.map(\.identifier) == rhs.processors.map(\.identifier)
            && lhs.priority == rhs.priority && lhs.cachePolicy == rhs.cachePolicy
            && lhs.decodeOptions == rhs.decodeOptions && lhs.appliesOrientation == rhs.appliesOrientation
            && lhs.scale == rhs.scale && lhs.headers == rhs.headers && lhs.cacheKey == rhs.cacheKey
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(url)
        hasher.combine(processors.map(\.identifier))
        hasher.combine(priority)
        hasher.combine(cachePolicy)
        hasher.combine(decodeOptions)
        hasher.combine(appliesOrientation)
        hasher.combine(scale)
        hasher.combine(headers)
        hasher.combine(cacheKey)
    }

    /// Parses a URL string or a plain file path. Control characters are refused before anything is sent.
    public static func url(from source: String) throws -> URL {
        if source.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw ImagoError(
                .invalidSource, "invalid source: the URL contains control characters",
                source: source.debugDescription)
        }
        guard !source.isEmpty else { throw ImagoError(.invalidSource, "invalid source: empty") }
        if let colon = source.firstIndex(of: ":"), source[..<colon].count > 1,
            source[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) })
        {
            guard let url = URL(string: source) ?? URL(string: Self.percentEncodingSpaces(source)) else {
                throw ImagoError(.invalidSource, "invalid source: not a URL", source: source)
            }
            return url
        }
        return URL(fileURLWithPath: source)
    }

    private static func percentEncodingSpaces(_ source: String) -> String {
        source.replacingOccurrences(of: " ", with: "%20")
    }
}
