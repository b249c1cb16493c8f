import Foundation
import Imago
import Testing

@testable import ImagoServer

@Suite struct SourcePolicyTests {
    func status(_ source: String, allowed: [String] = [], allowPrivate: Bool = false) -> Int {
        var settings = ServeSettings()
        settings.allowedSources = allowed
        settings.allowPrivateAddresses = allowPrivate
        do {
            _ = try SourcePolicy(settings: settings).check(URL(string: source)!)
            return 200
        } catch let error as ImagoError {
            return ServeFailure(error).status
        } catch {
            return 0
        }
    }

    @Test func refusesLoopbackAndPrivateHostsInEveryFormByDefault() {
        for host in [
            "127.0.0.1", "localhost", "LOCALHOST", "localhost.", "a.localhost", "[::1]", "0.0.0.0", "0", "2130706433",
            "0x7f000001", "0x7f.1", "0177.0.0.1", "127.1", "10.0.0.1", "192.168.0.1", "172.16.3.4", "169.254.169.254",
            "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[fd00::1]", "[fe80::1]", "224.0.0.1", "127.0.0.1.",
        ] {
            #expect(status("http://\(host)/a.jpg") == 403, "\(host)")
            #expect(status("http://\(host):8080/a.jpg") == 403, "\(host):8080")
            #expect(status("http://\(host)/a.jpg", allowPrivate: true) == 200, "\(host) allowed")
        }
        #expect(status("https://example.com/a.jpg") == 200)
        #expect(status("https://93.184.216.34/a.jpg") == 200)
    }

    @Test func onlyHTTPAndHTTPSUnlessNamed() {
        #expect(status("file:///etc/passwd") == 403)
        #expect(status("data:image/png;base64,AAAA") == 403)
        #expect(status("gopher://example.com/") == 403)
        #expect(status("file:///srv/images/a.png", allowed: ["file:///srv/images/"]) == 200)
        #expect(status("file:///srv/other/a.png", allowed: ["file:///srv/images/"]) == 403)
        #expect(status("data:image/png;base64,AAAA", allowed: ["data:image/"]) == 200)
        #expect(status("data:text/html,hi", allowed: ["data:image/"]) == 403)
    }

    @Test func matchesPrefixesWithOneLabelWildcards() {
        let allowed = ["https://*.example.com/", "https://cdn.example.org/images/"]
        #expect(status("https://img.example.com/a.jpg", allowed: allowed) == 200)
        #expect(status("https://IMG.Example.COM/a.jpg", allowed: allowed) == 200)
        #expect(status("https://a.b.example.com/a.jpg", allowed: allowed) == 403)  // * is one label
        #expect(status("https://example.com/a.jpg", allowed: allowed) == 403)
        #expect(status("https://img.example.com.evil.net/a.jpg", allowed: allowed) == 403)
        #expect(status("https://evil.net/?https://img.example.com/", allowed: allowed) == 403)
        #expect(status("http://img.example.com/a.jpg", allowed: allowed) == 403)  // scheme is part of the prefix
        #expect(status("https://img.example.com:8443/a.jpg", allowed: allowed) == 403)  // so is the port
        #expect(status("https://cdn.example.org/images/x/y.png", allowed: allowed) == 200)
        #expect(status("https://cdn.example.org/Images/y.png", allowed: allowed) == 403)  // paths are exact
        #expect(status("https://cdn.example.org/private/y.png", allowed: allowed) == 403)
        #expect(status("https://user@img.example.com/a.jpg", allowed: allowed) == 403)
        #expect(status("https://cdn.example.org", allowed: ["https://cdn.example.org"]) == 200)
        #expect(status("https://cdn.example.org.evil.net/", allowed: ["https://cdn.example.org"]) == 403)
    }

    @Test func anAllowListDoesNotLiftThePrivateAddressCheck() {
        #expect(status("http://127.0.0.1:9000/a.jpg", allowed: ["http://127.0.0.1:9000/"]) == 403)
        #expect(status("http://127.0.0.1:9000/a.jpg", allowed: ["http://127.0.0.1:9000/"], allowPrivate: true) == 200)
    }

    @Test func refusesCredentialsInSources() {
        #expect(status("https://user:pass@example.com/a.jpg") == 400)
    }

    @Test func patternsAreValidated() {
        #expect(SourcePattern("https://*.example.com/") != nil)
        #expect(SourcePattern("https://img*.example.com/") == nil)
        #expect(SourcePattern("https://example.com/*/") == nil)
        #expect(SourcePattern("example.com") == nil)
        #expect(SourcePattern("https:///a") == nil)
        #expect(SourcePattern("file:///srv/") != nil)
        #expect(SourcePattern("data:image/") != nil)
    }
}
