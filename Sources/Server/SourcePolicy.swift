import Foundation
import Imago

/// Which sources the server fetches: `allowedSources` prefixes (any http(s) URL when empty; `file:`, `data:` and
/// `s3:` only when a prefix names them), and no loopback, private, link-local, unique-local, unspecified or multicast
/// address unless `allowPrivateAddresses`.
///
/// Prefixes are matched on the normalised source (`SourceURL.normalized`: dot segments removed, `%2e` counted as a
/// dot, a file's symlinks resolved), and the normalised source is what is fetched, so no spelling of a path leaves
/// the prefix it was allowed by. The loader applies the same policy to every transport: the source before anything is
/// read, every redirect's target, and every address a transport connects to (`allowsConnection(to:)`). A literal
/// address (in any form a resolver reads: `127.1`, `0x7f000001`, `[::ffff:127.0.0.1]`) and `localhost` are refused
/// here, before any connection; names are checked on the address they resolve to.
public struct SourcePolicy: SourceAccessPolicy {
    private let patterns: [SourcePattern]
    /// Whether private addresses are allowed.
    public let allowPrivateAddresses: Bool

    /// A policy from the `serve` settings.
    public init(settings: ServeSettings) {
        patterns = settings.allowedSources.compactMap(SourcePattern.init)
        allowPrivateAddresses = settings.allowPrivateAddresses
    }

    /// The normalised URL to fetch for `url`; throws `addressRefused` (403) when it may not be fetched and
    /// `invalidSource` (400) when it is malformed.
    public func check(_ url: URL) throws -> URL {
        let source = url.absoluteString
        let scheme = url.scheme?.lowercased() ?? ""
        if scheme == "s3" { return try checkObject(url) }
        let normalised = try SourceURL.normalized(url)
        if patterns.isEmpty {
            guard scheme == "http" || scheme == "https" else {
                throw ImagoError(
                    .addressRefused, "only http and https sources are allowed (\(scheme): is not in allowedSources)",
                    source: source)
            }
        } else if !patterns.contains(where: { $0.matches(normalised.absoluteString) }) {
            throw ImagoError(.addressRefused, "the source is not in allowedSources", source: source)
        }
        guard scheme == "http" || scheme == "https" else { return normalised }
        guard let host = url.host, !host.isEmpty else {
            throw ImagoError(.invalidSource, "the source URL has no host", source: source)
        }
        if url.user != nil || url.password != nil {
            throw ImagoError(.invalidSource, "the source URL carries credentials", source: source)
        }
        guard !allowPrivateAddresses else { return normalised }
        var name = host.lowercased()
        while name.hasSuffix(".") { name.removeLast() }
        if name == "localhost" || name.hasSuffix(".localhost") {
            throw ImagoError(.addressRefused, "the source's host is loopback (localhost)", source: source)
        }
        if let kind = AddressClassifier.classify(host: name), kind != .public {
            throw ImagoError(.addressRefused, "the source's address \(host) is \(kind.rawValue)", source: source)
        }
        return normalised
    }

    /// An `s3://` source, allowed only by an `s3://bucket/prefix` pattern, matched on the decoded key (`..`
    /// segments, empty keys and bad bucket names are refused as `invalidSource`); the store's endpoint is the
    /// operator's, so no address check applies. Returns the source with its key encoded as S3 expects.
    private func checkObject(_ url: URL) throws -> URL {
        let location = try S3Location(url: url)
        guard patterns.contains(where: { $0.matches("s3://\(location.bucket)/\(location.key)") }),
            let canonical = URL(string: location.description)
        else {
            throw ImagoError(.addressRefused, "the source is not in allowedSources", source: url.absoluteString)
        }
        return canonical
    }

    /// Whether a transport may connect to `ip` (numeric, as resolved): the filter for every connection,
    /// redirects included.
    public func allowsConnection(to ip: String) -> Bool {
        AddressClassifier.allows(ip: ip, allowPrivate: allowPrivateAddresses)
    }
}
