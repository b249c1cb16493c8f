import Foundation
import ImagoTestSupport
import Testing

@testable import ImagoCore

@Suite struct RetryPolicyTests {
    @Test(arguments: [
        (ImagoError.Kind.connectionFailed, true), (.transportFailed(status: 408), true),
        (.transportFailed(status: 429), true), (.transportFailed(status: 500), true),
        (.transportFailed(status: 502), true), (.transportFailed(status: 503), true),
        (.transportFailed(status: 504), true), (.timedOut, true),
        // Not worth another attempt: TLS, DNS, files and foreign errors (no status), other statuses.
        (.transportFailed(status: nil), false), (.transportFailed(status: 400), false),
        (.transportFailed(status: 401), false), (.transportFailed(status: 403), false),
        (.transportFailed(status: 404), false), (.transportFailed(status: 410), false),
        (.transportFailed(status: 418), false), (.transportFailed(status: 501), false),
        (.transportFailed(status: 505), false), (.invalidSource, false), (.unsupportedScheme, false),
        (.decodingFailed(format: .png), false), (.limitExceeded, false), (.cancelled, false), (.tooLarge, false),
        (.addressRefused, false),
    ])
    func retryableKinds(kind: ImagoError.Kind, retryable: Bool) {
        #expect(RetryPolicy.default.isRetryable(ImagoError(kind, "x")) == retryable)
    }

    @Test func backoffGrowsWithinJitterAndCap() {
        let policy = RetryPolicy(maxAttempts: 10, initialDelay: 0.5, multiplier: 2, maxDelay: 3, jitter: 0.2)
        #expect(policy.delay(afterAttempt: 1, random: -1) == 0.4)
        #expect(abs(policy.delay(afterAttempt: 1, random: 1) - 0.6) < 1e-9)
        #expect(abs(policy.delay(afterAttempt: 2, random: 0) - 1.0) < 1e-9)
        #expect(abs(policy.delay(afterAttempt: 3, random: 0) - 2.0) < 1e-9)
        #expect(policy.delay(afterAttempt: 4, random: 1) == 3)
        for attempt in 1...8 {
            let delay = policy.delay(afterAttempt: attempt)
            let base = min(0.5 * pow(2, Double(attempt - 1)), 3)
            #expect(delay >= min(base * 0.8, 3) - 1e-9 && delay <= min(base * 1.2, 3) + 1e-9)
        }
    }

    @Test func retryAfterIsHonouredWithinTheCap() {
        let policy = RetryPolicy(maxDelay: 10)
        #expect(
            policy.delay(afterAttempt: 1, error: ImagoError(.transportFailed(status: 503), "x", retryAfter: 4)) == 4)
        #expect(
            policy.delay(afterAttempt: 1, error: ImagoError(.transportFailed(status: 429), "x", retryAfter: 600)) == 10)
    }
}

@Suite struct ImageLoaderRetryTests {
    static let unavailable = ImagoError(.transportFailed(status: 503), "503 Service Unavailable")

    @Test func retriesRetryableFailuresAndReportsAttempts() async throws {
        let env = FakeEnvironment()
        env.transport.serve(
            "/a",
            FakeTransport.Behavior(
                data: FakeDecoder.encode(), failures: [Self.unavailable, ImagoError(.timedOut, "timed out")]))
        let response = try await env.loader.image(for: env.request("/a"))
        #expect(response.attempts == 3)
        #expect(env.transport.callCount == 3)
        let sleeps = env.sleeps.recorded
        #expect(sleeps.count == 2)
        #expect(sleeps[0] >= 0.4 && sleeps[0] <= 0.6)
        #expect(sleeps[1] >= 0.8 && sleeps[1] <= 1.2)
    }

    @Test func givesUpAfterMaxAttempts() async throws {
        var settings = LoaderSettings()
        settings.retry = RetryPolicy(maxAttempts: 4)
        let env = FakeEnvironment(settings: settings)
        env.transport.serve(
            "/a",
            FakeTransport.Behavior(data: FakeDecoder.encode(), failures: Array(repeating: Self.unavailable, count: 9)))
        let error = await #expect(throws: ImagoError.self) { try await env.loader.image(for: env.request("/a")) }
        #expect(error?.statusCode == 503)
        #expect(error?.source == "fake://host/a")
        #expect(env.transport.callCount == 4)
        #expect(env.sleeps.recorded.count == 3)
    }

    @Test func notFoundIsNotRetried() async throws {
        let env = FakeEnvironment()
        let error = await #expect(throws: ImagoError.self) { try await env.loader.image(for: env.request("/missing")) }
        #expect(error?.statusCode == 404)
        #expect(error?.description == "fake://host/missing: 404 Not Found")
        #expect(env.transport.callCount == 1)
        #expect(env.sleeps.recorded.isEmpty)
    }

    @Test func decodingErrorsAreNotRetried() async throws {
        let env = FakeEnvironment()
        env.transport.serve("/bad", data: Data("FAKE".utf8))
        let error = await #expect(throws: ImagoError.self) { try await env.loader.image(for: env.request("/bad")) }
        #expect(error?.kind == .decodingFailed(format: ImageFormat("fake")))
        #expect(env.transport.callCount == 1)
    }

    @Test func retryAfterIsUsedAndCapped() async throws {
        var settings = LoaderSettings()
        settings.retry = RetryPolicy(maxAttempts: 3, maxDelay: 5)
        let env = FakeEnvironment(settings: settings)
        env.transport.serve(
            "/a",
            FakeTransport.Behavior(
                data: FakeDecoder.encode(),
                failures: [
                    ImagoError(.transportFailed(status: 429), "429", retryAfter: 2),
                    ImagoError(.transportFailed(status: 503), "503", retryAfter: 60),
                ]))
        let response = try await env.loader.image(for: env.request("/a"))
        #expect(response.attempts == 3)
        #expect(env.sleeps.recorded == [2, 5])
    }

    @Test func statusReportedWithoutThrowingIsStillAFailure() async throws {
        let env = FakeEnvironment()
        env.transport.serve(
            "/a", FakeTransport.Behavior(data: Data("oops".utf8), metadata: TransportMetadata(statusCode: 500)))
        let error = await #expect(throws: ImagoError.self) { try await env.loader.image(for: env.request("/a")) }
        #expect(error?.statusCode == 500)
        #expect(env.transport.callCount == 3)
    }
}
