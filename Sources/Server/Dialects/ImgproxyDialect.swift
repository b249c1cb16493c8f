import Foundation
import Imago

/// imgproxy's URLs: `/SIGNATURE/OPTION/…/plain/SOURCE[@EXT]` and `/SIGNATURE/OPTION/…/BASE64URL[/…][.EXT]`, each
/// option `name:arg:arg` (full or short names), read into Imago's options as imgproxy's documentation describes
/// them. An option Imago cannot honour is a 400 naming it; the encrypted source form (`enc/`) is a 501; an expired
/// URL is a 404, as imgproxy answers it.
struct ImgproxyDialect: URLDialect {
    let name = "imgproxy"
    let signer: ImgproxySigner

    init(settings: ImgproxySettings) {
        signer = ImgproxySigner(keys: settings.keys, salts: settings.salts, size: settings.signatureSize)
    }

    func request(for path: Substring, time: Date, context: ProcessingOptions.Context) throws -> DialectRequest {
        try checkSegments(path)
        guard path.first == "/", let signatureEnd = path.dropFirst().firstIndex(of: "/") else {
            throw ServeFailure(400, "imgproxy: expected /SIGNATURE/OPTIONS/SOURCE")
        }
        let signed = path[signatureEnd...]
        guard signer.accepts(signature: path[path.index(after: path.startIndex)..<signatureEnd], for: signed) else {
            throw ServeFailure(403, "imgproxy: bad signature")
        }
        var segments = signed.dropFirst().split(separator: "/", omittingEmptySubsequences: false)[...]
        var reader = ImgproxyOptions()
        while let segment = segments.first, segment.contains(":"), segment != "plain", segment != "enc" {
            try reader.read(option: segments.removeFirst())
        }
        guard let first = segments.first, !first.isEmpty else {
            throw ServeFailure(400, "imgproxy: missing source (plain/URL or base64url)")
        }
        let source: String
        switch first {
        case "enc":
            throw ServeFailure(501, "imgproxy: encrypted sources (enc/) are not supported")
        case "plain":
            var rest = segments.dropFirst().joined(separator: "/")[...]
            if let at = rest.lastIndex(of: "@") {
                try reader.read(extension: rest[rest.index(after: at)...])
                rest = rest[..<at]
            }
            source = try ImagePath.decodeSource("plain/" + rest)
        default:
            var joined = segments.joined()[...]
            if let dot = joined.lastIndex(of: ".") {
                try reader.read(extension: joined[joined.index(after: dot)...])
                joined = joined[..<dot]
            }
            while joined.last == "=" { joined = joined.dropLast() }
            source = try ImagePath.decodeSource(joined)
        }
        if let expires = reader.expires, Double(expires) <= time.timeIntervalSince1970 {
            throw ServeFailure(404, "imgproxy: the URL expired (expires:\(expires))")
        }
        return DialectRequest(source: source, options: try options(reader.items(), context: context))
    }
}
