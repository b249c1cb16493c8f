import Foundation
import Imago
import Testing

@testable import ImagoServer

/// thumbor's URLs read into Imago's options with thumbor's meanings, and its HMAC-SHA1 signatures checked against
/// Python's `hmac`.
@Suite struct ThumborDialectTests {
    func dialect(key: String? = "tb-key", unsafe: Bool = true) -> ThumborDialect {
        var settings = ThumborSettings()
        settings.enabled = true
        settings.securityKey = key
        settings.allowUnsafe = unsafe
        settings.loaderBase = "https://images.example.com/base/"
        return ThumborDialect(settings: settings)
    }

    func read(_ path: String) throws -> DialectRequest {
        try dialect().request(for: Substring("/unsafe/" + path), time: Date(), context: .init())
    }

    /// The server's answer to `path`: the typed error the dialect throws, given its status at the edge.
    func failure(_ path: String, _ dialect: ThumborDialect? = nil) -> ServeFailure? {
        do {
            _ = try (dialect ?? self.dialect()).request(for: Substring(path), time: Date(), context: .init())
            Issue.record("\(path) was accepted")
            return nil
        } catch {
            #expect(error is OptionError || error is RequestError, "\(path): \(error)")
            return ServeFailure(answering: error)
        }
    }

    @Test func signsAsPythonsHMACSHA1() throws {
        let paths = [
            "300x200/smart/a.jpg", "fit-in/-10x0/filters:quality(50):grayscale()/https%3A%2F%2Fx.example%2Fa.png",
        ]
        let expected = try DialectPython.thumborSignatures(key: "tb-key", paths: paths)
        let signed = dialect(unsafe: false)
        for (path, hash) in zip(paths, expected) {
            #expect(signed.signer?.signature(for: path) == hash)
            #expect(throws: Never.self) {
                try signed.request(for: Substring("/\(hash)/\(path)"), time: Date(), context: .init())
            }
            #expect(failure("/\(hash)/\(path)x", signed)?.status == 403, "a hash over a different path")
            let encoded = hash.replacingOccurrences(of: "=", with: "%3D")
            #expect(throws: Never.self) {
                try signed.request(for: Substring("/\(encoded)/\(path)"), time: Date(), context: .init())
            }
        }
        #expect(failure("/unsafe/\(paths[0])", signed)?.status == 403)
        #expect(failure("/\(expected[0])/\(paths[0])", dialect(key: nil))?.status == 403)
    }

    @Test func mapsThumborsPartsOntoImagos() throws {
        let cases: [(String, String)] = [
            ("300x200/a.jpg", "w=300,h=200,fit=cover,enlarge=1"),
            ("300x0/a.jpg", "w=300,h=-,fit=contain,enlarge=1"),
            ("fit-in/300x200/a.jpg", "w=300,h=200,fit=contain,enlarge=0"),
            ("fit-in/300x200/filters:upscale()/a.jpg", "enlarge=1"),
            ("adaptive-fit-in/300x200/a.jpg", "w=300,h=200,fit=adaptive,enlarge=0"),
            ("full-fit-in/300x200/a.jpg", "w=300,h=200,fit=outside,enlarge=1"),
            ("300x200/filters:no_upscale()/a.jpg", "enlarge=0"),
            ("-300x-200/a.jpg", "flip=hv"),
            ("-300x200/a.jpg", "flip=h"),
            ("10x20:110x70/a.jpg", "crop=10:20:100:50"),
            ("300x200/left/top/a.jpg", "g=nw"),
            ("300x200/right/a.jpg", "g=e"),
            ("300x200/smart/a.jpg", "g=sm"),
            ("trim:12/a.jpg", "trim=12"),
            ("300x200/filters:quality(70):format(webp)/a.jpg", "f=webp,q=70"),
            ("300x200/filters:blur(3):sharpen(1,2,true)/a.jpg", "gblur=3:3,wsharpen=1:2:1"),
            ("300x200/filters:rotate(90)/a.jpg", "rot=270"),
            ("fit-in/300x200/filters:fill(f00)/a.jpg", "fill=ff0000ff:0:1"),
            ("fit-in/300x200/filters:fill(red,true)/a.jpg", "fill=ff0000ff:1:1"),
            ("300x200/filters:focal(1x1:2x2)/a.jpg", "focal=1:1:1:1"), ("origx200/a.jpg", "adj=floor:whole:srcw"),
            ("trim:bottom-right:5/a.jpg", "trim=5:br:eu"), ("300x200/filters:nope(1):rotate(45)/a.jpg", "w=300"),
            ("300x200/filters:grayscale():brightness(-20):contrast(15)/a.jpg", "gray=1,bright=-20,contrast=15"),
            ("300x200/filters:round_corner(20|10,255,0,0,1)/a.jpg", "round=20:10:ff000000"),
            ("300x200/filters:max_bytes(5000):strip_icc()/a.jpg", "maxb=5000"),
        ]
        for (path, expected) in cases {
            let canonical = try read(path).options.canonical
            for item in expected.split(separator: ",") {
                #expect(canonical.contains(String(item)), "\(path): \(canonical) lacks \(item)")
            }
        }
        #expect(try read("300x200/fit-in/a.jpg").source == "https://images.example.com/base/fit-in/a.jpg")
        #expect(try read("300x200/sub/a%20b.jpg").source == "https://images.example.com/base/sub/a%20b.jpg")
        #expect(try read("300x200/https%3A%2F%2Fx.example%2Fa.png").source == "https://x.example/a.png")
        #expect(try read("300x200/http://x.example/a.png").source == "http://x.example/a.png")
        #expect(try read("origxorig/a.jpg").options.width == nil)
        // A watermark's image is read as IMAGE is: under loaderBase when it is a path.
        #expect(
            try read("300x200/filters:watermark(marks/b.png,0,0,50)/a.jpg").options.watermark?.source
                == "https://images.example.com/base/marks/b.png")
        #expect(
            try read("filters:watermark(https%3A%2F%2Fx.example%2Fm.png,0,0,50)/a.jpg").options.watermark?.source
                == "https://x.example/m.png")
    }

    @Test func unsupportedPartsAndFiltersAre400NamingThem() {
        let cases: [(String, String)] = [
            ("300x200/filters:redeye()/a.jpg", "redeye"), ("meta/300x200/a.jpg", "meta"),
            ("trim:500/a.jpg", "trim"), ("300x200/filters:quality(5)", "filters"),
            ("300x200/../a.jpg", "loaderBase"), ("300x200/w:10/a.jpg", "loaderBase"),
            ("-10x-10:50x50/a.jpg", "thumbor crop \"-10x-10:50x50\""), ("10x10:5.5x50/a.jpg", "crop"),
        ]
        for (path, named) in cases {
            let error = failure("/unsafe/" + path)
            #expect(error?.status == 400, "\(path)")
            #expect(error?.reason.contains(named) == true, "\(path): \(error?.reason ?? "")")
        }
    }

    @Test func routesByPrefixWithOneGrammarOnTheRoot() throws {
        var settings = DialectSettings()
        settings.thumbor.enabled = true
        settings.thumbor.allowUnsafe = true
        settings.imgproxy.enabled = true
        settings.imgproxy.pathPrefix = "/i"
        let signer = URLSigner(keys: [])
        let router = DialectRouter(settings: settings, signer: signer)
        func name(_ target: String, _ router: DialectRouter) throws -> String {
            let (dialect, rest) = try router.route(Substring(target))
            return "\(dialect.name) \(rest)"
        }
        #expect(try name("/tb/unsafe/a.jpg", router) == "thumbor /unsafe/a.jpg")
        #expect(try name("/i/_/w:1/plain/x", router) == "imgproxy /_/w:1/plain/x")
        #expect(try name("/ip/x/y", router) == "imago /ip/x/y")
        #expect(try name("/tbx/a", router) == "imago /tbx/a")
        settings.imagoPathPrefix = "/imago"
        settings.thumbor.pathPrefix = ""
        let moved = DialectRouter(settings: settings, signer: signer)
        #expect(try name("/imago/unsafe/-/plain/x", moved) == "imago /unsafe/-/plain/x")
        #expect(try name("/unsafe/a.jpg", moved) == "thumbor /unsafe/a.jpg")
        settings.thumbor.enabled = false
        let error = #expect(throws: RequestError.self) {
            try DialectRouter(settings: settings, signer: signer).route("/unsafe/a.jpg")
        }
        #expect(error?.kind == .notFound && error.map { ServeFailure(answering: $0).status } == 404)
    }
}
