import Foundation
import ImagoContracts
import ImagoCore
import Testing

/// The interceptor contract passes a well-behaved interceptor and fails each broken one on the promise it breaks.
@Suite struct InterceptorContractTests {
    typealias Check = ImageInterceptorContract.Check

    static let placeholder = Result {
        DecodedImage(raster: try Raster(width: 2, height: 2, fill: RGBA(200, 200, 200)), format: .png)
    }

    @Test func theDocsFallbackInterceptorKeepsTheContract() async throws {
        let placeholder = try Self.placeholder.get()
        let report = await ImageInterceptorContract(makeInterceptor: { FallbackInterceptor(placeholder: placeholder) })
            .run()
        #expect(report.passed, "\(report)")
        #expect(report.results.count == Check.allCases.count - 1, "endsAsExpected runs only when told what to expect")
    }

    @Test func aMissingSourceDownstreamRunsTheFallbackBranch() async throws {
        let placeholder = try Self.placeholder.get()
        let fallback = ImageInterceptorContract(
            makeInterceptor: { FallbackInterceptor(placeholder: placeholder) }, downstream: { _ in .status(404) },
            expecting: .image(origin: .interceptor))
        let report = await fallback.run()
        #expect(report.passed && report.results.count == Check.allCases.count, "\(report)")
        // The same interceptor, told the source is there, lets the downstream's image through.
        try await ImageInterceptorContract(
            makeInterceptor: { FallbackInterceptor(placeholder: placeholder) }, expecting: .image(origin: .network)
        ).verify()
        // And a 500 is not a missing source: it is not answered with the placeholder.
        let serverError = await ImageInterceptorContract(
            makeInterceptor: { FallbackInterceptor(placeholder: placeholder) }, downstream: { _ in .status(500) },
            expecting: .image(origin: .interceptor)
        ).run()
        #expect(serverError.failedCheckNames == [Check.endsAsExpected.rawValue], "\(serverError)")
        #expect(serverError.failures.first?.reason?.contains("ImagoError.transportFailed") == true)
    }

    /// Sends images of `origin.example` to `cdn.example`; `broken` rewrites the wrong host.
    struct CDNRewrite: ImageInterceptor {
        var broken = false
        func intercept(_ chain: ImageInterceptorChain) async throws -> ImageResponse {
            var request = chain.request
            if request.url.host == (broken ? "other.example" : "origin.example") {
                var parts = URLComponents(url: request.url, resolvingAgainstBaseURL: false)!
                parts.host = "cdn.example"
                request.url = parts.url!
            }
            return try await chain.proceed(request)
        }
    }

    @Test func aHostScopedRewriteIsCheckedAgainstTheHostItRewritesTo() async throws {
        func contract(_ broken: Bool) -> ImageInterceptorContract {
            ImageInterceptorContract(
                makeInterceptor: { CDNRewrite(broken: broken) },
                request: ImageRequest(url: URL(string: "https://origin.example/photo.jpg")!),
                downstream: { $0.url.host == "cdn.example" ? .image : .status(404) },
                expecting: .image(origin: .network))
        }
        try await contract(false).verify()
        let report = await contract(true).run()
        #expect(report.failedCheckNames == [Check.endsAsExpected.rawValue], "\(report)")
        let reason = try #require(report.failures.first?.reason)
        #expect(reason.contains("status 404") && reason.contains("expected an image (origin network)"), "\(reason)")
    }

    @Test func failuresAreShort() async {
        let report = await ImageInterceptorContract(makeInterceptor: { BrokenInterceptors.SwallowsCancellation() })
            .run()
        for failure in report.failures {
            let reason = failure.reason ?? ""
            #expect(reason.count < 200 && !reason.contains("ImageResponse("), "\(reason)")
        }
    }

    @Test func verifyThrowsTheReport() async {
        let contract = ImageInterceptorContract(makeInterceptor: { BrokenInterceptors.ThrowsForeignErrors() })
        let error = await #expect(throws: ContractFailure.self) { try await contract.verify() }
        #expect(error?.reason.contains("✗ \(Check.letsErrorsThroughTyped.rawValue)") == true)
    }

    @Test func anInterceptorThatAnswersEverythingItselfKeepsTheContract() async throws {
        struct Offline: ImageInterceptor {
            let image: DecodedImage
            func intercept(_ chain: ImageInterceptorChain) async throws -> ImageResponse {
                ImageResponse(image: image, request: chain.request, origin: .interceptor, attempts: 0)
            }
        }
        let image = try Self.placeholder.get()
        let report = await ImageInterceptorContract(makeInterceptor: { Offline(image: image) }).run()
        #expect(report.passed, "\(report)")
    }

    @Test func swallowingCancellationFailsTheCancellationCheck() async {
        let report = await ImageInterceptorContract(makeInterceptor: { BrokenInterceptors.SwallowsCancellation() })
            .run()
        #expect(report.failedCheckNames == [Check.letsCancellationThrough.rawValue], "\(report)")
    }

    @Test func passingALoadOnTwiceFailsUnlessDeclared() async {
        let report = await ImageInterceptorContract(makeInterceptor: { BrokenInterceptors.ProceedsTwice() }).run()
        #expect(report.failedCheckNames.contains(Check.proceedsAtMostAsDeclared.rawValue), "\(report)")
        let declared = await ImageInterceptorContract(
            makeInterceptor: { BrokenInterceptors.ProceedsTwice() }, maxProceedsPerLoad: 2
        ).run()
        #expect(declared.passed, "\(declared)")
    }

    @Test func throwingForeignErrorsFailsTheErrorCheck() async {
        let report = await ImageInterceptorContract(makeInterceptor: { BrokenInterceptors.ThrowsForeignErrors() })
            .run()
        #expect(report.failedCheckNames == [Check.letsErrorsThroughTyped.rawValue], "\(report)")
        #expect(report.failures.first?.reason?.contains("Failed") == true, "\(report)")
    }
}
