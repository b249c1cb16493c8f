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
        #expect(report.results.count == Check.allCases.count)
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
