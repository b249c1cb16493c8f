import Foundation
import Imago
import Testing

@testable import ImagoServer

/// `serve.autoQuality` and `serve.bestFormats`: read, written back, and checked at start.
@Suite struct ServeSettingsQualityTests {
    func settings(_ text: String) throws -> ServeSettings {
        try ServeSettings(json: try JSONValue.parse(Data(text.utf8)))
    }

    @Test func readsWritesBackAndRefusesBadValues() throws {
        let read = try settings(
            #"{"autoQuality": {"target": 0.015, "min": 40, "max": 90}, "bestFormats": ["webp", "jpeg"]}"#)
        #expect(read.autoQuality == AutoQuality(target: 0.015, minQuality: 40, maxQuality: 90))
        #expect(read.bestFormats == [.webp, .jpeg])
        #expect(try ServeSettings(json: read.json).autoQuality == read.autoQuality)
        #expect(try ServeSettings(json: read.json).bestFormats == read.bestFormats)
        #expect(
            ServeSettings().autoQuality == AutoQuality() && ServeSettings().bestFormats == BestFormat.preferredOrder)
        for bad in [
            #"{"autoQuality": {"target": 0}}"#, #"{"autoQuality": {"target": 1}}"#,
            #"{"autoQuality": {"min": 90, "max": 40}}"#, #"{"autoQuality": {"maximum": 40}}"#,
            #"{"bestFormats": []}"#, #"{"bestFormats": ["bmp"]}"#, #"{"bestFormats": ["webp", "webp"]}"#,
        ] {
            #expect(throws: ImagoError.self, "\(bad)") { try settings(bad) }
        }
    }

    @Test func bestFormatsAreTheAcceptedOnesInOrderWithJPEGAndPNG() {
        let settings = ServeSettings()
        #expect(settings.bestFormats(accept: "image/avif,image/webp,*/*") == ["avif", .webp, .jpeg, .png])
        #expect(settings.bestFormats(accept: "image/jxl, image/webp;q=0") == ["jxl", .jpeg, .png])
        #expect(settings.bestFormats(accept: nil) == [.jpeg, .png])
    }
}

extension ServerIntegrationTests {
    /// `q=auto` and `f=best` through `imago serve`: the header, `/info`, the encodes in `/metrics`, `Vary`, bad
    /// input, and decisions shared by two processes over one result store.
    @Suite struct ImageServerQualityTests {
        /// A textured 240×160 image (a photograph's mix of smooth and busy areas) in the fixture's folder.
        static func writeTexture(to folder: URL, name: String = "texture.png", alpha: Bool = false) throws {
            var pixels: [UInt8] = []
            var seed: UInt32 = 12_345
            for y in 0..<160 {
                for x in 0..<240 {
                    seed = seed &* 1_103_515_245 &+ 12_345
                    let noise = Int(seed >> 24) % 48
                    let wave = Int(60 * sin(Double(x) / 7) + 50 * cos(Double(y) / 11))
                    let value = { (base: Int) in UInt8(clamping: base + wave + (x < 120 ? noise : noise / 8)) }
                    pixels += [value(110), value(90), value(70), alpha ? UInt8(clamping: 100 + x / 2) : 255]
                }
            }
            let raster = try Raster(width: 240, height: 160, pixels: pixels)
            let data = try PluginRegistry.standard().encoder(for: .png)!.encode(
                DecodedImage(raster: raster, format: .png), options: .default)
            try data.write(to: folder.appendingPathComponent(name))
        }

        static func metric(_ fixture: ServerFixture, _ name: String) async throws -> Int {
            let text = try await fixture.get("/metrics").text
            let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
            return line.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
        }

        /// `q=NN; dssim=0.0NNN` read back (`q=NN` alone for a quality given, unmeasured).
        static func decision(_ response: RawResponse, measured: Bool = true) throws -> (quality: Int, dssim: Double) {
            let value = try #require(response.header("Imago-Quality"), "no Imago-Quality header")
            let parts = value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            let quality = try #require(Int(parts[0].dropFirst(2)), "\(value)")
            guard measured else {
                #expect(parts.count == 1, "\(value)")
                return (quality, 0)
            }
            #expect(parts.count == 2, "\(value)")
            #expect(parts.last?.range(of: #"^dssim=0\.\d{4}$"#, options: .regularExpression) != nil, "\(value)")
            return (quality, try #require(Double(parts.last?.dropFirst(6) ?? "")))
        }

        @Test func qAutoSaysWhatItChoseAndCountsItsEncodes() async throws {
            let fixture = try ServerFixture { settings, _, _ in settings.dialects.imgproxy.enabled = true }
            try Self.writeTexture(to: fixture.folder)
            let response = try await fixture.get(fixture.path("q=auto,f=webp", origin: "img/texture.png"))
            #expect(response.status == 200 && response.header("Content-Type") == "image/webp", "\(response.text)")
            let (quality, dssim) = try Self.decision(response)
            #expect((30...95).contains(quality) && dssim <= AutoQuality.defaultTarget, "q=\(quality) dssim=\(dssim)")
            // The header tells the truth: the body decoded is that far from the image before encoding.
            let source = try Data(contentsOf: fixture.folder.appendingPathComponent("texture.png"))
            let registry = PluginRegistry.standard()
            let original = try registry.decoder(for: source, limits: .default).decode(source).raster
            let output = try registry.decoder(for: response.body, limits: .default).decode(response.body).raster
            #expect(abs(try DSSIM.between(original, output) - dssim) < 0.00006)
            let encodes = try await Self.metric(fixture, #"imago_encodes_total{format="webp"}"#)
            #expect((1...AutoQuality.defaultMaxEncodes).contains(encodes), "\(encodes) encodes")
            // A stricter target in the URL answers a higher quality; a fixed quality has no header, one encode.
            let strict = try await fixture.get(fixture.path("q=auto:0.004,f=webp", origin: "img/texture.png"))
            #expect(try Self.decision(strict).quality > quality)
            let fixed = try await fixture.get(fixture.path("q=70,f=jpeg", origin: "img/texture.png"))
            #expect(fixed.status == 200 && fixed.header("Imago-Quality") == nil)
            #expect(try await Self.metric(fixture, #"imago_encodes_total{format="jpeg"}"#) == 1)
            // Without f, a source with no quality to search (PNG) is answered in WebP.
            let own = try await fixture.get(fixture.path("q=auto", origin: "img/texture.png"))
            #expect(own.header("Content-Type") == "image/webp" && own.header("Imago-Quality") != nil)
            let photo = try await fixture.get(fixture.path("q=auto", origin: "img/photo.jpg"))
            #expect(photo.header("Content-Type") == "image/jpeg" && photo.header("Imago-Quality") != nil)
            // The same through imgproxy's Pro spelling, and /info reports the same decision.
            let proxied = try await fixture.get(
                "/ip/unsafe/aq:dssim:0.004/f:webp/plain/" + ServerFixture.encode(fixture.origin.url("img/texture.png")))
            #expect(proxied.status == 200 && proxied.body == strict.body, "\(proxied.status) \(proxied.text)")
            #expect(proxied.header("Imago-Quality") == strict.header("Imago-Quality"))
            let info = try await fixture.get("/info" + fixture.path("q=auto,f=webp", origin: "img/texture.png"))
            let fields = try #require(try JSONSerialization.jsonObject(with: info.body) as? [String: Any])
            let reported = try #require(fields["quality"] as? [String: Any], "\(info.text)")
            #expect(reported["header"] as? String == response.header("Imago-Quality"))
            #expect(reported["format"] as? String == "webp" && reported["q"] as? Int == quality)
        }

        @Test func fBestChoosesAmongWhatTheClientAcceptsAndVaries() async throws {
            let fixture = try ServerFixture()
            try Self.writeTexture(to: fixture.folder)
            try Self.writeTexture(to: fixture.folder, name: "alpha.png", alpha: true)
            let path = fixture.path("f=best", origin: "img/texture.png")
            let chromium = try await fixture.get(
                path, headers: ["Accept": "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"])
            #expect(chromium.status == 200 && chromium.header("Vary") == "Accept", "\(chromium.text)")
            let type = try #require(chromium.header("Content-Type"))
            #expect(["image/avif", "image/webp", "image/jpeg"].contains(type))
            #expect(chromium.header("Imago-Quality") != nil)
            let plain = try await fixture.get(path, headers: ["Accept": "image/jpeg"])
            #expect(plain.header("Content-Type") == "image/jpeg" && plain.header("Vary") == "Accept")
            #expect(chromium.body.count <= plain.body.count || type == "image/jpeg")
            let alpha = try await fixture.get(fixture.path("f=best", origin: "img/alpha.png"))
            #expect(alpha.header("Content-Type") == "image/png" && alpha.header("Imago-Quality") == nil)
            // With a quality given, every candidate is encoded once at it.
            let fixed = try await fixture.get(
                fixture.path("f=best,q=60", origin: "img/texture.png"), headers: ["Accept": "image/webp"])
            #expect(["image/webp", "image/jpeg"].contains(fixed.header("Content-Type") ?? ""))
            #expect(try Self.decision(fixed, measured: false).quality == 60)
        }

        @Test func badTargetsRangesAndFormatsAre400WithTheReason() async throws {
            let fixture = try ServerFixture { settings, _, _ in
                settings.autoQuality = AutoQuality(target: 0.021, minQuality: 30, maxQuality: 60)
            }
            let cases = [
                ("q=auto:1.5", "DSSIM target"), ("q=auto:0.02:90:40", "minimum first"),
                ("q=auto,f=png", "png has no quality"), ("q=auto,f=gif", "gif has no quality"),
                ("q=auto:-:70:-", "70...60"), ("q=auto,maxb=5000", "both choose the quality"),
            ]
            for (options, reason) in cases {
                let response = try await fixture.get(fixture.path(options, origin: "img/photo.jpg"))
                #expect(response.status == 400 && response.text.contains(reason), "\(options): \(response.text)")
            }
            #expect(try await Self.metric(fixture, "imago_renders_total") == 0)
            // serve.autoQuality bounds what the URL leaves out.
            try Self.writeTexture(to: fixture.folder)
            let bounded = try await fixture.get(fixture.path("q=auto:0.002,f=webp", origin: "img/texture.png"))
            #expect(bounded.status == 200, "\(bounded.text)")
            let quality = try Self.decision(bounded).quality
            #expect(quality <= 60, "q=\(quality)")
        }

        /// Two `imago serve` processes over one disk result store whose results expire at once (`cacheMaxAge`
        /// 0): the decision outlives the result, so the second process, and the first again, encode once.
        @Test func aDecisionIsPaidForOncePerFleet() async throws {
            let store = FileManager.default.temporaryDirectory.appendingPathComponent("imago-store-\(UUID())")
            defer { try? FileManager.default.removeItem(at: store) }
            let spec = JSONValue.object([
                "name": .string("disk"), "settings": .object(["directory": .string(store.path)]),
            ])
            let first = try ServerFixture { settings, _, _ in
                (settings.resultStore, settings.cacheMaxAge, settings.resultCacheBytes) = (spec, 0, 0)
            }
            try Self.writeTexture(to: first.folder)
            let second = try ServerFixture { settings, _, _ in
                (settings.resultStore, settings.cacheMaxAge, settings.resultCacheBytes) = (spec, 0, 0)
                settings.allowedSources.append(first.origin.prefix)
            }
            for (options, format) in [("q=auto,f=webp,w=200", "webp"), ("q=auto:0.01,f=jpeg", "jpeg")] {
                let path = first.path(options, origin: "img/texture.png")
                let name = "imago_encodes_total{format=\"\(format)\"}"
                let searched = try await first.get(path)
                #expect(searched.status == 200, "\(searched.text)")
                let searches = try await Self.metric(first, name)
                let known = try await second.get(path)
                #expect(known.status == 200 && known.header("Content-Type") == "image/\(format)")
                #expect(try await Self.metric(second, name) == 1, "the second process searched again")
                // The same quality, and the same output measured again.
                #expect(try Self.decision(known).quality == Self.decision(searched).quality)
                #expect(known.body == searched.body)
                _ = try await first.get(path)
                #expect(try await Self.metric(first, name) == searches + 1)
            }
            // f=best: the format and the quality are both known.
            let best = first.path("f=best", origin: "img/texture.png")
            let accept = ["Accept": "image/webp"]
            let chosen = try await first.get(best, headers: accept)
            let format = String((chosen.header("Content-Type") ?? "").dropFirst("image/".count))
            let name = "imago_encodes_total{format=\"\(format)\"}"
            let before = try await Self.metric(second, name)
            let known = try await second.get(best, headers: accept)
            #expect(known.header("Content-Type") == chosen.header("Content-Type") && known.body == chosen.body)
            #expect(try await Self.metric(second, name) == before + 1)
        }
    }
}
