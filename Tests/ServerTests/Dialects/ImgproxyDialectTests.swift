import Foundation
import Imago
import Testing

@testable import ImagoServer

/// imgproxy's URLs read into Imago's options, as its documentation describes them, and its signatures checked
/// against its documented example and Python's `hmac`.
@Suite struct ImgproxyDialectTests {
    static let docsPath = "/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png"

    func dialect(keys: [String] = [], salts: [String] = [], size: Int = 32) -> ImgproxyDialect {
        var settings = ImgproxySettings()
        (settings.enabled, settings.keys, settings.salts, settings.signatureSize) = (true, keys, salts, size)
        return ImgproxyDialect(settings: settings)
    }

    func read(_ path: String, presets: [String: String] = [:]) throws -> DialectRequest {
        try dialect().request(
            for: Substring(path), time: Date(timeIntervalSince1970: 1_800_000_000),
            context: ProcessingOptions.Context(presets: presets))
    }

    /// The server's answer to `path`: the typed error the dialect throws, given its status at the edge.
    func failure(_ path: String, _ dialect: ImgproxyDialect? = nil, context: ProcessingOptions.Context = .init())
        -> ServeFailure?
    {
        do {
            _ = try (dialect ?? self.dialect()).request(
                for: Substring(path), time: Date(timeIntervalSince1970: 1_800_000_000), context: context)
            Issue.record("\(path) was accepted")
            return nil
        } catch {
            #expect(error is OptionError || error is RequestError, "\(path): \(error)")
            return ServeFailure(answering: error)
        }
    }

    @Test func signsAsTheDocumentedExampleAndPythonsHMAC() throws {
        // docs/usage/signing_url.mdx: key "secret", salt "hello".
        let signed = dialect(keys: ["736563726574"], salts: ["68656C6C6F"])
        #expect(signed.signer.signature(for: Self.docsPath) == "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8")
        let request = try signed.request(
            for: Substring("/oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8" + Self.docsPath), time: Date(),
            context: .init())
        #expect(request.source == "http://example.com/images/curiosity.jpg")
        // Rotation (two pairs) and truncated signatures, against Python's hmac.
        let pairs = [("0a1b2c3d4e5f", "a0b1c2"), ("ffee", "00112233445566")]
        let rotating = dialect(keys: pairs.map(\.0), salts: pairs.map(\.1), size: 8)
        let paths = [
            "/w:100/plain/http%3A%2F%2Fa.example%2Fx.png", "/rs:fit:10:10/aHR0cDovL2EuZXhhbXBsZS94LnBuZw.webp",
        ]
        for (index, pair) in pairs.enumerated() {
            let expected = try DialectPython.imgproxySignatures(key: pair.0, salt: pair.1, size: 8, paths: paths)
            for (path, signature) in zip(paths, expected) {
                #expect(rotating.signer.signature(for: path, pair: index) == signature)
                #expect(throws: Never.self) {
                    try rotating.request(for: Substring("/\(signature)\(path)"), time: Date(), context: .init())
                }
            }
        }
        #expect(failure("/" + String(repeating: "A", count: 11) + paths[0], rotating)?.status == 403)
        #expect(failure("/insecure" + Self.docsPath, signed)?.status == 403)
    }

    @Test func readsTheDocumentedExample() throws {
        let request = try read("/_" + Self.docsPath)
        #expect(request.source == "http://example.com/images/curiosity.jpg")
        #expect(request.options.width == 300 && request.options.height == 400 && request.options.fit == .cover)
        #expect(
            request.options.gravity == .smart && !request.options.enlarge && request.options.format == .format(.png))
        let plain = try read(
            "/_/pr:sharp/rs:fill:300:400:0/g:sm/plain/http://example.com/images/curiosity.jpg@png",
            presets: ["sharp": "sharpen=0.7"])
        var sharpened = request.options
        sharpened.sharpen = 0.7
        #expect(plain.options.canonical == sharpened.canonical)
        #expect(plain.source == request.source)
    }

    @Test func mapsEachOptionOntoImagos() throws {
        let cases: [(String, String)] = [
            ("rs:fit:150:100", "w=150,h=100,fit=contain,enlarge=0"),
            ("s:150:0:1", "w=150,h=-,fit=contain,enlarge=1"),
            ("rt:force/w:50/h:80", "w=50,h=80,fit=fill"),
            ("rs:auto:50:80", "w=50,h=80,fit=auto"),
            ("rs:fill-down:10:20/g:noea", "w=10,h=20,fit=cover,g=ne"),
            ("resize:fit:400:400:0:1/extend:1:so", "w=400,h=400,fit=contain,enlarge=0"),
            ("dpr:2/w:100", "w=200,h=-"),
            ("g:fp:0.25:0.75/rs:fill:10:10", "g=fp:0.25:0.75"),
            ("c:100:50", "crop=100:50:c"),
            ("c:0.5:0:soea", "crop=0.5:1.0:se"),
            ("g:we/c:30:30", "crop=30:30:w"),
            ("pd:10:20", "pad=10:20:10:20"),
            ("padding:1:2:3", "pad=1:2:3:2"),
            ("t:12", "trim=12"),
            ("rot:450", "rot=90"),
            ("fl:1:1", "flip=hv"),
            ("bg:255:0:16", "bg=ff0010ff"),
            ("bg:00ff00", "bg=00ff00ff"),
            ("bl:2.5/sh:0.5", "blur=2.5,sharpen=0.5"),
            ("wm:0.5:soea::0:0.2", "wm=0.5:se:fit:0.2:0.2:even"),
            ("q:50/mb:10000", "q=50"),
            ("f:webp/fq:webp:70:jpg:80", "f=webp,q=70"),
            ("sm:0", "strip=0"),
            ("cb:abc/exp:1900000000/w:10", "w=10"),
        ]
        for (options, expected) in cases {
            let canonical = try read("/_/\(options)/plain/http://example.com/a.jpg").options.canonical
            for item in expected.split(separator: ",") {
                #expect(canonical.contains(String(item)), "\(options): \(canonical) lacks \(item)")
            }
        }
        let extended = try read("/_/rs:fit:400:400:0:1/ex:1:so/plain/http://example.com/a.jpg").options
        #expect(extended.extend && extended.extendGravity == .south && extended.gravity == .center)
        #expect(try read("/_/w:10/plain/http://example.com/a.jpg@jpg").options.format == .format(.jpeg))
        // Later options override earlier ones, as in imgproxy.
        #expect(try read("/_/w:10/rs:fit:20:0/plain/http://example.com/a.jpg").options.width == 20)
        #expect(try read("/_/mb:123/plain/http://example.com/a.jpg").options.maxBytes == 123)
    }

    @Test func sourcesPlainBase64AndEncrypted() throws {
        let plain = try read("/_/w:10/plain/http%3A%2F%2Fexample.com%2Fa%20b.jpg%3Fv%3D1@webp")
        #expect(plain.source == "http://example.com/a b.jpg?v=1" && plain.options.format == .format(.webp))
        let base64 = try read("/_/w:10/aHR0cDovL2V4YW1w/bGUuY29tL2EuanBn")
        #expect(base64.source == "http://example.com/a.jpg" && base64.options.format == nil)
        let padded = try read("/_/w:10/aHR0cDovL2V4YW1wbGUuY29tL2EucG5n.png")
        #expect(padded.source == "http://example.com/a.png")
        #expect(failure("/_/w:10/enc/jwV3wUD9r4VBIzgv/ang3Hbh0vPpcm5cc")?.status == 501)
    }

    @Test func onlyPresetsAndTheOutputLimitApplyAsToImagosOwnURLs() throws {
        let restricted = ProcessingOptions.Context(maxOutputSide: 500, presets: ["card": "w=60"], onlyPresets: true)
        func read(_ path: String) throws -> DialectRequest {
            try dialect().request(for: Substring(path), time: Date(), context: restricted)
        }
        #expect(try read("/_/pr:card/plain/http://example.com/a.jpg").options.width == 60)
        #expect(throws: OptionError.self) { try read("/_/w:10/plain/http://example.com/a.jpg") }
        let error = failure("/_/w:501/plain/http://example.com/a.jpg", context: .init(maxOutputSide: 500))
        #expect(error?.status == 400 && error?.reason.contains("500") == true)
        // Named as written in imgproxy's grammar, not as Imago's key.
        #expect(error?.reason.contains("\"w:501\"") == true, "\(error?.reason ?? "")")
    }

    @Test func anOptionWithoutItsArgumentsIsNamedNotTakenForTheSource() {
        for (options, expected) in [("rs", "TYPE:WIDTH:HEIGHT"), ("w:100/bl", "a sigma"), ("zoom", "ZOOM_X")] {
            let error = failure("/_/\(options)/plain/http://example.com/a.jpg")
            #expect(error?.status == 400, "\(options)")
            let option = String(options.split(separator: "/").last ?? "")
            #expect(error?.reason.contains("\"\(option)\"") == true, "\(options): \(error?.reason ?? "")")
            #expect(error?.reason.contains(expected) == true, "\(options): \(error?.reason ?? "")")
            #expect(error?.reason.contains("base64") == false, "\(options): \(error?.reason ?? "")")
        }
    }

    @Test func expiredURLsAre404AsInImgproxy() throws {
        #expect(failure("/_/exp:1700000000/plain/http://example.com/a.jpg")?.status == 404)
        #expect(throws: Never.self) { try read("/_/exp:1900000000/plain/http://example.com/a.jpg") }
    }

    @Test func unsupportedAndMalformedOptionsAre400NamingThem() throws {
        let cases: [(String, String)] = [
            ("g:sm:10:0", "smart"), ("exar:1:ce:5:5", "offsets"), ("ph:1", "HDR"), ("z:0", "z:0"),
            ("foo:1", "foo:1"), ("rs:fill:1:2:1:1:9", "rs:fill:1:2:1:1:9"), ("w:abc", "w:abc"), ("rot:45", "rot:45"),
            ("wm:0.5:re:1.5:0", "between tiles"), ("t:10:red", "t:10:red"), ("f:tiff", "tiff"), ("fq:webp", "fq:webp"),
            ("bg:12345", "bg:12345"), ("el:maybe", "el:maybe"), ("dpr:0", "dpr"), ("w:-1", "w:-1"),
        ]
        for (options, named) in cases {
            let error = failure("/_/\(options)/plain/http://example.com/a.jpg")
            #expect(error?.status == 400, "\(options)")
            #expect(error?.reason.contains(named) == true, "\(options): \(error?.reason ?? "")")
            #expect(error?.reason.contains("\n") == false)
        }
    }
}
