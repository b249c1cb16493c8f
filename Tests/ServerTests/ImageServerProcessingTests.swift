import Foundation
import Imago
import Testing

@testable import ImagoServer

extension ServerIntegrationTests {
    /// Issue 24's options through a real `imago serve`: exact pixels on PNG output for the geometric ones.
    @Suite struct ImageServerProcessingTests {
        /// big.png's pixel at (x, y): the fixture's gradient.
        func gradient(_ x: Int, _ y: Int) -> RGBA { RGBA(UInt8(x * 255 / 299), UInt8(y * 255 / 299), 128, 255) }

        func image(_ fixture: ServerFixture, _ options: String, _ name: String) async throws -> DecodedImage {
            let response = try await fixture.get(fixture.path(options, origin: "img/\(name)"))
            #expect(response.status == 200, "\(options): \(response.text)")
            return try ServerFixture.decode(response.body)
        }

        static func processingFixture() throws -> ServerFixture {
            try ServerFixture(
                adjust: { settings, _, folder in
                    settings.watermark = folder.appendingPathComponent("wm.png").path
                    settings.fallbackImage = folder.appendingPathComponent("fallback.png").absoluteString
                },
                configure: { configuration in
                    configuration.processing["card"] = [
                        PluginSpec("options", settings: .object(["options": .string("w=30,h=20,fit=cover,f=png")]))
                    ]
                })
        }

        @Test func cropRotateFlipPadAndTrimAreExact() async throws {
            let fixture = try Self.processingFixture()
            let crop = try await image(fixture, "crop=10:20:50:40,f=png", "big.png").raster
            #expect(crop.width == 50 && crop.height == 40)
            #expect((0..<40).allSatisfy { y in (0..<50).allSatisfy { x in crop[x, y] == gradient(10 + x, 20 + y) } })
            let rotated = try await image(fixture, "crop=10:20:50:40,rot=90,f=png", "big.png").raster
            #expect(rotated.width == 40 && rotated.height == 50)
            #expect((0..<50).allSatisfy { y in (0..<40).allSatisfy { x in rotated[x, y] == crop[y, 39 - x] } })
            let flipped = try await image(fixture, "flip=h,crop=10:20:50:40,f=png", "big.png").raster
            #expect((0..<40).allSatisfy { y in (0..<50).allSatisfy { x in flipped[x, y] == crop[49 - x, y] } })
            let padded = try await image(fixture, "crop=10:20:50:40,pad=3:4:5:6,bg=0000ff,f=png", "big.png").raster
            #expect(padded.width == 60 && padded.height == 48)
            #expect(padded[0, 0] == RGBA(0, 0, 255) && padded[59, 47] == RGBA(0, 0, 255))
            #expect((0..<40).allSatisfy { y in (0..<50).allSatisfy { x in padded[6 + x, 3 + y] == crop[x, y] } })
            let fractions = try await image(fixture, "crop=0.1:0.2:0.5:0.25,f=png", "big.png").raster
            #expect(fractions.width == 150 && fractions.height == 75 && fractions[0, 0] == gradient(30, 60))
            let trimmed = try await image(fixture, "trim=10,f=png", "border.png").raster
            #expect(trimmed.width == 10 && trimmed.height == 8 && trimmed[5, 4] == RGBA(0, 0, 0))
            // Outside the image: clamped to what is inside; nothing inside is a 400.
            let clamped = try await image(fixture, "crop=290:290:50:50,f=png", "big.png").raster
            #expect(clamped.width == 10 && clamped.height == 10)
            let outside = try await fixture.get(fixture.path("crop=400:0:10:10", origin: "img/big.png"))
            #expect(outside.status == 400)
            // Named as written, not by the processor's identifier (`crop(400,0,10x10,clamp)`).
            #expect(outside.text.contains("option \"crop=400:0:10:10\"") && !outside.text.contains("crop("))
            let extended = try await fixture.get(fixture.path("w=100,ext=1", origin: "img/big.png"))
            #expect(extended.status == 400 && extended.text.contains("\"ext=1\""), "\(extended.text)")
        }

        @Test func smartGravityKeepsTheSalientObject() async throws {
            let fixture = try Self.processingFixture()
            func redPixels(_ options: String) async throws -> Int {
                let raster = try await image(fixture, options, "salient.png").raster
                #expect(raster.width == 100 && raster.height == 100)
                return (0..<100).reduce(0) { sum, y in
                    sum + (0..<100).filter { x in raster[x, y].r > 200 && raster[x, y].b < 60 }.count
                }
            }
            #expect(try await redPixels("w=100,h=100,fit=cover,g=sm,f=png") > 2000)
            #expect(try await redPixels("w=100,h=100,fit=cover,f=png") == 0)
            #expect(try await redPixels("w=100,h=100,fit=cover,g=e,f=png") > 2000)
        }

        @Test func blurWatermarkAndPresets() async throws {
            let fixture = try Self.processingFixture()
            let source = try ServerFixture.decode(
                try Data(contentsOf: fixture.folder.appendingPathComponent("big.png")))
            let blurred = try await image(fixture, "w=100,blur=2,f=png", "big.png").raster
            let expected = try ProcessingOptions(parsing: "w=100,blur=2").processors().reduce(source) {
                try $1.process($0)
            }
            #expect(blurred == expected.raster)
            let marked = try await image(fixture, "w=100,wm=1:se,f=png", "big.png").raster
            #expect(marked[95, 95] == RGBA(255, 0, 0) && marked[89, 89] != RGBA(255, 0, 0))
            let scaled = try await image(fixture, "w=100,wm=1:nw:0.5,f=png", "big.png").raster
            #expect(scaled[45, 45] == RGBA(255, 0, 0) && scaled[55, 55] != RGBA(255, 0, 0))
            let card = try await fixture.get(fixture.path("pr=card", origin: "img/big.png"))
            #expect(card.status == 200 && card.header("Content-Type") == "image/png")
            let cardImage = try ServerFixture.decode(card.body)
            #expect(cardImage.width == 30 && cardImage.height == 20)
            let unknown = try await fixture.get(fixture.path("pr=nope", origin: "img/big.png"))
            #expect(unknown.status == 400 && unknown.text.contains("nope"))
            let plain = try ServerFixture()
            let noWatermark = try await plain.get(plain.path("wm=1:se", origin: "img/big.png"))
            #expect(noWatermark.status == 400 && noWatermark.text.contains("wm"))
        }

        @Test func maxBytesLowersQualityOrAnswers422() async throws {
            let fixture = try Self.processingFixture()
            let full = try await fixture.get(fixture.path("q=95,f=jpeg", origin: "img/big.png"))
            #expect(full.status == 200)
            let limit = full.body.count * 6 / 10
            let fitted = try await fixture.get(fixture.path("q=95,f=jpeg,maxb=\(limit)", origin: "img/big.png"))
            #expect(fitted.status == 200 && fitted.body.count <= limit && fitted.body.count > 0)
            #expect(try ServerFixture.decode(fitted.body).width == 300)
            let tiny = try await fixture.get(fixture.path("f=jpeg,maxb=100", origin: "img/big.png"))
            #expect(tiny.status == 422 && tiny.text.contains("maxb=100"))
            let lossless = try await fixture.get(fixture.path("f=png,maxb=100", origin: "img/big.png"))
            #expect(lossless.status == 422)
        }

        @Test func expiryFormatsAndOnlyPresets() async throws {
            let fixture = try Self.processingFixture()
            let expired = try await fixture.get(fixture.path("w=10,exp=1000", origin: "img/big.png"))
            #expect(expired.status == 410 && expired.text.contains("exp=1000"))
            let future = try await fixture.get(fixture.path("w=10,exp=9999999999", origin: "img/big.png"))
            #expect(future.status == 200)
            for (name, type) in [("jxl", "image/jxl"), ("heic", "image/heic")] {
                let response = try await fixture.get(fixture.path("w=40,f=\(name)", origin: "img/big.png"))
                #expect(response.status == 200 && response.header("Content-Type") == type)
                #expect(try ServerFixture.decode(response.body).width == 40)
            }
            let only = try ServerFixture(
                adjust: { settings, _, _ in settings.onlyPresets = true },
                configure: {
                    $0.processing["small"] = [PluginSpec("options", settings: .object(["options": .string("w=12")]))]
                })
            #expect(try await only.get(only.path("w=10", origin: "img/big.png")).status == 400)
            let preset = try await only.get(only.path("pr=small", origin: "img/big.png"))
            #expect(preset.status == 200)
            #expect(try ServerFixture.decode(preset.body).width == 12)
        }

        @Test func lastModifiedAndIfModifiedSince() async throws {
            let fixture = try Self.processingFixture()
            let path = fixture.path("w=20", origin: "lm/big.png")
            let first = try await fixture.get(path)
            #expect(first.status == 200 && first.header("Last-Modified") == "Wed, 21 Oct 2015 07:28:00 GMT")
            let same = try await fixture.get(path, headers: ["If-Modified-Since": "Wed, 21 Oct 2015 07:28:00 GMT"])
            #expect(same.status == 304 && same.body.isEmpty)
            let later = try await fixture.get(path, headers: ["If-Modified-Since": "Thu, 01 Jan 2026 00:00:00 GMT"])
            #expect(later.status == 304)
            let earlier = try await fixture.get(path, headers: ["If-Modified-Since": "Tue, 20 Oct 2015 07:28:00 GMT"])
            #expect(earlier.status == 200 && !earlier.body.isEmpty)
            // If-None-Match wins over If-Modified-Since.
            let etagMiss = try await fixture.get(
                path, headers: ["If-None-Match": "\"other\"", "If-Modified-Since": "Thu, 01 Jan 2026 00:00:00 GMT"])
            #expect(etagMiss.status == 200)
            let noDate = try await fixture.get(fixture.path("w=20", origin: "img/big.png"))
            #expect(noDate.header("Last-Modified") == nil)
        }

        @Test func fallbackImageReplacesAMissingSource() async throws {
            let fixture = try Self.processingFixture()
            let response = try await fixture.get(fixture.path("w=20,f=png", origin: "img/missing.png"))
            #expect(response.status == 200 && response.header("Cache-Control") == "public, max-age=60")
            let image = try ServerFixture.decode(response.body)
            #expect(image.width == 20 && image.height == 15 && image.raster[3, 3] == RGBA(0, 255, 0))
            let notImage = try await fixture.get(fixture.path("w=20,f=png", origin: "img/notes.png"))
            #expect(notImage.status == 200)
            #expect(try ServerFixture.decode(notImage.body).raster[1, 1] == RGBA(0, 255, 0))
            // A bad option is still the request's own 400.
            #expect(try await fixture.get(fixture.path("w=0", origin: "img/missing.png")).status == 400)
            let plain = try ServerFixture()
            #expect(try await plain.get(plain.path("w=20", origin: "img/missing.png")).status == 404)
        }
    }
}
