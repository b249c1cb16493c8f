import Imago

/// `f=auto`: the first of the preferred formats that the client's `Accept` names with a non-zero quality.
/// Wildcards (`image/*`, `*/*`) name no format: a browser that decodes WebP says so explicitly.
public enum ContentNegotiation {
    /// The chosen format, or `nil` when `accept` names none of `preferred` (the default rule applies then).
    public static func format(accept: String?, preferred: [ImageFormat]) -> ImageFormat? {
        guard let accept else { return nil }
        let named = acceptedTypes(accept)
        return preferred.first { named.contains(OutputFormat.contentType(of: $0)) }
    }

    /// The media types `accept` lists with a quality above zero, lowercased.
    static func acceptedTypes(_ accept: String) -> Set<String> {
        var types: Set<String> = []
        for item in accept.split(separator: ",") {
            let parameters = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let type = parameters.first?.lowercased(), !type.isEmpty else { continue }
            let quality =
                parameters.dropFirst().first { $0.lowercased().hasPrefix("q=") }
                .flatMap { Double($0.dropFirst(2)) } ?? 1
            if quality > 0 { types.insert(type) }
        }
        return types
    }
}
