import Foundation
import Imago
import ImagoTestSupport
import Testing

@testable import ImagoServer

extension ServerIntegrationTests {
    /// Watermarks through a real `imago serve`: thumbor's `watermark(URL,…)` fetching its mark from the local
    /// origin, imgproxy's `wm` offsets and `re` over `serve.watermark`, Imago's `wm=…:src:…`; and marks that must
    /// be refused: outside allowedSources, a redirect to a private address, not an image, a decompression bomb.
    @Suite struct WatermarkServerTests {
        static func fixture() throws -> ServerFixture {
            let fixture = try ServerFixture(adjust: { settings, origin, folder in
                settings.watermark = origin.url("img/wm.png")
                ServerFixture.enableDialects(&settings, origin: origin)
                settings.dialects.thumbor.allowUnsafe = true
                try? Self.bomb().write(to: folder.appendingPathComponent("bomb.png"))
                try? Self.ninePatch().write(to: folder.appendingPathComponent("frame.png"))
            })
            return fixture
        }

        /// A 1×1 PNG whose header says 60000 × 60000 (3.6 gigapixels, over `maxSourcePixels`), its CRC correct.
        static func bomb() throws -> Data {
            let image = DecodedImage(raster: try Raster(width: 1, height: 1, fill: RGBA(1, 2, 3)), format: .png)
            let png = try PluginRegistry.standard().encoder(for: .png)!.encode(image, options: .default)
            return PNGBytes.declaringSize(png, width: 60_000, height: 60_000)
        }

        /// A 5 × 5 nine-patch: red corners, the middle column and row stretching (transparent), 1 px of padding
        /// each side.
        static func ninePatch() throws -> Data {
            var pixels = [UInt8](repeating: 0, count: 7 * 7 * 4)
            for y in 0..<7 {
                for x in 0..<7 {
                    let index = (y * 7 + x) * 4
                    let mark =
                        (y == 0 && x == 3) || (x == 0 && y == 3) || (y == 6 && (2...4).contains(x))
                        || (x == 6 && (2...4).contains(y))
                    let inner = (1...5).contains(x) && (1...5).contains(y) && x != 3 && y != 3
                    if mark { pixels[index + 3] = 255 }
                    if inner { (pixels[index], pixels[index + 3]) = (255, 255) }
                }
            }
            let image = DecodedImage(raster: try Raster(width: 7, height: 7, pixels: pixels), format: .png)
            return try PluginRegistry.standard().encoder(for: .png)!.encode(image, options: .default)
        }

        /// `text` in base64url without padding, as Imago's grammar names a URL.
        static func base64URL(_ text: String) -> String { Base64URL.encode(Array(text.utf8)) }

        /// big.png's pixel at (x, y).
        func gradient(_ x: Int, _ y: Int) -> RGBA { RGBA(UInt8(x * 255 / 299), UInt8(y * 255 / 299), 128, 255) }

        @Test func thumborsMarkIsFetchedFromTheOriginAndKeyed() async throws {
            let fixture = try Self.fixture()
            // wm.png (10×10 red) 10 px from the left, at the bottom (-0).
            let target = "/tb/unsafe/filters:format(png):watermark(wm.png,10,-0,0)/big.png"
            let response = try await fixture.get(target)
            #expect(response.status == 200, "\(response.text)")
            let raster = try ServerFixture.decode(response.body).raster
            #expect(raster.width == 300 && raster.height == 300)
            #expect(raster[10, 290] == RGBA(255, 0, 0) && raster[19, 299] == RGBA(255, 0, 0))
            #expect(raster[9, 295] == gradient(9, 295) && raster[20, 295] == gradient(20, 295))
            #expect(raster[15, 289] == gradient(15, 289))
            // Again: the result cache; another mark (logo.png) is another key and another picture.
            let again = try await fixture.get(target)
            #expect(again.body == response.body)
            #expect(fixture.log.contains { $0.path == target && $0.cache == "result" })
            let other = try await fixture.get("/tb/unsafe/filters:format(png):watermark(logo.png,10,-0,0)/big.png")
            #expect(other.status == 200 && other.body != response.body)
            // repeat,repeat with a transparency of 50: 30 × 30 copies are over thumbor's cap, so six a side,
            // 48 px apart; each red at alpha 128.
            let tiled = try ServerFixture.decode(
                try await fixture.get("/tb/unsafe/filters:format(png):watermark(wm.png,repeat,repeat,50)/big.png")
                    .body
            ).raster
            for x in [0, 58, 116, 174, 232, 290] {
                let pixel = Int(tiled[x + 5, 63].r)
                let under = Int(gradient(x + 5, 63).r)
                let blended = (255 * 128 + under * 127) / 255
                #expect(abs(pixel - blended) <= 1, "\(x): \(pixel), expected \(blended)")
            }
            #expect(tiled[30, 30] == gradient(30, 30))
        }

        @Test func imgproxysOffsetsAndTilesAndImagosMarkURL() async throws {
            let fixture = try Self.fixture()
            func image(_ target: String) async throws -> Raster {
                let response = try await fixture.get(target)
                #expect(response.status == 200, "\(target): \(response.text)")
                return try ServerFixture.decode(response.body).raster
            }
            // South-east, 7 px from the right and 3 from the bottom.
            var raster = try await image(fixture.signedImgproxy("wm:1:soea:7:3/f:png", "big.png"))
            #expect(raster[283, 287] == RGBA(255, 0, 0) && raster[292, 296] == RGBA(255, 0, 0))
            #expect(raster[293, 296] == gradient(293, 296) && raster[282, 287] == gradient(282, 287))
            // re with 10 px gaps: tiles of 20, fifteen a side, starting at 5.
            raster = try await image(fixture.signedImgproxy("wm:1:re:10:10/f:png", "big.png"))
            #expect(raster[5, 5] == RGBA(255, 0, 0) && raster[25, 145] == RGBA(255, 0, 0))
            #expect(raster[0, 0] == gradient(0, 0) && raster[15, 15] == gradient(15, 15))
            // A scale of 0.5 on a 300×100 result: the square mark fits 150×50, so 50×50 at the top left.
            raster = try await image(fixture.signedImgproxy("rs:force:300:100/wm:1:nowe:0:0:0.5/f:png", "big.png"))
            #expect(raster.width == 300 && raster.height == 100)
            #expect(raster[0, 0] == RGBA(255, 0, 0) && raster[49, 49] == RGBA(255, 0, 0))
            #expect(raster[50, 10] != RGBA(255, 0, 0) && raster[10, 50] != RGBA(255, 0, 0))
            // Imago's grammar names the mark by URL (base64url): wm.png, 4 px from the left and 6 from the top.
            let url = Self.base64URL(fixture.origin.url("img/wm.png"))
            raster = try await image(fixture.path("f=png,wm=1:nw:off:4:6:src:\(url)", origin: "img/big.png"))
            #expect(raster[4, 6] == RGBA(255, 0, 0) && raster[13, 15] == RGBA(255, 0, 0))
            #expect(raster[3, 6] == gradient(3, 6) && raster[14, 15] == gradient(14, 15))
        }

        @Test func thumborsFrameDrawsTheNinePatchFromTheOrigin() async throws {
            let fixture = try Self.fixture()
            let response = try await fixture.get("/tb/unsafe/filters:format(png):frame(frame.png)/big.png")
            #expect(response.status == 200, "\(response.text)")
            let raster = try ServerFixture.decode(response.body).raster
            // 1 px of padding each side; 2 px red corners; the picture through the transparent middle, 1 px in.
            #expect(raster.width == 302 && raster.height == 302)
            #expect(raster[0, 0] == RGBA(255, 0, 0) && raster[301, 301] == RGBA(255, 0, 0))
            #expect(raster[150, 150] == gradient(149, 149))
            // Imago's grammar names it by URL; outside allowedSources it is refused before any fetch.
            let url = Self.base64URL(fixture.origin.url("img/frame.png"))
            let own = try await fixture.get(fixture.path("f=png,ninepatch=\(url)", origin: "img/big.png"))
            #expect(own.status == 200 && own.body == response.body, "\(own.text)")
            let refused = try await fixture.get("/tb/unsafe/filters:frame(http://169.254.169.254/f.png)/big.png")
            #expect(refused.status == 403, "\(refused.text)")
            let broken = try await fixture.get("/tb/unsafe/filters:frame(notes.png)/big.png")
            #expect(broken.status == 400 && broken.text.contains("frame(notes.png)"), "\(broken.text)")
        }

        @Test func hostileMarksAreTyped4xxAndTheServerStaysUp() async throws {
            let fixture = try Self.fixture()
            let port = fixture.origin.port
            let redirect = "http%3A%2F%2F127.0.0.1%3A\(port)%2Fredirect%3Fto%3Dhttp%3A%2F%2F169.254.169.254%2Fa.png"
            let before = try await fixture.origin.count()
            let refusedBeforeFetching: [(String, Int)] = [
                ("watermark(http://127.0.0.2:\(port)/img/wm.png,0,0,0)", 403),  // outside allowedSources
                ("watermark(http://169.254.169.254/latest,0,0,0)", 403),
                ("watermark(..%2F..%2Fetc%2Fpasswd,0,0,0)", 400),  // out of loaderBase
                ("watermark(file:%2F%2F%2Fetc%2Fpasswd,0,0,0)", 400),
            ]
            for (filter, status) in refusedBeforeFetching {
                let response = try await fixture.get("/tb/unsafe/filters:\(filter)/big.png")
                #expect(response.status == status, "\(filter): \(response.text)")
            }
            #expect(try await fixture.origin.count() == before, "nothing was fetched")
            let refused: [(String, Int, String)] = [
                ("watermark(\(redirect),0,0,0)", 403, "redirect"),  // a redirect hop to a private address
                ("watermark(notes.png,0,0,0)", 400, "watermark"),  // not an image
                ("watermark(nope.png,0,0,0)", 400, "watermark"),  // missing: thumbor's 400
                ("watermark(bomb.png,0,0,0)", 400, "limit"),  // 3.6 gigapixels, refused before decoding
            ]
            for (filter, status, named) in refused {
                let response = try await fixture.get("/tb/unsafe/filters:\(filter)/big.png")
                #expect(response.status == status, "\(filter): \(response.text)")
                #expect(response.text.contains(named), "\(filter): \(response.text)")
            }
            let health = try await fixture.get("/health")
            #expect(health.status == 200)
            let fine = try await fixture.get("/tb/unsafe/filters:watermark(wm.png,0,0,0)/big.png")
            #expect(fine.status == 200, "\(fine.text)")
        }
    }
}
