import Imago

/// A `HOST:PORT` to listen on: a numeric IPv4 address, `[IPv6]`, or `localhost` (127.0.0.1).
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// The numeric address bound.
    public var host: String
    /// The port; 0 picks a free one.
    public var port: Int

    /// Parses `text`; errors name `path` (`serve.listen`, `--listen`).
    public init(parsing text: String, path: String = "listen") throws {
        // A bare port is refused rather than guessed (all interfaces or loopback?): the hint gives the loopback form.
        let barePort = !text.isEmpty && text.utf8.allSatisfy { $0 >= 48 && $0 <= 57 }
        let example = barePort ? "127.0.0.1:\(text)" : "127.0.0.1:8080"
        let invalid = ConfigReader.error(path, "\"\(text)\" is not HOST:PORT (for example \(example))")
        guard let colon = text.lastIndex(of: ":"), case let digits = text[text.index(after: colon)...],
            (1...5).contains(digits.count), digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let port = Int(digits),
            (0...65_535).contains(port)
        else { throw invalid }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
            guard AddressClassifier.ipv6Bytes(host) != nil else { throw invalid }
        } else if host == "localhost" {
            host = "127.0.0.1"
        } else {
            guard host.split(separator: ".").count == 4, AddressClassifier.ipv4Bytes(host) != nil else {
                // A name (or anything else that is no address): the port was fine, the host is what is wrong.
                throw ConfigReader.error(
                    path,
                    "\"\(host)\" is not a numeric address: write an IPv4 address, [IPv6] or localhost (names are "
                        + "not resolved), for example \(example)")
            }
        }
        self.host = host
        self.port = port
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
