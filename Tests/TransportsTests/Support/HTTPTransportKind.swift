import ImagoCore
import ImagoTransports
import Testing

/// The two HTTP(S) transports every HTTP test runs against: the same settings, the same promises.
enum HTTPTransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession
    case curl

    var testDescription: String { rawValue }

    /// A transport of this kind with `configuration`'s settings.
    func make(_ configuration: HTTPTransport.Configuration = .init()) -> any ImageTransport {
        switch self {
        case .urlSession:
            return HTTPTransport(configuration: configuration)
        case .curl:
            return CurlTransport(
                configuration: .init(
                    idleTimeout: configuration.idleTimeout, totalDeadline: configuration.totalDeadline,
                    maxBytes: configuration.maxBytes, maxRedirects: configuration.maxRedirects,
                    userAgent: configuration.userAgent, headers: configuration.headers,
                    maxConnectionsPerHost: configuration.maxConnectionsPerHost))
        }
    }
}
