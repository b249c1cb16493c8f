import Foundation
import Imago
import Testing

@testable import ImagoServer

extension ServerIntegrationTests {
    /// `GET /info/…`: the JSON fields, signed like images, with the hashes checked by the reference decoders.
    @Suite struct ImageServerInfoTests {
        func info(_ fixture: ServerFixture, _ options: String, _ name: String) async throws -> [String: Any] {
            let response = try await fixture.get("/info" + fixture.path(options, origin: "img/\(name)"))
            #expect(response.status == 200 && response.header("Content-Type") == "application/json", "\(response.text)")
            return try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        }

        @Test func reportsTheFieldsOfTheDecodedAndProcessedImage() async throws {
            let fixture = try ServerFixture()
            let big = try await info(fixture, "-", "big.png")
            #expect(big["format"] as? String == "png" && big["width"] as? Int == 300 && big["height"] as? Int == 300)
            #expect(
                big["frames"] as? Int == 1 && big["durations"] as? [Double] == [0] && big["orientation"] as? Int == 1)
            #expect(big["hasAlpha"] as? Bool == false && big["iccProfile"] is NSNull)
            let bytes = try Data(contentsOf: fixture.folder.appendingPathComponent("big.png")).count
            #expect(big["bytes"] as? Int == bytes)
            let resized = try await info(fixture, "w=100,rot=90,crop=0:0:300:150", "big.png")
            #expect(resized["width"] as? Int == 50 && resized["height"] as? Int == 100)
            let logo = try await info(fixture, "-", "logo.png")
            #expect(logo["hasAlpha"] as? Bool == true)
            let anim = try await info(fixture, "-", "anim.gif")
            #expect(anim["frames"] as? Int == 3 && anim["durations"] as? [Double] == [0.1, 0.1, 0.1])
            #expect(try await fixture.get("/info" + fixture.path("w=0", origin: "img/big.png")).status == 400)
            #expect(try await fixture.get("/info" + fixture.path("-", origin: "img/missing.png")).status == 404)
        }

        /// `/info` is a peer of images in the handler chain: the same result tiers, under a key of its own.
        @Test func isKeptInTheResultCacheUnderAKeyOfItsOwn() async throws {
            let fixture = try ServerFixture()
            let path = fixture.path("w=30", origin: "img/photo.jpg")
            let first = try await fixture.get("/info" + path)
            let second = try await fixture.get("/info" + path)
            #expect(first.status == 200 && second.body == first.body)
            // The image of the same options is no /info answer: it is rendered, from the data cache or the source.
            let image = try await fixture.get(path)
            #expect(image.status == 200 && image.header("Content-Type") == "image/jpeg")
            #expect(fixture.log.map(\.cache).prefix(2) == ["network", "result"], "\(fixture.log.map(\.line))")
            #expect(fixture.log.last?.cache != "result")
        }

        @Test func hashesDecodeWithTheReferenceDecodersToTheAverageColour() async throws {
            let fixture = try ServerFixture()
            for name in ["big.png", "photo.jpg"] {
                let fields = try await info(fixture, "-", name)
                let thumbhash = try #require(fields["thumbhash"] as? String)
                let blurhash = try #require(fields["blurhash"] as? String)
                #expect(blurhash.count == 4 + 2 * 4 * 3)
                let data = try Data(contentsOf: fixture.folder.appendingPathComponent(name))
                let raster = try PluginRegistry.standard().decoder(for: data, limits: .default).decode(data).raster
                let averages = try ReferenceDecoders.averages(thumbhash: thumbhash, blurhash: blurhash)
                let expected = ReferenceDecoders.average(raster)
                for channel in 0..<3 {
                    #expect(abs(averages.thumbhash[channel] - expected[channel]) <= 8, "\(name) thumbhash \(channel)")
                    #expect(abs(averages.blurhash[channel] - expected[channel]) <= 8, "\(name) blurhash \(channel)")
                }
            }
        }

        @Test func stripDropsOrKeepsTheProfileAndInfoNamesIt() async throws {
            let fixture = try ServerFixture()
            let registry = PluginRegistry.standard()
            let profile = try Data(contentsOf: URL(fileURLWithPath: "/usr/share/color/icc/colord/AdobeRGB1998.icc"))
            var image = DecodedImage(raster: try Raster(width: 20, height: 10, fill: RGBA(200, 100, 50)), format: .png)
            image.iccProfile = profile
            let png = try #require(registry.encoder(for: .png)).encode(image, options: .default)
            try png.write(to: fixture.folder.appendingPathComponent("adobe.png"))
            let fields = try await info(fixture, "-", "adobe.png")
            #expect((fields["iccProfile"] as? String)?.contains("Adobe") == true, "\(fields["iccProfile"] ?? "-")")
            func outputProfile(_ options: String) async throws -> Data? {
                let response = try await fixture.get(fixture.path(options, origin: "img/adobe.png"))
                #expect(response.status == 200)
                let decoder = try registry.decoder(for: response.body, limits: .default)
                return try decoder.decode(response.body, options: DecodeOptions(colorProfiles: .keep)).iccProfile
            }
            #expect(try await outputProfile("f=png") == nil)
            #expect(try await outputProfile("f=png,strip=0") == profile)
            #expect(try await outputProfile("f=jpeg,strip=0") == profile)
        }

        @Test func isSignedLikeImages() async throws {
            let fixture = try ServerFixture(adjust: { settings, _, _ in settings.signingKeys = ["secret"] })
            let rest = String(fixture.path("w=10", origin: "img/big.png").dropFirst("/unsafe".count))
            #expect(try await fixture.get("/info/unsafe" + rest).status == 403)
            let signed = URLSigner(keys: ["secret"]).signedPath(rest)
            #expect(try await fixture.get("/info" + signed).status == 200)
        }
    }
}
