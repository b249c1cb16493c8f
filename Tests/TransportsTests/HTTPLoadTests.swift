import Foundation
import ImagoCore
import Testing

@testable import ImagoTransports

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Redirect decisions, checked without a network: what the session delegate would be asked.
@Suite struct HTTPLoadTests {
    private func redirect(from: String, location: String, maxRedirects: Int = 5) throws -> URLRequest? {
        let load = HTTPLoad(
            source: from, configuration: .init(maxRedirects: maxRedirects), callbackQueue: OperationQueue())
        let response = try #require(
            HTTPURLResponse(
                url: URL(string: from)!, statusCode: 302, httpVersion: "HTTP/1.1", headerFields: ["Location": location])
        )
        var next = URLRequest(url: URL(string: location, relativeTo: URL(string: from))!.absoluteURL)
        next.setValue("Bearer token", forHTTPHeaderField: "Authorization")
        next.setValue("a=b", forHTTPHeaderField: "Cookie")
        next.setValue("image/*", forHTTPHeaderField: "Accept")
        return load.redirect(response, to: next)
    }

    @Test func dropsCredentialsWhenTheHostChanges() throws {
        let next = try #require(try redirect(from: "http://127.0.0.1:9/a", location: "https://cdn.example/b"))
        #expect(next.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(next.value(forHTTPHeaderField: "Cookie") == nil)
        #expect(next.value(forHTTPHeaderField: "Accept") == "image/*")
    }

    @Test func keepsCredentialsOnTheSameHost() throws {
        let next = try #require(try redirect(from: "http://127.0.0.1:9/a", location: "/b"))
        #expect(next.value(forHTTPHeaderField: "Authorization") == "Bearer token")
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://127.0.0.1/x", "javascript:alert(1)"])
    func refusesOtherSchemes(location: String) throws {
        #expect(try redirect(from: "http://127.0.0.1:9/a", location: location) == nil)
    }

    @Test func refusesPastTheLimit() throws {
        #expect(try redirect(from: "http://127.0.0.1:9/a", location: "/b", maxRedirects: 0) == nil)
    }
}
