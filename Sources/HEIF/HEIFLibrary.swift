import CHEIFLoader
import ImagoCore

/// libheif, opened on first use rather than linked (see Scripts/generate-lazy-loaders.py): a program that never
/// decodes or encodes this format does not load it and its codecs at start.
enum HEIFLibrary {
    /// Opens libheif if it is not open yet; throws `kind`, with the loader's reason, when it cannot be opened (its
    /// functions would abort the process if called then).
    static func load(or kind: ImagoError.Kind) throws(ImagoError) {
        if let failure = imago_heif_load() { throw ImagoError(kind, String(cString: failure)) }
    }
}
