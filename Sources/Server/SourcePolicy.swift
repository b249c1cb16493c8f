import Foundation

/// Which sources the server fetches: `allowedSources` prefixes (any http(s) URL when empty; `file:` and `data:`
/// only when a prefix names them), and no loopback, private, link-local, unique-local, unspecified or multicast
/// address unless `allowPrivateAddresses`.
///
/// A literal address (in any form a resolver reads: `127.1`, `0x7f000001`, `[::ffff:127.0.0.1]`) and `localhost`
/// are refused here, before any connection; names are checked on the address they resolve to, and on every
/// redirect, by the transport's connection filter (`allowsConnection(to:)`).
public struct SourcePolicy: Sendable {
    private let patterns: [SourcePattern]
    /// Whether private addresses are allowed.
    public let allowPrivateAddresses: Bool

    /// A policy from the `serve` settings.
    public init(settings: ServeSettings) {
        patterns = settings.allowedSources.compactMap(SourcePattern.init)
        allowPrivateAddresses = settings.allowPrivateAddresses
    }

    /// Throws a 403 when `url` (whose text is `source`) may not be fetched.
    public func check(_ url: URL, source: String) throws {
        let scheme = url.scheme?.lowercased() ?? ""
        if patterns.isEmpty {
            guard scheme == "http" || scheme == "https" else {
                throw ServeFailure(403, "only http and https sources are allowed (\(scheme): is not in allowedSources)")
            }
        } else if !patterns.contains(where: { $0.matches(source) }) {
            throw ServeFailure(403, "the source is not in allowedSources")
        }
        guard scheme == "http" || scheme == "https" else { return }
        guard let host = url.host, !host.isEmpty else { throw ServeFailure(400, "the source URL has no host") }
        if url.user != nil || url.password != nil {
            throw ServeFailure(400, "the source URL carries credentials")
        }
        guard !allowPrivateAddresses else { return }
        var name = host.lowercased()
        while name.hasSuffix(".") { name.removeLast() }
        if name == "localhost" || name.hasSuffix(".localhost") {
            throw ServeFailure(403, "the source's host is loopback (localhost)")
        }
        if let kind = AddressClassifier.classify(host: name), kind != .public {
            throw ServeFailure(403, "the source's address \(host) is \(kind.rawValue)")
        }
    }

    /// Whether the transport may connect to `ip` (numeric, as resolved): the filter for every connection,
    /// redirects included.
    public func allowsConnection(to ip: String) -> Bool {
        AddressClassifier.allows(ip: ip, allowPrivate: allowPrivateAddresses)
    }
}
