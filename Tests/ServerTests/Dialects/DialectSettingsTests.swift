import Foundation
import Imago
import Testing

@testable import ImagoServer

/// `serve.dialects`: the sample of Docs/Dialects.md, the defaults `--print-default` shows, and the configuration
/// errors (two grammars on one prefix, bad hex, unpaired salts, a thumbor that could serve nothing).
@Suite struct DialectSettingsTests {
    static var docs: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Docs/Dialects.md")
    }

    @Test func theDocumentedSectionReadsAsItSays() throws {
        let text = try String(contentsOf: Self.docs, encoding: .utf8)
        let block = try #require(
            text.components(separatedBy: "```json\n").dropFirst().first?
                .components(separatedBy: "```").first)
        let settings = try ServeSettings(json: try JSONValue.parse(Data(block.utf8)))
        #expect(settings.dialects.imagoPathPrefix == "/imago")
        #expect(settings.dialects.imgproxy.enabled && settings.dialects.imgproxy.pathPrefix == "")
        #expect(
            settings.dialects.imgproxy.keys == ["736563726574"] && settings.dialects.imgproxy.salts == ["68656c6c6f"])
        #expect(
            settings.dialects.thumbor.securityKey == "MY_SECURE_KEY" && settings.dialects.thumbor.pathPrefix == "/tb")
        #expect(settings.dialects.thumbor.loaderBase == "file:///srv/images/")
        #expect(try ServeSettings(json: settings.json) == settings)
    }

    @Test func defaultsAreOffAndPrinted() throws {
        let settings = ServeSettings()
        #expect(!settings.dialects.imgproxy.enabled && !settings.dialects.thumbor.enabled)
        guard case .object(let keys) = settings.json, case .object(let dialects)? = keys["dialects"] else {
            throw ServeFailure(0, "no dialects in the JSON form")
        }
        #expect(Set(dialects.keys) == ["imagoPathPrefix", "imgproxy", "thumbor"])
    }

    @Test func configurationErrorsNameTheKey() throws {
        let cases: [(String, String)] = [
            (#"{"imgproxy": {"enabled": true, "pathPrefix": ""}}"#, "serve.dialects.imgproxy.pathPrefix"),
            (
                #"{"imgproxy": {"enabled": true}, "thumbor": {"enabled": true, "allowUnsafe": true, "pathPrefix": "/ip"}}"#,
                "serve.dialects.thumbor.pathPrefix"
            ),
            (#"{"imgproxy": {"keys": ["zz"], "salts": ["00"]}}"#, "serve.dialects.imgproxy.keys[0]"),
            (#"{"imgproxy": {"keys": ["00"]}}"#, "serve.dialects.imgproxy.salts"),
            (#"{"imgproxy": {"signatureSize": 40}}"#, "serve.dialects.imgproxy.signatureSize"),
            (#"{"imgproxy": {"pathPrefix": "ip/"}}"#, "serve.dialects.imgproxy.pathPrefix"),
            (#"{"thumbor": {"enabled": true}}"#, "serve.dialects.thumbor"),
            (#"{"thumbor": {"loaderBase": "images"}}"#, "serve.dialects.thumbor.loaderBase"),
            (#"{"thumbor": {"secret": "x"}}"#, "serve.dialects.thumbor.secret"),
        ]
        for (json, path) in cases {
            let error = #expect(throws: ImagoError.self, "\(json)") {
                try ServeSettings(json: try JSONValue.parse(Data(#"{"dialects": \#(json)}"#.utf8)))
            }
            #expect(
                error.map { String(describing: $0).contains(path) } == true, "\(json): \(String(describing: error))")
        }
    }
}
