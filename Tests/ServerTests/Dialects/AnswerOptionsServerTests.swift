import Foundation
import Imago
import ImagoTestSupport
import Testing

@testable import ImagoServer

extension ServerIntegrationTests {
    /// Issue 35, phase 3, through a real `imago serve`: the options that change the answer rather than the pixels
    /// (imgproxy's `fn`, `att`, security limits, `skp`, `raw`; thumbor's `max_age` and skipped filters), on a
    /// rendered answer and on the same answer from the result cache.
    @Suite struct AnswerOptionsServerTests {
        static func fixture() throws -> ServerFixture {
            try ServerFixture(adjust: { settings, origin, folder in
                settings.cacheMaxAge = 3600
                settings.dialects.imgproxy.enabled = true
                settings.dialects.thumbor.enabled = true
                settings.dialects.thumbor.allowUnsafe = true
                settings.dialects.thumbor.loaderBase = origin.url("img/")
                try? Self.opaqueRGBA.write(to: folder.appendingPathComponent("opaque-rgba.png"))
            })
        }

        /// A 120×80 RGBA PNG whose alpha is 255 everywhere (as other tools write opaque images).
        static let opaqueRGBA: Data = {
            var pixels: [UInt8] = []
            for y in 0..<80 {
                for x in 0..<120 { pixels += [UInt8(x * 2), UInt8(y * 3), 90, 255] }
            }
            return PNGBytes.rgba(width: 120, height: 80, pixels: pixels)
        }()

        /// `/ip/unsafe/OPTIONS/plain/ORIGIN-URL`.
        func imgproxy(_ fixture: ServerFixture, _ options: String, _ name: String, suffix: String = "") -> String {
            "/ip/unsafe/\(options)/plain/" + ServerFixture.encode(fixture.origin.url("img/\(name)")) + suffix
        }

        @Test func filenameAndAttachmentGiveASafeContentDisposition() async throws {
            let fixture = try Self.fixture()
            let named = imgproxy(fixture, "rs:fit:50:50/fn:holiday", "photo.jpg")
            for cache in ["network", "result"] {
                let response = try await fixture.get(named)
                #expect(response.status == 200)
                let header = response.header("Content-Disposition")
                #expect(header == "inline; filename=\"holiday.jpg\"; filename*=UTF-8''holiday.jpg", "\(cache)")
            }
            #expect(fixture.log.filter { $0.path == named }.map(\.cache) == ["network", "result"])
            // Another name is another answer; the extension is the output format's.
            let other = try await fixture.get(
                imgproxy(fixture, "rs:fit:50:50/fn:other/att:1", "photo.jpg", suffix: "@png"))
            #expect(other.header("Content-Disposition")?.hasPrefix("attachment; filename=\"other.png\"") == true)
            // att alone: the source's name without its extension.
            let attached = try await fixture.get(imgproxy(fixture, "att:1", "photo.jpg"))
            #expect(attached.header("Content-Disposition")?.hasPrefix("attachment; filename=\"photo.jpg\"") == true)
            // Quotes, backslashes and non-ASCII stay inside the value: `_` in the plain name, escaped in filename*.
            let hostile = Data("a\"b\\c é;x=1".utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            let quoted = try await fixture.get(imgproxy(fixture, "fn:\(hostile):1", "photo.jpg"))
            #expect(
                quoted.header("Content-Disposition")
                    == "inline; filename=\"a_b_c _;x=1.jpg\"; filename*=UTF-8''a%22b%5Cc%20%C3%A9%3Bx%3D1.jpg")
            // CR/LF in a name is a 400 naming fn, before anything is fetched; no header is injected.
            let crlf = Data("a\r\nSet-Cookie: x=1".utf8).base64EncodedString()
            let refused = try await fixture.get(imgproxy(fixture, "fn:\(crlf):1", "photo.jpg"))
            #expect(refused.status == 400 && refused.text.contains("fn:") && refused.header("Set-Cookie") == nil)
            let long = try await fixture.get(imgproxy(fixture, "fn:" + String(repeating: "n", count: 300), "photo.jpg"))
            #expect(long.status == 400)
        }

        @Test func securityOptionsTightenTheLimitsAndALooserOneIs400() async throws {
            let fixture = try Self.fixture()
            // The same source served first without a limit: the tightened request is another key, not that answer.
            #expect(try await fixture.get(imgproxy(fixture, "q:85", "photo.jpg")).status == 200)
            // photo.jpg is 200×100 (20000 px), anim.gif 3 frames of 8×6. A 400 names the option as written.
            let cases: [(String, String, Int, String)] = [
                ("q:85/msr:0.01", "photo.jpg", 422, "10000 pixel"), ("msr:0.02", "photo.jpg", 200, ""),
                ("msfs:100", "photo.jpg", 413, "100 bytes"), ("maf:2", "anim.gif", 422, "limit of 2"),
                ("maf:3", "anim.gif", 200, ""), ("mafr:0.01", "photo.jpg", 422, "10000 pixel"),
                ("mrd:100/w:200", "photo.jpg", 200, ""), ("msr:51", "photo.jpg", 400, "\"msr:51\" is looser"),
                ("msfs:52428801", "photo.jpg", 400, "\"msfs:52428801\""),
                ("maf:10001", "anim.gif", 400, "\"maf:10001\""),
                ("mrd:8193", "photo.jpg", 400, "\"mrd:8193\""), ("msr:0", "photo.jpg", 400, "\"msr:0\""),
                ("maf:-1", "anim.gif", 400, "\"maf:-1\""),
            ]
            for (options, name, status, message) in cases {
                let response = try await fixture.get(imgproxy(fixture, options, name))
                #expect(response.status == status, "\(options): \(response.text)")
                #expect(message.isEmpty || response.text.contains(message), "\(options): \(response.text)")
            }
            // mrd scales the finished image down to fit, as imgproxy does: a larger ask, or the source's own size.
            for options in ["mrd:100/w:200", "mrd:100"] {
                let fitted = try ServerFixture.decode(
                    try await fixture.get(imgproxy(fixture, options, "photo.jpg")).body
                ).raster
                #expect(fitted.width == 100 && fitted.height == 50, "\(options)")
            }
            let looser = try await fixture.get(imgproxy(fixture, "msr:51", "photo.jpg"))
            #expect(looser.text.contains("looser than the service's limit of 50 MP"))
        }

        @Test func skipProcessingAndRawAnswerTheSourceUnprocessed() async throws {
            let fixture = try Self.fixture()
            let photo = try Data(contentsOf: fixture.folder.appendingPathComponent("photo.jpg"))
            let skipped = imgproxy(fixture, "skp:jpg/rs:fit:50:50", "photo.jpg")
            for _ in 0..<2 {
                let response = try await fixture.get(skipped)
                #expect(response.status == 200 && response.body == photo)
                #expect(response.header("Content-Type") == "image/jpeg")
            }
            // Not kept as a result: the source's bytes are the data cache's to keep.
            #expect(fixture.log.filter { $0.path == skipped }.allSatisfy { $0.cache != "result" })
            // Another format asked, or a source format not listed: processed.
            let converted = try await fixture.get(
                imgproxy(fixture, "skp:jpg/rs:fit:50:50", "photo.jpg", suffix: "@png"))
            #expect(converted.header("Content-Type") == "image/png")
            #expect(try ServerFixture.decode(converted.body).width == 50)
            let notListed = try await fixture.get(imgproxy(fixture, "skp:png/rs:fit:50:50", "photo.jpg"))
            #expect(notListed.status == 200)
            #expect(try ServerFixture.decode(notListed.body).width == 50)
            // skp still checks the source's size from its header.
            #expect(try await fixture.get(imgproxy(fixture, "skp:jpg/msr:0.01", "photo.jpg")).status == 422)
            // raw: whatever the other options; a recognised image only; within the source policy and byte limits.
            let raw = try await fixture.get(imgproxy(fixture, "raw:1/rs:fit:50:50", "photo.jpg", suffix: "@png"))
            #expect(raw.status == 200 && raw.body == photo && raw.header("Content-Type") == "image/jpeg")
            #expect(try await fixture.get(imgproxy(fixture, "raw:1", "notes.png")).status == 415)
            #expect(try await fixture.get(imgproxy(fixture, "raw:1/msfs:100", "photo.jpg")).status == 413)
            let outside = "/ip/unsafe/raw:1/plain/" + ServerFixture.encode("http://127.0.0.2:1/img/photo.jpg")
            #expect(try await fixture.get(outside).status == 403)
            #expect(try await fixture.get(imgproxy(fixture, "raw:1", "missing.jpg")).status == 404)
        }

        @Test func thumborsMaxAgeAndSkippedFiltersAreHeaders() async throws {
            let fixture = try Self.fixture()
            for (filter, expected) in [
                ("max_age(60)", "public, max-age=60"), ("max_age(0)", "no-cache"),
                ("max_age(99999999)", "public, max-age=3600"), ("quality(80)", "public, max-age=3600"),
            ] {
                let path = "/tb/unsafe/100x0/filters:\(filter)/photo.jpg"
                for _ in 0..<2 {
                    let response = try await fixture.get(path)
                    #expect(response.status == 200 && response.header("Cache-Control") == expected, "\(filter)")
                    #expect(response.header("Imago-Skipped-Filters") == nil)
                }
            }
            let skipped = try await fixture.get(
                "/tb/unsafe/100x0/filters:nope(1):brightness(+20):max_age(-5)/photo.jpg")
            #expect(skipped.status == 200)
            #expect(skipped.header("Imago-Skipped-Filters") == "nope(1), brightness(+20), max_age(-5)")
            let many = (1...40).map { "filter\($0)()" }.joined(separator: ":")
            let long = try await fixture.get("/tb/unsafe/100x0/filters:\(many)/photo.jpg")
            let header = long.header("Imago-Skipped-Filters") ?? ""
            #expect(header.utf8.count <= AnswerHeaders.maxSkippedBytes && header.hasSuffix("..."))
        }

        @Test func thumborsAutojpgAnswersAnOpaquePNGAsJPEG() async throws {
            let fixture = try Self.fixture()
            let source = try PluginRegistry.standard().decoder(for: Self.opaqueRGBA, limits: .default)
                .decode(Self.opaqueRGBA)
            #expect(source.hasAlpha && !source.raster.hasTransparency && source.width == 120)
            for (path, type) in [
                ("100x0/filters:autojpg()/big.png", "image/jpeg"), ("100x0/filters:autojpg()/logo.png", "image/png"),
                ("100x0/filters:autojpg():background_color(white)/logo.png", "image/jpeg"),
                ("100x0/filters:autojpg():format(png)/big.png", "image/png"), ("100x0/big.png", "image/png"),
                ("100x0/filters:autojpg()/photo.jpg", "image/jpeg"),
                ("100x0/filters:autojpg(False)/big.png", "image/png"),
                // thumbor looks at the pixels: an RGBA PNG that is opaque everywhere is answered as JPEG.
                ("100x0/filters:autojpg()/opaque-rgba.png", "image/jpeg"), ("100x0/opaque-rgba.png", "image/png"),
            ] {
                for _ in 0..<2 {
                    let response = try await fixture.get("/tb/unsafe/" + path)
                    #expect(response.status == 200 && response.header("Content-Type") == type, "\(path)")
                    #expect(response.header("Imago-Quality") == nil, "\(path)")
                    #expect(try ServerFixture.decode(response.body).width == 100, "\(path)")
                }
            }
        }
    }
}
