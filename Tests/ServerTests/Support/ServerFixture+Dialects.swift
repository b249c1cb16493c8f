import Foundation

@testable import ImagoServer

/// What the dialect suites share: the imgproxy key and salt they sign with, and signed imgproxy paths.
extension ServerFixture {
    static let imgproxyKey = "736563726574"
    static let imgproxySalt = "68656c6c6f"
    static let imgproxySigner = ImgproxySigner(keys: [imgproxyKey], salts: [imgproxySalt], size: 32)

    /// Turns both dialects on: imgproxy's URLs signed with the test key and salt (`signedImgproxy` writes them),
    /// thumbor's reading the origin's `img/` folder (its security is the suite's choice).
    static func enableDialects(_ settings: inout ServeSettings, origin: OriginServer) {
        settings.dialects.imgproxy.enabled = true
        settings.dialects.imgproxy.keys = [imgproxyKey]
        settings.dialects.imgproxy.salts = [imgproxySalt]
        settings.dialects.thumbor.enabled = true
        settings.dialects.thumbor.loaderBase = origin.url("img/")
    }

    /// `/ip/SIGNATURE/OPTIONS/plain/ORIGIN-URL` for the origin's `img/NAME`, signed with the test key and salt.
    func signedImgproxy(_ options: String, _ name: String, suffix: String = "") -> String {
        let path = "/\(options)/plain/" + Self.encode(origin.url("img/\(name)")) + suffix
        return "/ip/" + Self.imgproxySigner.signature(for: path) + path
    }
}
