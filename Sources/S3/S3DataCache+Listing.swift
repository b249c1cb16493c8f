import Foundation
import ImagoCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Listing and clearing what lives under the prefix (`ListObjects`, a page of up to 1000 keys at a time).
extension S3DataCache {
    /// The keys of the objects under the prefix. Throws `cacheFailed` when the store fails.
    public func objectKeys() async throws(ImagoError) -> [String] {
        var keys: [String] = []
        var marker: String?
        repeat {
            // SigV4's canonical query lists parameters by name: `marker` before `prefix`.
            let query =
                (marker.map { "marker=\(Self.encodeQueryValue($0))&" } ?? "")
                + "prefix=\(Self.encodeQueryValue(configuration.prefix))"
            let page: ListPage
            do {
                page = try ListPage(xml: try await send("GET", nil, query: query).body)
            } catch {
                throw Self.cacheError(error, source: description)
            }
            keys += page.keys
            marker = page.isTruncated ? page.keys.last : nil
        } while marker != nil
        return keys
    }

    /// Deletes every object under the prefix and returns how many there were. Throws `cacheFailed` when the
    /// store fails.
    @discardableResult
    public func removeAllEntries() async throws(ImagoError) -> Int {
        let keys = try await objectKeys()
        for key in keys {
            do {
                _ = try await send("DELETE", key)
            } catch {
                throw Self.cacheError(error, source: description)
            }
        }
        return keys.count
    }

    /// A query value encoded as SigV4 wants it (everything but unreserved characters, `/` included).
    static func encodeQueryValue(_ value: String) -> String {
        S3Location.encode(value).replacingOccurrences(of: "/", with: "%2F")
    }
}

/// One page of a `ListObjects` answer: its keys, and whether more follow.
struct ListPage {
    var keys: [String] = []
    var isTruncated = false

    /// Reads the page with Foundation's XML parser; throws when the answer is not a listing.
    init(xml: Data) throws {
        let reader = ListReader()
        let parser = XMLParser(data: xml)
        parser.delegate = reader
        guard parser.parse(), reader.sawListing else {
            throw ImagoError(.cacheFailed, "the store's object listing could not be read")
        }
        keys = reader.keys
        isTruncated = reader.isTruncated
    }
}

/// Collects `<Key>` and `<IsTruncated>` of a `ListBucketResult`.
private final class ListReader: NSObject, XMLParserDelegate {
    var keys: [String] = []
    var isTruncated = false
    var sawListing = false
    private var text = ""

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if name == "ListBucketResult" { sawListing = true }
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        switch name {
        case "Key": keys.append(text)
        case "IsTruncated": isTruncated = text == "true"
        default: break
        }
    }
}
