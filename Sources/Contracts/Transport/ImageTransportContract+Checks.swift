import Foundation
import ImagoCore
import Synchronization

extension ImageTransportContract {
    func declaresSchemes() async throws {
        try contractRequire(!transport.schemes.isEmpty, "schemes is empty")
        let upper = transport.schemes.filter { $0 != $0.lowercased() }
        try contractRequire(upper.isEmpty, "schemes must be lowercase: \(upper.sorted())")
        let url = try await served(Data([1, 2, 3]))
        try contractRequire(transport.serves(url), "does not serve the URL it was given, \(url.absoluteString)")
    }

    func deliversBytes() async throws {
        let payload = Self.payload(payloadSize, seed: 1)
        let url = try await served(payload)
        let received = try await events(of: url, "fetching \(payloadSize) bytes").bodyBytes
        try Self.requireSame(received, payload, "fetching \(payloadSize) bytes")
    }

    func deliversEmptyBody() async throws {
        let url = try await served(Data())
        let received = try await events(of: url, "fetching an empty body").bodyBytes
        try contractRequire(received.isEmpty, "fetching an empty body delivered \(received.count) bytes")
    }

    func sendsResponseFirst() async throws {
        let payload = Self.payload(payloadSize, seed: 2)
        let url = try await served(payload)
        let events = try await events(of: url, "fetching \(payloadSize) bytes")
        let heads = events.compactMap(\.metadata)
        try contractRequire(heads.count == 1, "sent .response \(heads.count) times, expected once")
        guard case .response(let head) = events.first else {
            throw ContractFailure("the first event is .bytes, not .response")
        }
        if let expected = head.expectedLength {
            try contractRequire(
                expected == Int64(payload.count),
                "expectedLength is \(expected), but the body has \(payload.count) bytes")
        }
    }

    func reportsProgress() async throws {
        let payload = Self.payload(payloadSize, seed: 3)
        let url = try await served(payload)
        let reports = Mutex<[FetchProgress]>([])
        do {
            _ = try await transport.fetchAll(TransportRequest(url: url)) { progress in
                reports.withLock { $0.append(progress) }
            }
        } catch {
            throw ContractFailure("fetching \(payloadSize) bytes failed with \(Describe.error(error))")
        }
        let seen = reports.withLock { $0 }
        try contractRequire(!seen.isEmpty, "no progress was reported")
        for (previous, next) in zip(seen, seen.dropFirst()) {
            try contractRequire(
                next.received >= previous.received,
                "progress went back from \(previous.received) to \(next.received) bytes")
        }
        try contractRequire(
            seen.last?.received == Int64(payload.count),
            "progress ended at \(seen.last?.received ?? 0) bytes, the body has \(payload.count)")
        if let expected = seen.compactMap(\.expected).first {
            try contractRequire(
                expected == Int64(payload.count), "progress expected \(expected) bytes, the body has \(payload.count)")
        }
    }

    func refusesOtherSchemes() async throws {
        let url = URL(string: "imago-contract-unknown://example.invalid/image.png")!
        do {
            var count = 0
            for try await event in transport.fetch(TransportRequest(url: url)) { count += event.bodyByteCount }
            throw ContractFailure("fetching \(url.absoluteString) succeeded with \(count) bytes instead of throwing")
        } catch let failure as ContractFailure {
            throw failure
        } catch {
            if let problem = Self.namingProblem(error, url) { throw ContractFailure("fetching \(url): \(problem)") }
            let kind = (error as? ImagoError)?.kind
            try contractRequire(
                kind == .unsupportedScheme || kind == .invalidSource,
                "fetching \(url): threw \(Describe.error(error)), expected unsupportedScheme or invalidSource")
        }
    }

    func failsForMissingSource() async throws {
        let url = missingSource
        do {
            var count = 0
            for try await event in transport.fetch(TransportRequest(url: url)) { count += event.bodyByteCount }
            throw ContractFailure("fetching the missing \(url.absoluteString) succeeded with \(count) bytes")
        } catch let failure as ContractFailure {
            throw failure
        } catch {
            if let problem = Self.namingProblem(error, url) { throw ContractFailure("fetching \(url): \(problem)") }
            try contractRequire(
                (error as? ImagoError)?.kind != .cancelled, "fetching \(url): threw cancelled, though nobody cancelled")
        }
    }

    func fetchesConcurrently() async throws {
        let payloads = (0..<8).map { Self.payload(payloadSize / 4 + $0 * 997, seed: 100 + UInt64($0)) }
        var urls: [URL] = []
        for payload in payloads { urls.append(try await served(payload)) }
        let transport = self.transport
        let sources = urls
        let problems = await withTaskGroup(of: String?.self) { group in
            for round in 0..<2 {
                for (index, url) in sources.enumerated() {
                    group.addTask {
                        do {
                            let fetched = try await transport.fetchAll(TransportRequest(url: url))
                            return fetched.data == payloads[index]
                                ? nil : "fetch \(index) (round \(round)) got other bytes"
                        } catch {
                            return "fetch \(index) (round \(round)) failed: \(Describe.error(error))"
                        }
                    }
                }
            }
            var found: [String] = []
            for await problem in group { if let problem { found.append(problem) } }
            return found
        }
        try contractRequire(problems.isEmpty, "concurrent fetches: \(problems.prefix(3).joined(separator: "; "))")
    }

    static func requireSame(_ received: Data, _ payload: Data, _ what: String) throws {
        guard received != payload else { return }
        let firstDifference = zip(received, payload).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        throw ContractFailure(
            "\(what): received \(received.count) bytes"
                + (firstDifference.map { ", differing from the served ones at offset \($0)" } ?? ", a prefix of them"))
    }
}

extension TransportEvent {
    var metadata: TransportMetadata? {
        if case .response(let head) = self { return head }
        return nil
    }

    var bodyByteCount: Int {
        if case .bytes(let chunk) = self { return chunk.count }
        return 0
    }
}

extension [TransportEvent] {
    var bodyBytes: Data {
        var data = Data()
        for case .bytes(let chunk) in self { data.append(chunk) }
        return data
    }
}
