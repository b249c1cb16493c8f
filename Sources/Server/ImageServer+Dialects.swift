import Foundation
import Imago

/// The first step of an image request: the grammar its path prefix names (Imago's own or a dialect, issue 26)
/// reads the source and the options and checks the signature; everything after is the one shared flow.
extension ImageServer {
    /// The source (decoded, not yet checked by the source policy) and options `target` asks for at `time`, with
    /// the same limits, presets and only-presets mode whatever the grammar: a dialect is no way around them.
    func requestedImage(_ target: Substring, time: Date) throws -> DialectRequest {
        let (dialect, rest) = try dialects.route(target)
        let context = ProcessingOptions.Context(
            maxOutputSide: settings.maxOutputSide, presets: presets, onlyPresets: settings.onlyPresets)
        return try dialect.request(for: rest, time: time, context: context)
    }
}
