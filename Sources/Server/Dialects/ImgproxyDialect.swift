import Foundation
import Imago

/// imgproxy's URLs: `/SIGNATURE/OPTION/…/plain/SOURCE[@EXT]` and `/SIGNATURE/OPTION/…/BASE64URL[/…][.EXT]`, each
/// option `name:arg:arg` (full or short names) read by imgproxy's option table (`ImgproxyGrammar`). The encrypted
/// source form (`enc/`) is a 501; an expired URL is a 404, as imgproxy answers it.
struct ImgproxyDialect: URLDialect {
    let name = "imgproxy"
    let signer: ImgproxySigner

    init(settings: ImgproxySettings) {
        signer = ImgproxySigner(keys: settings.keys, salts: settings.salts, size: settings.signatureSize)
    }

    func request(for target: Substring, time: Date, context: ProcessingOptions.Context) throws -> DialectRequest {
        let path = pathOnly(target)
        try checkSegments(path)
        guard path.first == "/", let signatureEnd = path.dropFirst().firstIndex(of: "/") else {
            throw RequestError(.malformedPath, "imgproxy: expected /SIGNATURE/OPTIONS/SOURCE")
        }
        let signed = path[signatureEnd...]
        guard signer.accepts(signature: path[path.index(after: path.startIndex)..<signatureEnd], for: signed) else {
            throw RequestError(.badSignature, "imgproxy: bad signature")
        }
        var segments = signed.dropFirst().split(separator: "/", omittingEmptySubsequences: false)[...]
        var options: [Substring] = []
        // An option is `name:args`, or a name alone (`rs` without its arguments is its own mistake, not a source).
        while let segment = segments.first, segment != "plain", segment != "enc",
            segment.contains(":") || ImgproxyGrammar.grammar.knows(segment)
        {
            options.append(segments.removeFirst())
        }
        guard let first = segments.first, !first.isEmpty else {
            throw RequestError(.malformedPath, "imgproxy: missing source (plain/URL or base64url)")
        }
        let source: String
        var format: Substring?
        switch first {
        case "enc":
            throw RequestError(.notImplemented, "imgproxy: encrypted sources (enc/) are not supported")
        case "plain":
            var rest = segments.dropFirst().joined(separator: "/")[...]
            if let at = rest.lastIndex(of: "@") {
                format = rest[rest.index(after: at)...]
                rest = rest[..<at]
            }
            source = try ImagePath.decodeSource("plain/" + rest)
        default:
            var joined = segments.joined()[...]
            if let dot = joined.lastIndex(of: ".") {
                format = joined[joined.index(after: dot)...]
                joined = joined[..<dot]
            }
            while joined.last == "=" { joined = joined.dropLast() }
            source = try ImagePath.decodeSource(joined)
        }
        let reading = try ImgproxyGrammar.options(options, extension: format, context: context)
        if let expires = reading.options.expires, Double(expires) <= time.timeIntervalSince1970 {
            throw RequestError(.notFound, "imgproxy: the URL expired (\(reading.spelling(of: "exp")))")
        }
        return DialectRequest(source: source, options: reading.options, spellings: reading.spellings)
    }
}
