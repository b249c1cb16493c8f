import Foundation
import Imago
import Testing

@testable import ImagoServer

extension ServerIntegrationTests {
    /// `allowedSources` prefixes confine paths: the policy decides on the normalised source (dot segments, `%2e`,
    /// symlinks), before any read or connection, on every redirect hop; what it matched is what is fetched.
    @Suite struct ImageServerSourceConfinementTests {
        /// `public/` (photo.jpg, a link to ../secret.jpg) beside secret.jpg, with only `public/` allowed.
        static func fileFixture() throws -> ServerFixture {
            try ServerFixture { settings, _, folder in
                let manager = FileManager.default
                let publicFolder = folder.appendingPathComponent("public")
                try? manager.createDirectory(at: publicFolder, withIntermediateDirectories: true)
                try? manager.copyItem(
                    at: folder.appendingPathComponent("photo.jpg"), to: publicFolder.appendingPathComponent("photo.jpg")
                )
                try? manager.copyItem(
                    at: folder.appendingPathComponent("photo.jpg"), to: folder.appendingPathComponent("secret.jpg"))
                try? manager.createSymbolicLink(
                    atPath: publicFolder.appendingPathComponent("link.jpg").path, withDestinationPath: "../secret.jpg")
                // A link out of the folder to nothing: the same 403 as one to something.
                try? manager.createSymbolicLink(
                    atPath: publicFolder.appendingPathComponent("dangling.jpg").path, withDestinationPath: "../gone.jpg"
                )
                settings.allowedSources = ["file://\(folder.path)/public/"]
            }
        }

        @Test func fileSourcesCannotLeaveTheirPrefix() async throws {
            let fixture = try Self.fileFixture()
            let root = "file://\(fixture.folder.path)/public/"
            func status(_ source: String) async throws -> Int {
                let plain = try await fixture.get("/unsafe/w=50/plain/" + ServerFixture.encode(source))
                let encoded = try await fixture.get("/unsafe/w=50/" + Base64URL.encode(Array(source.utf8)))
                #expect(plain.status == encoded.status, "\(source): plain and base64 agree")
                return plain.status
            }
            #expect(try await status(root + "photo.jpg") == 200)
            #expect(try await status(root + "sub/../photo.jpg") == 200)
            for escape in [
                "../secret.jpg", "%2e%2e/secret.jpg", "%2E%2e/secret.jpg", ".%2e/secret.jpg", "./../secret.jpg",
                "link.jpg", "../../../../../../etc/passwd", "../missing.jpg", "../../../../../../no/such/file",
                "%2e%2e%2fsecret.jpg", "dangling.jpg",
            ] {
                // Every escape is the same 403: no 404/415 oracle for what lies outside.
                #expect(try await status(root + escape) == 403, "\(escape)")
            }
            #expect(try await status(root + "missing.jpg") == 404)
            // A raw `..` in the request target (curl --path-as-is) is decoded and normalised the same way.
            let raw = try await fixture.get("/unsafe/w=50/plain/\(root)../secret.jpg")
            #expect(raw.status == 403, "\(raw.text)")
            // A file: source names no host: localhost is this machine (the same file, the same answer), another
            // host is refused instead of served as a second spelling of the same file.
            func resultHits() async throws -> String? {
                try await fixture.get("/metrics").text.split(separator: "\n")
                    .first { $0.hasPrefix("imago_cache_hits_total{cache=\"result\"}") }.map(String.init)
            }
            let fresh = "file://localhost\(fixture.folder.path)/public/photo.jpg"
            let first = try await fixture.get("/unsafe/w=51/plain/" + ServerFixture.encode(fresh))
            #expect(first.status == 200, "\(first.text)")
            let before = try await resultHits()
            let again = try await fixture.get("/unsafe/w=51/plain/" + ServerFixture.encode(root + "photo.jpg"))
            #expect(again.status == 200 && again.body == first.body)
            #expect(try await resultHits() != before, "one key for both spellings: the second is a result-cache hit")
            #expect(try await status("file://example.com\(fixture.folder.path)/public/photo.jpg") == 400)
        }

        @Test func httpPrefixesConfinePathsAndTheNormalisedPathIsWhatIsFetched() async throws {
            let fixture = try ServerFixture { settings, origin, _ in settings.allowedSources = [origin.url("img/")] }
            let before = try await fixture.origin.count()
            for escape in ["img/../status/200", "img/%2e%2e/status/200", "img/.%2E/status/200", "img/a/../../text"] {
                let response = try await fixture.get(fixture.path("w=20", origin: escape))
                #expect(response.status == 403, "\(escape): \(response.text)")
            }
            // An encoded slash that would make a dot segment once the origin decodes it is refused as ambiguous.
            let hidden = try await fixture.get(fixture.path("w=20", origin: "img/..%2Fstatus/200"))
            #expect(hidden.status == 400, "\(hidden.text)")
            // So is a dot segment with a path parameter, which Tomcat, Jetty and Spring read as `..`.
            for parameter in ["img/..;/status/200", "img/%2e%2e;/status/200", "img/..;x=1/text", "img/.;/photo.jpg"] {
                let response = try await fixture.get(fixture.path("w=20", origin: parameter))
                #expect(response.status == 400, "\(parameter): \(response.text)")
            }
            #expect(try await fixture.origin.count() == before, "nothing was fetched")
            // Dots that stay inside the prefix are removed before the fetch: the origin gets /img/photo.jpg.
            let inside = try await fixture.get(fixture.path("w=20", origin: "img/x/../photo.jpg"))
            #expect(inside.status == 200, "\(inside.text)")
        }

        @Test func everyRedirectHopPassesTheAllowList() async throws {
            let fixture = try ServerFixture { settings, origin, _ in
                settings.allowedSources = [origin.url("redirect"), origin.url("img/")]
            }
            func redirect(to target: String) -> String { "redirect?to=" + ServerFixture.encode(target) }
            let outside = try await fixture.get(fixture.path("w=20", origin: redirect(to: fixture.origin.url("text"))))
            #expect(outside.status == 403, "\(outside.text)")
            let dotted = try await fixture.get(
                fixture.path("w=20", origin: redirect(to: fixture.origin.url("img/../text"))))
            #expect(dotted.status == 403, "\(dotted.text)")
            #expect(try await fixture.origin.count() == 2, "only the two redirects were fetched")
            let inside = try await fixture.get(
                fixture.path("w=20", origin: redirect(to: fixture.origin.url("img/photo.jpg"))))
            #expect(inside.status == 200, "\(inside.text)")
        }

        @Test func anEmptySignatureIsRefusedLikeAMissingOne() async throws {
            let fixture = try ServerFixture { settings, _, _ in settings.signingKeys = ["secret"] }
            let source = ServerFixture.encode(fixture.origin.url("img/photo.jpg"))
            for path in ["//w=20/plain/\(source)", "/unsafe/w=20/plain/\(source)", "/x/w=20/plain/\(source)"] {
                let response = try await fixture.get(path)
                #expect(response.status == 403, "\(path): \(response.text)")
            }
            let unsigned = try ServerFixture { settings, _, _ in settings.signingKeys = [] }
            #expect(try await unsigned.get("//w=20/plain/\(source)").status == 403)
        }
    }
}
