import Foundation
import Imago
import Testing

@testable import ImagoServer

extension ServerIntegrationTests {
    /// imgproxy's and thumbor's URLs through a real `imago serve`, beside Imago's own: the sizes and crops imgproxy's
    /// documentation describes, and bad input answered with one line before anything is fetched.
    @Suite struct DialectServerTests {
        static let thumborKey = "tb-secret"

        static func fixture() throws -> ServerFixture {
            try ServerFixture(adjust: { settings, origin, _ in
                ServerFixture.enableDialects(&settings, origin: origin)
                settings.dialects.thumbor.securityKey = thumborKey
            })
        }

        /// `/tb/HASH/PATH`, signed by Python's hmac.
        func thumbor(_ path: String) throws -> String {
            "/tb/" + (try DialectPython.thumborSignatures(key: Self.thumborKey, paths: [path])[0]) + "/" + path
        }

        /// big.png's pixel at (x, y).
        func gradient(_ x: Int, _ y: Int) -> RGBA { RGBA(UInt8(x * 255 / 299), UInt8(y * 255 / 299), 128, 255) }

        @Test func imgproxyURLsGiveTheSizesAndCropsItsDocsDescribe() async throws {
            let fixture = try Self.fixture()
            func image(_ options: String, _ name: String = "big.png") async throws -> Raster {
                let response = try await fixture.get(fixture.signedImgproxy(options, name))
                #expect(response.status == 200, "\(options): \(response.text)")
                return try ServerFixture.decode(response.body).raster
            }
            // fit: inside 150×100, keeping the aspect; width 0 keeps the aspect too.
            var raster = try await image("rs:fit:150:100", "photo.jpg")
            #expect(raster.width == 150 && raster.height == 75)
            raster = try await image("h:50", "photo.jpg")
            #expect(raster.width == 100 && raster.height == 50)
            // fill: exactly 100×100, the middle kept (centre gravity).
            raster = try await image("rs:fill:100:100/f:png")
            #expect(raster.width == 100 && raster.height == 100)
            // auto: fill when the orientations agree (a square source counts as landscape), else fit.
            raster = try await image("rs:auto:100:50/f:png")
            #expect(raster.width == 100 && raster.height == 50)
            raster = try await image("rs:auto:50:100", "photo.jpg")
            #expect(raster.width == 50 && raster.height == 25)
            // force: exactly the size, the aspect ignored.
            raster = try await image("rs:force:50:80/f:png")
            #expect(raster.width == 50 && raster.height == 80)
            // crop before resize: 100×50 in the middle; half of each side at the bottom right.
            raster = try await image("c:100:50/f:png")
            #expect(raster.width == 100 && raster.height == 50 && raster[0, 0] == gradient(100, 125))
            raster = try await image("c:0.5:0.5:soea/f:png")
            #expect(raster.width == 150 && raster.height == 150 && raster[0, 0] == gradient(150, 150))
            // padding (CSS order) enlarges the result; extend fills the box with the background.
            raster = try await image("w:100/pd:10:20/f:png")
            #expect(raster.width == 140 && raster.height == 120 && raster[0, 0] == RGBA(255, 255, 255))
            raster = try await image("rs:fit:400:400:0:1/bg:ff0000/f:png")
            #expect(raster.width == 400 && raster.height == 400 && raster[0, 0] == RGBA(255, 0, 0))
            #expect(raster[60, 60] == gradient(10, 10))
            // The extension names the format; Imago's own URLs keep working beside the dialects.
            let webp = try await fixture.get(fixture.signedImgproxy("w:10", "big.png", suffix: "@webp"))
            #expect(webp.status == 200 && webp.headers["content-type"] == "image/webp")
            let own = try await fixture.get(fixture.path("w=10,f=png", origin: "img/big.png"))
            #expect(own.status == 200)
            #expect(try ServerFixture.decode(own.body).width == 10)
        }

        @Test func thumborURLsRenderThroughTheSamePath() async throws {
            let fixture = try Self.fixture()
            let response = try await fixture.get(try thumbor("-60x40/left/filters:format(png):grayscale()/big.png"))
            #expect(response.status == 200, "\(response.text)")
            let raster = try ServerFixture.decode(response.body).raster
            #expect(raster.width == 60 && raster.height == 40)
            #expect(raster[0, 0].r == raster[0, 0].g && raster[0, 0].g == raster[0, 0].b, "grey")
            // The same image again comes from the result cache: the shared flow, not a copy of it.
            let again = try await fixture.get(try thumbor("-60x40/left/filters:format(png):grayscale()/big.png"))
            #expect(again.body == response.body)
            #expect(fixture.log.contains { $0.path.hasPrefix("/tb/") && $0.cache == "result" })
        }

        /// Both services sign and read the path only: a query a CDN or a page appends changes nothing.
        @Test func aQueryAfterTheURLIsNotSignedOrRead() async throws {
            let fixture = try Self.fixture()
            let plain = try await fixture.get(try thumbor("30x20/big.png"))
            let thumbor = try await fixture.get(try thumbor("30x20/big.png") + "?v=2&utm_source=x")
            #expect(thumbor.status == 200, "\(thumbor.text)")
            #expect(thumbor.body == plain.body)
            let imgproxy = try await fixture.get(fixture.signedImgproxy("rs:fit:40:40", "big.png") + "?cb=7")
            #expect(imgproxy.status == 200, "\(imgproxy.text)")
            #expect(try ServerFixture.decode(imgproxy.body).width == 40)
        }

        @Test func badInputIsOneLineAndFetchesNothing() async throws {
            let fixture = try Self.fixture()
            let source = ServerFixture.encode(fixture.origin.url("img/big.png"))
            let port = fixture.origin.port
            let signer = ServerFixture.imgproxySigner
            func signed(_ path: String) -> String { "/ip/" + signer.signature(for: path) + path }
            let thumborHash = try DialectPython.thumborSignatures(key: Self.thumborKey, paths: ["300x200/big.png"])[0]
            let imgproxySignature = signer.signature(for: "/w:10/plain/\(source)")
            let cases: [(String, Int)] = [
                (signed("/foo:1/plain/\(source)"), 400),  // unknown option
                (signed("/rs:fit:1:2:3:4:5:6/plain/\(source)"), 400),  // wrong arity
                (signed("/w:10:20/plain/\(source)"), 400),
                ("/ip/\(thumborHash)/w:10/plain/\(source)", 403),  // the other dialect's signature
                ("/tb/\(imgproxySignature)/300x200/big.png", 403),
                (signed("/w=10,h=10/plain/\(source)"), 400),  // Imago's syntax in imgproxy's URL
                (signed("/rs:fit:10:10/g:sm/w=10/plain/\(source)"), 400),
                (try thumbor("rs:fill:10:10/big.png"), 400),  // imgproxy's syntax in thumbor's URL
                ("/tb/\(thumborHash)/301x200/big.png", 403),  // a thumbor hash over a different path
                ("/tb/unsafe/300x200/big.png", 403),
                (
                    signed(
                        "/" + String(repeating: "w:1/", count: 1) + "pd:" + String(repeating: "1", count: 2000)
                            + "/plain/\(source)"), 400
                ),  // an option segment over 1 KiB
                (signed("/cb:" + String(repeating: "x", count: 10_240) + "/plain/\(source)"), 414),  // 10 KB
                (try thumbor("filters:" + String(repeating: "blur(1):", count: 200) + "blur(1)/big.png"), 400),
                (signed("/w:10/plain/http%253A%252F%252F127.0.0.1%253A\(port)%252Fimg%252Fbig.png"), 400),
                (signed("/w:10/plain/http%3A%2F%2F127.0.0.1%3A\(port)%2Fimg%2Fbig.png%00"), 400),
                (signed("/w:10/plain/http%3A%2F%2F127.0.0.1%3A\(port)%2Fimg%2Fbig.png%0d%0aX:1"), 400),
                (signed("/w:10/plain/http%3A%2F%2F169.254.169.254%2Flatest"), 403),
                (signed("/w:10/plain/http%3A%2F%2F127.0.0.1%3A\(port)%40evil.example%2Fimg%2Fbig.png"), 403),
                (signed("/w:10/plain/file%3A%2F%2F%2Fetc%2Fpasswd"), 403),
                (try thumbor("300x200/../../etc/passwd"), 400),
                (try thumbor("300x200/file:%2F%2F%2Fetc%2Fpasswd"), 400),
                (try thumbor("300x200/filters:frame(http://169.254.169.254/a.png)/big.png"), 403),
                // A watermark's image outside allowedSources, or at a private address: refused before any fetch.
                (try thumbor("300x200/filters:watermark(http://169.254.169.254/a.png,0,0,50)/big.png"), 403),
                (try thumbor("300x200/filters:watermark(file:%2F%2F%2Fetc%2Fpasswd,0,0,50)/big.png"), 400),
                (try thumbor("300x200/filters:redeye()/big.png"), 400),
            ]
            let before = try await fixture.origin.count()
            for (target, status) in cases {
                let response = try await fixture.get(target)
                #expect(response.status == status, "\(target.prefix(120)): \(response.text)")
                let line = response.text.trimmingCharacters(in: .newlines)
                #expect(!line.isEmpty && !line.contains("\n"), "\(target.prefix(120)): one line, got \(response.text)")
            }
            #expect(try await fixture.origin.count() == before, "nothing was fetched")
        }
    }
}
