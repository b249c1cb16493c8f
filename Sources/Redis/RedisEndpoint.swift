import Foundation

/// Where a Redis server is and how to log in: what a `redis://[[user]:password@]host[:port][/db]` URL says.
public struct RedisEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The host name or address.
    public var host: String
    /// The TCP port (6379 by default).
    public var port: Int
    /// The ACL user (Redis 6+), if the URL names one; `AUTH password` is sent without it.
    public var user: String?
    /// The password, if any.
    public var password: String?
    /// The database number (`SELECT`), 0 by default.
    public var database: Int

    /// Creates an endpoint.
    public init(host: String, port: Int = 6379, user: String? = nil, password: String? = nil, database: Int = 0) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
    }

    /// Parses `redis://[[user]:password@]host[:port][/db]`; throws `invalidConfiguration` naming `path`.
    public init(url text: String, path: String = "url") throws {
        func fail(_ reason: String) -> ImagoError {
            ConfigReader.error(path, "\(reason) (expected redis://[:password@]host:port/db)")
        }
        guard let components = URLComponents(string: text), components.scheme?.lowercased() == "redis" else {
            throw fail("not a redis:// URL")
        }
        guard let host = components.host, !host.isEmpty else { throw fail("no host") }
        let port = components.port ?? 6379
        guard (1...65535).contains(port) else { throw fail("port \(port) out of range") }
        let databaseText = components.path.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        let database = databaseText.isEmpty ? 0 : Int(databaseText)
        guard let database, database >= 0 else { throw fail("database \"\(databaseText)\" is not a number") }
        guard components.query == nil, components.fragment == nil else { throw fail("unexpected query or fragment") }
        let user = components.user.flatMap { $0.isEmpty ? nil : $0.removingPercentEncoding ?? $0 }
        let password = components.password.map { $0.removingPercentEncoding ?? $0 }
        self.init(host: host, port: port, user: user, password: password, database: database)
    }

    /// The URL with the password hidden, for messages.
    public var description: String {
        let login = password == nil ? (user.map { "\($0)@" } ?? "") : "\(user ?? ""):***@"
        return "redis://\(login)\(host):\(port)/\(database)"
    }
}
