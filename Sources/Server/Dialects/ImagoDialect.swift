import Foundation
import Imago

/// Imago's own URLs: `/{signature}/{options}/{source}` (`ImagePath`), the options in Imago's grammar
/// (`ProcessingOptions.grammar`), signed by `URLSigner`; an expired `exp` is a 410.
struct ImagoDialect: URLDialect {
    let name = "imago"
    let signer: URLSigner

    func request(for target: Substring, time: Date, context: ProcessingOptions.Context) throws -> DialectRequest {
        let path = try ImagePath(parsing: target)
        guard signer.accepts(signature: path.signature, for: path.signedPart) else {
            throw RequestError(
                .badSignature,
                signer.keys.isEmpty ? "no signing keys are set: the signature must be unsafe" : "bad signature")
        }
        var reading = OptionsReading(scratch: ())
        try ProcessingOptions.grammar.read(
            try ProcessingOptions.items(of: path.options), into: &reading, context: context)
        try reading.options.validate(context, spelling: reading.spelling(of:))
        if let expires = reading.options.expires, Double(expires) <= time.timeIntervalSince1970 {
            throw RequestError(.expired, "option \"\(reading.spelling(of: "exp"))\": the URL has expired")
        }
        return DialectRequest(source: path.source, options: reading.options, spellings: reading.spellings)
    }
}
