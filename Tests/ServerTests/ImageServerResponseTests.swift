import Foundation
import Imago
import ImagoTestSupport
import Testing

@testable import ImagoServer

#if canImport(Glibc)
    import Glibc
#endif

extension ServerIntegrationTests {
    /// 200s: the image, its head, HEAD, ETag/304, Vary, formats and resizing.
    @Suite struct ImageServerResponseTests {
        @Test func resizesAJPEGAndSendsTheContractHead() async throws {
            let fixture = try ServerFixture()
            let response = try await fixture.get(fixture.path("w=50", origin: "img/photo.jpg"))
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "image/jpeg")
            #expect(response.header("Content-Length") == String(response.body.count))
            #expect(response.header("Cache-Control") == "public, max-age=31536000")
            #expect(response.header("Vary") == nil)
            let etag = try #require(response.header("ETag"))
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && !etag.hasPrefix("W/"))
            let image = try ServerFixture.decode(response.body)
            #expect(image.format == .jpeg)
            #expect((image.width, image.height) == (50, 25))
        }

        @Test func headHasTheSameHeadAndNoBody() async throws {
            let fixture = try ServerFixture()
            let path = fixture.path("w=40,f=png", origin: "img/photo.jpg")
            let get = try await fixture.get(path)
            let port = fixture.port
            // HEAD then GET on one connection: a body after the HEAD would be read as the next status line.
            let (headResponse, next) = try await offPool {
                let descriptor = try RawHTTP.connect(port: port)
                defer { close(descriptor) }
                let head = "HEAD \(path) HTTP/1.1\r\nHost: x\r\n\r\nGET /health HTTP/1.1\r\nHost: x\r\n\r\n"
                try RawHTTP.send(descriptor, Data(head.utf8))
                var buffer = Data()
                let first = try RawHTTP.readResponse(descriptor, headOnly: true, buffer: &buffer)
                return (first, try RawHTTP.readResponse(descriptor, headOnly: false, buffer: &buffer))
            }
            #expect(headResponse.status == 200)
            #expect(headResponse.header("Content-Length") == String(get.body.count))
            #expect(headResponse.header("ETag") == get.header("ETag"))
            #expect(headResponse.header("Content-Type") == "image/png")
            #expect(next.status == 200 && next.text == "ok")
        }

        @Test func answers304ForAMatchingIfNoneMatch() async throws {
            let fixture = try ServerFixture()
            let path = fixture.path("w=30", origin: "img/photo.jpg")
            let first = try await fixture.get(path)
            let etag = try #require(first.header("ETag"))
            for condition in [etag, "\"other\", \(etag)", "W/\(etag)", "*"] {
                let again = try await fixture.get(path, headers: ["If-None-Match": condition])
                #expect(again.status == 304, "If-None-Match: \(condition)")
                #expect(again.body.isEmpty)
                #expect(again.header("ETag") == etag)
            }
            let miss = try await fixture.get(path, headers: ["If-None-Match": "\"something-else\""])
            #expect(miss.status == 200 && miss.body == first.body)
        }

        @Test func etagChangesWithTheBytes() async throws {
            let fixture = try ServerFixture()
            let small = try await fixture.get(fixture.path("w=30", origin: "img/photo.jpg"))
            let large = try await fixture.get(fixture.path("w=60", origin: "img/photo.jpg"))
            let lowQuality = try await fixture.get(fixture.path("w=60,q=10", origin: "img/photo.jpg"))
            let etags = [small, large, lowQuality].compactMap { $0.header("ETag") }
            #expect(Set(etags).count == 3)
        }

        @Test func autoPicksAVIFThenWebPWhenAcceptedAndVariesOnAccept() async throws {
            let fixture = try ServerFixture()
            let path = fixture.path("w=30,f=auto", origin: "img/photo.jpg")
            let avif = try await fixture.get(path, headers: ["Accept": "image/avif,image/webp,image/*,*/*;q=0.8"])
            #expect(avif.header("Content-Type") == "image/avif")
            #expect(avif.header("Vary") == "Accept")
            #expect(try ServerFixture.decode(avif.body).format == ImageFormat("avif"))
            let webp = try await fixture.get(path, headers: ["Accept": "image/webp,image/*,*/*;q=0.8"])
            #expect(webp.header("Content-Type") == "image/webp")
            #expect(webp.header("Vary") == "Accept")
            #expect(try ServerFixture.decode(webp.body).format == .webp)
            let jpeg = try await fixture.get(path, headers: ["Accept": "image/jpeg,image/*;q=0.9"])
            #expect(jpeg.header("Content-Type") == "image/jpeg")
            #expect(jpeg.header("Vary") == "Accept")
            let refused = try await fixture.get(path, headers: ["Accept": "image/webp;q=0, image/jpeg"])
            #expect(refused.header("Content-Type") == "image/jpeg")
            // Accept names none of autoFormats: the default (the source's format).
            let none = try await fixture.get(path, headers: ["Accept": "*/*"])
            #expect(none.header("Content-Type") == "image/jpeg")
        }

        @Test func keepsTheSourceFormatByDefaultAndConvertsOnRequest() async throws {
            let fixture = try ServerFixture()
            let png = try await fixture.get(fixture.path(origin: "img/logo.png"))
            #expect(png.header("Content-Type") == "image/png")
            let image = try ServerFixture.decode(png.body)
            #expect((image.width, image.height, image.hasAlpha) == (64, 48, true))
            for (name, format) in [
                ("jpeg", ImageFormat.jpeg), ("webp", .webp), ("gif", .gif), ("png", .png),
                ("avif", ImageFormat("avif")),
            ] {
                let response = try await fixture.get(fixture.path("f=\(name)", origin: "img/logo.png"))
                #expect(response.header("Content-Type") == "image/\(name)")
                #expect(try ServerFixture.decode(response.body).format == format)
            }
        }

        @Test func fitsCoversStretchesAndEnlarges() async throws {
            let fixture = try ServerFixture()
            func size(_ options: String) async throws -> (Int, Int) {
                let response = try await fixture.get(fixture.path(options, origin: "img/photo.jpg"))
                #expect(response.status == 200, "\(options): \(response.text)")
                let image = try ServerFixture.decode(response.body)
                return (image.width, image.height)
            }
            #expect(try await size("w=100,h=100") == (100, 50))  // contain
            #expect(try await size("w=100,h=100,fit=cover") == (100, 100))
            #expect(try await size("w=100,h=30,fit=fill") == (100, 30))
            #expect(try await size("h=20") == (40, 20))
            #expect(try await size("w=400") == (200, 100))  // no enlarging by default
            #expect(try await size("w=400,enlarge=1") == (400, 200))
            #expect(try await size("w=50,dpr=2") == (100, 50))
            #expect(try await size("w=50,dpr=1.5") == (75, 38))
            #expect(try await size("-") == (200, 100))
        }

        @Test func keepsAnimationsForAnimatedFormatsAndPicksFrames() async throws {
            let fixture = try ServerFixture()
            let gif = try ServerFixture.decode(try await fixture.get(fixture.path(origin: "img/anim.gif")).body)
            #expect(gif.format == .gif && gif.frames.count == 3)
            let webp = try ServerFixture.decode(
                try await fixture.get(fixture.path("f=webp", origin: "img/anim.gif")).body)
            #expect(webp.format == .webp && webp.frames.count == 3)
            let png = try ServerFixture.decode(
                try await fixture.get(fixture.path("f=png", origin: "img/anim.gif")).body)
            #expect(png.frames.count == 1)
            let second = try ServerFixture.decode(
                try await fixture.get(fixture.path("frame=1,f=png", origin: "img/anim.gif")).body)
            #expect(second.frames.count == 1)
            let pixel = Array(second.raster.pixels.prefix(4))
            #expect(pixel[1] > 200 && pixel[0] < 50, "frame 1 is green: \(pixel)")
            let beyond = try await fixture.get(fixture.path("frame=3", origin: "img/anim.gif"))
            #expect(beyond.status == 400)
        }

        @Test func acceptsABase64URLSource() async throws {
            let fixture = try ServerFixture()
            let encoded = Base64URL.encode(Array(fixture.origin.url("img/photo.jpg").utf8))
            let response = try await fixture.get("/unsafe/w=20/\(encoded)")
            #expect(response.status == 200)
            #expect(try ServerFixture.decode(response.body).width == 20)
        }

        @Test func healthIsOk() async throws {
            let fixture = try ServerFixture()
            let response = try await fixture.get("/health")
            #expect(response.status == 200 && response.text == "ok")
        }
    }
}

extension ServerIntegrationTests.ImageServerResponseTests {
    @Test func aTransparentSourceServedAsJPEGIsFlattenedOntoWhite() async throws {
        // logo.png is a gradient at alpha 128: dropping alpha would serve the darker hidden colours.
        let fixture = try ServerFixture()
        let response = try await fixture.get(fixture.path("f=jpeg", origin: "img/logo.png"))
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "image/jpeg")
        let served = try ServerFixture.decode(response.body).raster
        let expected = try ServerFixture.gradient(width: 64, height: 48, alpha: 128).flattened(onto: .white)
        for (x, y) in [(8, 8), (32, 24), (56, 40)] {
            let (got, want) = (served[x, y], expected[x, y])
            let difference = max(
                abs(Int(got.r) - Int(want.r)), abs(Int(got.g) - Int(want.g)), abs(Int(got.b) - Int(want.b)))
            #expect(difference <= 8, "(\(x), \(y)): served \(got), expected about \(want)")
        }
    }
}
