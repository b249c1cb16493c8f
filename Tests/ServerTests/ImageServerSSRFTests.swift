import Foundation
import Imago
import Testing

@testable import ImagoServer

#if canImport(Glibc)
    import Glibc
#endif

extension ServerIntegrationTests {
    /// With the defaults, private and loopback sources are refused before any connection is made.
    @Suite struct ImageServerSSRFTests {
        @Test func refusesLoopbackSourcesInEveryFormBeforeConnecting() async throws {
            let fixture = try ServerFixture { settings, _, _ in
                settings.allowPrivateAddresses = false
                settings.allowedSources = []
            }
            let port = fixture.origin.port
            let hosts = [
                "127.0.0.1", "localhost", "[::1]", "0.0.0.0", "0", "2130706433", "0x7f000001", "0x7f.1", "0177.0.0.1",
                "127.1", "[::ffff:127.0.0.1]", "LocalHost.", "10.0.0.1", "192.168.1.1", "169.254.169.254",
            ]
            for host in hosts {
                let source = "http://\(host):\(port)/img/photo.jpg"
                let response = try await fixture.get("/unsafe/w=10/plain/" + ServerFixture.encode(source))
                #expect(response.status == 403, "\(source)")
                #expect(response.header("Cache-Control") == "no-store")
                let encoded = Base64URL.encode(Array(source.utf8))
                #expect(try await fixture.get("/unsafe/w=10/" + encoded).status == 403, "\(source) base64")
            }
            #expect(try await fixture.origin.count() == 0)
        }

        /// A name (the machine's own, which resolves through /etc/hosts to a loopback or private address) passes the
        /// early literal check; libcurl's connection filter refuses the address it resolves to, before connecting.
        @Test func refusesNamesThatResolveToPrivateAddresses() async throws {
            let name = ProcessInfo.processInfo.hostName
            let resolved = try #require(Self.resolve(name), "\(name) does not resolve")
            try #require(AddressClassifier.classify(host: resolved) != .public, "\(name) resolves to \(resolved)")
            let fixture = try ServerFixture { settings, _, _ in
                settings.allowPrivateAddresses = false
                settings.allowedSources = []
            }
            let source = "http://\(name):\(fixture.origin.port)/img/photo.jpg"
            let response = try await fixture.get("/unsafe/w=10/plain/" + ServerFixture.encode(source))
            #expect(response.status == 403, "\(source): \(response.text)")
            #expect(response.text.contains("refused"))
            #expect(try await fixture.origin.count() == 0)
            // The same source with private addresses allowed reaches the origin.
            let open = try ServerFixture { settings, _, _ in settings.allowedSources = [] }
            let allowed = "http://\(name):\(open.origin.port)/img/photo.jpg"
            #expect(try await open.get("/unsafe/w=10/plain/" + ServerFixture.encode(allowed)).status == 200)
        }

        static func resolve(_ name: String) -> String? {
            var hints = addrinfo()
            hints.ai_family = AF_INET
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var result: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(name, nil, &hints, &result) == 0, let first = result else { return nil }
            defer { freeaddrinfo(result) }
            var host = [CChar](repeating: 0, count: 64)
            guard getnameinfo(first.pointee.ai_addr, first.pointee.ai_addrlen, &host, 64, nil, 0, NI_NUMERICHOST) == 0
            else { return nil }
            return String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        @Test func refusesRedirectsToOtherSchemes() async throws {
            let fixture = try ServerFixture()
            for target in ["file:///etc/passwd", "data:image/png;base64,iVBORw0KGgo=", "ftp://127.0.0.1/a.png"] {
                let redirect = "redirect?to=" + ServerFixture.encode(target)
                let response = try await fixture.get(fixture.path(origin: redirect))
                #expect(response.status == 502, "\(target): \(response.text)")
            }
        }

        @Test func followsRedirectsWithinTheAllowedOrigin() async throws {
            let fixture = try ServerFixture()
            let redirect = "redirect?to=" + ServerFixture.encode(fixture.origin.url("img/photo.jpg"))
            #expect(try await fixture.get(fixture.path("w=10", origin: redirect)).status == 200)
        }
    }
}
