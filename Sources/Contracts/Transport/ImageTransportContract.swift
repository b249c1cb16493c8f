import Foundation
import ImagoCore

/// The promises of an `ImageTransport`, checked by fetching bytes the author makes available.
///
/// ```swift
/// @Test func memoryTransportKeepsItsContract() async {
///     let transport = MemoryTransport()
///     let contract = ImageTransportContract(
///         transport: transport, serve: { transport.put($0) }, missingSource: URL(string: "mem://store/missing")!)
///     let report = await contract.run()
///     #expect(report.passed, "\(report)")
/// }
/// ```
public struct ImageTransportContract: PluginContract {
    /// The checks, by name.
    public enum Check: String, CaseIterable, Sendable {
        case declaresSchemes = "declares its schemes in lowercase and serves them"
        case deliversBytes = "delivers the bytes complete and in order"
        case deliversEmptyBody = "delivers an empty body as no bytes"
        case sendsResponseFirst = "sends .response once, before any bytes"
        case reportsProgress = "reports monotonic progress that ends at the length"
        case refusesOtherSchemes = "refuses other schemes with unsupportedScheme or invalidSource"
        case failsForMissingSource = "fails for a missing source with an ImagoError naming it"
        case stopsWhenCancelled = "stops promptly when cancelled"
        case fetchesConcurrently = "delivers the right bytes to concurrent fetches"
    }

    let transport: any ImageTransport
    let serve: @Sendable (Data) async throws -> URL
    let missingSource: URL
    let payloadSize: Int
    let cancellationPayloadSize: Int
    let cancellationDeadline: Double
    let producedBytes: (@Sendable (URL) async -> Int)?

    /// Creates the contract.
    ///
    /// - Parameters:
    ///   - transport: the transport under test.
    ///   - serve: makes bytes available at a URL the transport serves (writes a file, starts serving them from a
    ///     local server, stores them in memory, builds a `data:` URI…) and returns that URL.
    ///   - missingSource: a URL of the transport's scheme where nothing is served.
    ///   - payloadSize: bytes served for the ordinary checks.
    ///   - cancellationPayloadSize: bytes served for the cancellation check (large, so the fetch is still busy).
    ///   - cancellationDeadline: seconds a cancelled fetch may take to end (a hang detector, not a speed test).
    ///   - producedBytes: how many bytes of the source at a URL the transport has taken so far, as the serving side
    ///     sees them (a test server's bytes sent, a store's chunks handed out). Given, the cancellation check also
    ///     watches the producer: once the consumer has left, production must stop, not run on unseen to the end.
    ///     Serve the cancellation payload slowly enough (a second or more) for a runaway producer to show.
    public init(
        transport: any ImageTransport, serve: @escaping @Sendable (Data) async throws -> URL, missingSource: URL,
        payloadSize: Int = 256 * 1024, cancellationPayloadSize: Int = 8 * 1024 * 1024,
        cancellationDeadline: Double = 10,
        producedBytes: (@Sendable (URL) async -> Int)? = nil
    ) {
        self.producedBytes = producedBytes
        self.transport = transport
        self.serve = serve
        self.missingSource = missingSource
        self.payloadSize = payloadSize
        self.cancellationPayloadSize = cancellationPayloadSize
        self.cancellationDeadline = cancellationDeadline
    }

    public var title: String { "ImageTransport contract (\(transport.schemes.sorted().joined(separator: ", ")))" }

    public var checks: [ContractCheck] {
        [
            check(.declaresSchemes) { try await $0.declaresSchemes() },
            check(.deliversBytes) { try await $0.deliversBytes() },
            check(.deliversEmptyBody) { try await $0.deliversEmptyBody() },
            check(.sendsResponseFirst) { try await $0.sendsResponseFirst() },
            check(.reportsProgress) { try await $0.reportsProgress() },
            check(.refusesOtherSchemes) { try await $0.refusesOtherSchemes() },
            check(.failsForMissingSource) { try await $0.failsForMissingSource() },
            check(.stopsWhenCancelled) { try await $0.stopsWhenCancelled() },
            check(.fetchesConcurrently) { try await $0.fetchesConcurrently() },
        ]
    }

    private func check(_ name: Check, _ body: @escaping @Sendable (Self) async throws -> Void) -> ContractCheck {
        ContractCheck(name.rawValue) { try await body(self) }
    }

    /// Serves `data`, turning the author's errors into a failure that says so.
    func served(_ data: Data) async throws -> URL {
        do {
            return try await serve(data)
        } catch {
            throw ContractFailure("the serve closure failed for \(data.count) bytes: \(error)")
        }
    }

    /// Every event of a fetch; a thrown error becomes a failure naming the step.
    func events(of url: URL, _ what: String) async throws -> [TransportEvent] {
        var events: [TransportEvent] = []
        do {
            for try await event in transport.fetch(TransportRequest(url: url)) { events.append(event) }
        } catch {
            throw ContractFailure("\(what): fetch failed with \(Describe.error(error))")
        }
        return events
    }

    /// Bytes that differ at every offset, so reordered or repeated chunks show.
    static func payload(_ count: Int, seed: UInt64) -> Data { Data(SeededGenerator(seed: seed).bytesCopy(count)) }

    /// Why `error` is not an `ImagoError` naming `url`, or `nil` when it is.
    static func namingProblem(_ error: any Error, _ url: URL) -> String? {
        guard let error = error as? ImagoError else { return "threw \(Describe.error(error))" }
        guard let source = error.source, !source.isEmpty else {
            return "threw \(Describe.error(error)) without naming the source"
        }
        let absolute = url.absoluteString
        if absolute.contains(source) || source.contains(absolute) || source == url.path { return nil }
        return "threw \(Describe.error(error)) naming \"\(source)\" instead of \(absolute)"
    }
}

extension SeededGenerator {
    /// `count` bytes of noise without consuming the generator.
    fileprivate func bytesCopy(_ count: Int) -> [UInt8] {
        var copy = self
        return copy.bytes(count)
    }
}
