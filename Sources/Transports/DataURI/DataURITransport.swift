import Foundation
import ImagoCore

/// Serves `data:` URIs (RFC 2397): base64 or percent-encoded payloads, with their media type as content type.
public struct DataURITransport: ImageTransport {
    /// The settings this transport was made with.
    public let configuration: Configuration

    /// Creates a transport.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// `data`.
    public var schemes: Set<String> { ["data"] }

    /// Decodes the URI: `.response` with the media type and length, then the bytes in chunks.
    public func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        let reader = DataURIReader(
            source: request.url.absoluteString, maxBytes: min(configuration.maxBytes, request.limits.maxBytes))
        return AsyncThrowingStream(unfolding: { try reader.next() })
    }

    /// Large payloads are handed over in pieces of this size, like the other transports' chunks.
    static let chunkSize = 1024 * 1024
}

extension DataURITransport {
    /// Settings of a `data:` transport.
    public struct Configuration: Sendable, Hashable {
        /// Largest decoded payload, in bytes; checked before decoding.
        public var maxBytes: Int

        /// The defaults: 50 MB.
        public init(maxBytes: Int = 50 * 1024 * 1024) {
            self.maxBytes = maxBytes
        }

        /// Reads the settings of a configuration file; absent keys keep their defaults.
        public init(reading reader: ConfigReader) throws {
            self.init(maxBytes: try reader.int("maxBytes", default: Configuration().maxBytes, in: 1...Int.max))
        }

        /// Every setting with its value, as a configuration file spells it.
        public var settings: JSONValue {
            .object(["maxBytes": .number(Double(maxBytes))])
        }
    }

    /// The `data` factory: builds a transport from a configuration's settings (see `Configuration`).
    public static let factory = PluginFactory<any ImageTransport>(
        name: "data", defaultSettings: Configuration().settings
    ) { reader in
        DataURITransport(configuration: try Configuration(reading: reader))
    }
}
