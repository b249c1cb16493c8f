import Foundation
import Imago

/// The first step of an image request: the grammar its path prefix names (Imago's own or a dialect, issue 26)
/// reads the source and the options and checks the signature; everything after is the one shared flow.
extension ImageServer {
    /// The source (decoded, not yet checked by the source policy) and options `target` asks for at `time`.
    func requestedImage(_ target: Substring, time: Date) throws -> (source: String, options: ImageOptions) {
        switch try dialects.route(target) {
        case .own(let path):
            let path = try ImagePath(parsing: path)
            guard signer.accepts(signature: path.signature, for: path.signedPart) else {
                throw ServeFailure(
                    403,
                    settings.signingKeys.isEmpty
                        ? "no signing keys are set: the signature must be unsafe"
                        : "bad signature")
            }
            let options = try ImageOptions(
                parsing: path.options, maxOutputSide: settings.maxOutputSide, presets: presets,
                onlyPresets: settings.onlyPresets)
            if let expires = options.expires, Double(expires) <= time.timeIntervalSince1970 {
                throw ServeFailure(410, "option exp=\(expires): the URL has expired")
            }
            return (path.source, options)
        case .dialect(let dialect, let target):
            // Both services sign and read the path only (a source URL with a query is percent-encoded in it).
            let path = target[..<(target.firstIndex(of: "?") ?? target.endIndex)]
            // The same limits, presets and only-presets mode as Imago's own URLs: a dialect is no way around them.
            let context = ProcessingOptions.Context(
                maxOutputSide: settings.maxOutputSide, presets: presets, onlyPresets: settings.onlyPresets)
            let request = try dialect.request(for: path, time: time, context: context)
            return (request.source, request.options)
        }
    }
}
