import Foundation
import ImagoTestSupport
import Testing

@testable import ImagoCore

/// The limits the loader imposes on every transport: one deadline over all attempts, the source policy before
/// anything is read, on the URL the transport reports reading, and the normalised URL handed to the transport.
@Suite struct FetchLimitsTests {
    /// Refuses `fake://host/secret…` and `fake://evil/…`; allows connections to nothing private.
    struct Policy: SourceAccessPolicy {
        func check(_ url: URL) throws -> URL {
            let normalised = try SourceURL.normalized(url)
            if normalised.host == "evil" || normalised.path.hasPrefix("/secret") {
                throw ImagoError(.addressRefused, "refused by the test policy", source: url.absoluteString)
            }
            return normalised
        }
        func allowsConnection(to ip: String) -> Bool { !ip.hasPrefix("127.") }
    }

    static func loader(
        _ transport: FakeTransport, settings: LoaderSettings = LoaderSettings(), policy: (any SourceAccessPolicy)? = nil
    ) -> ImageLoader {
        var builder = PluginRegistry.Builder()
        builder.add(transport)
        builder.add(FakeDecoder())
        let registry = builder.build()
        return ImageLoader(registry: registry, settings: settings, sourcePolicy: policy)
    }

    @Test func oneDeadlineBoundsEveryAttemptAndTheWaitsBetweenThem() async throws {
        let transport = FakeTransport()
        let failure = ImagoError(.connectionFailed, "reset")
        transport.serve(
            "/a", FakeTransport.Behavior(data: FakeDecoder.encode(), failures: Array(repeating: failure, count: 20)))
        let settings = LoaderSettings(
            retry: RetryPolicy(maxAttempts: 20, initialDelay: 0.3, multiplier: 2, jitter: 0), fetchTimeout: 1)
        let loader = Self.loader(transport, settings: settings)
        let error = await #expect(throws: ImagoError.self) {
            try await loader.image(for: ImageRequest(url: URL(string: "fake://host/a")!))
        }
        // Without the deadline: 20 attempts over more than a minute of growing waits. With it: attempts at 0, 0.3
        // and 0.9 s, and none whose wait would end past the deadline; fewer when the test process is starved (the
        // count, not the wall clock, is checked, so a stalled run cannot fail it).
        #expect((0...3).contains(transport.callCount), "\(transport.callCount) attempts")
        #expect(error?.attempts == transport.callCount)
        #expect(error?.kind == .connectionFailed || error?.kind == .timedOut)
    }

    @Test func theDeadlineHoldsAgainstATransportThatIgnoresCancellation() async throws {
        let transport = FakeTransport()
        let gate = AsyncGate()
        transport.serve("/stuck", FakeTransport.Behavior(data: FakeDecoder.encode(), gate: gate))
        let loader = Self.loader(transport, settings: LoaderSettings(fetchTimeout: 0.4))
        // The gate opens after 20 s (the transport then answers): only the deadline can make this load fail.
        DispatchQueue.global().asyncAfter(deadline: .now() + 20) { gate.open() }
        let error = await #expect(throws: ImagoError.self) {
            try await loader.image(for: ImageRequest(url: URL(string: "fake://host/stuck")!))
        }
        #expect(error?.kind == .timedOut)
        #expect(error?.reason.contains("fetch deadline") == true, "\(String(describing: error))")
        for request in transport.requests {
            #expect(request.limits.deadline != nil, "the transport is told the deadline")
        }
    }

    @Test func thePolicyRefusesBeforeTheTransportAndSeesEveryReportedHop() async throws {
        let transport = FakeTransport()
        transport.serve("/secret", data: FakeDecoder.encode())
        var moved = FakeTransport.Behavior(data: FakeDecoder.encode())
        moved.metadata.finalURL = URL(string: "fake://evil/x")
        transport.serve("/moved", moved)
        transport.serve("/b", data: FakeDecoder.encode())
        let loader = Self.loader(transport, policy: Policy())
        for path in ["/secret", "/a/../secret", "/%2e%2e/secret"] {
            let error = await #expect(throws: ImagoError.self, "\(path)") {
                try await loader.image(for: ImageRequest(url: URL(string: "fake://host\(path)")!))
            }
            #expect(error?.kind == .addressRefused, "\(path)")
        }
        #expect(transport.callCount == 0, "refused before the transport was asked")
        let error = await #expect(throws: ImagoError.self) {
            try await loader.image(for: ImageRequest(url: URL(string: "fake://host/moved")!))
        }
        #expect(error?.kind == .addressRefused)
        // The normalised URL is what the transport fetches, and the policy travels with it.
        _ = try await loader.image(for: ImageRequest(url: URL(string: "fake://host/x/./../b")!))
        let last = try #require(transport.requests.last)
        #expect(last.url.absoluteString == "fake://host/b")
        #expect(last.limits.policy?.allowsConnection(to: "127.0.0.1") == false)
    }
}

@Suite struct SourceURLTests {
    func normalized(_ text: String) throws -> String { try SourceURL.normalized(URL(string: text)!).absoluteString }

    @Test func removesDotSegmentsIncludingEncodedDots() throws {
        #expect(try normalized("http://h/a/b/../c") == "http://h/a/c")
        #expect(try normalized("http://h/a/%2e%2E/c?q=1") == "http://h/c?q=1")
        #expect(try normalized("http://h/a/./b/.") == "http://h/a/b/")
        #expect(try normalized("http://h/../../x") == "http://h/x")
        #expect(try normalized("http://h/a/..") == "http://h/")
        #expect(try normalized("http://h/a%2Fb/c") == "http://h/a%2Fb/c")  // an encoded slash alone is kept
        #expect(try normalized("http://h") == "http://h")
        #expect(throws: ImagoError.self) { try normalized("http://h/a/..%2Fb") }
        #expect(throws: ImagoError.self) { try normalized("http://h/a/%2e%2e%5cb") }
    }

    @Test func resolvesFileSymlinksAndDecodesPaths() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sourceurl-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("in"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("in/link").path, withDestinationPath: "/etc")
        let real = SourceURL.resolvingSymlinks(folder.path)
        #expect(try normalized("file://\(folder.path)/in/link/hostname") == "file:///etc/hostname")
        #expect(try normalized("file://\(folder.path)/in/%2e%2e/x") == "file://\(real)/x")
        #expect(try normalized("file://\(folder.path)/in/missing/../y.png") == "file://\(real)/in/y.png")
    }
}
