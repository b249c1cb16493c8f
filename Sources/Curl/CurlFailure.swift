import CCurl
import ImagoCore

/// Turns libcurl's result codes into toolkit errors with a reason a person can read (the one place to align
/// with the loader's error classification).
enum CurlFailure {
    /// The error for `code`; `detail` is libcurl's error buffer, which tells protocol errors from lost connections.
    static func error(for code: CURLcode, detail: String = "", source: String) -> ImagoError {
        if let protocolError = protocolError(code, detail: detail, source: source) { return protocolError }
        let failed = ImagoError.Kind.transportFailed(status: nil)
        // Refused, empty or cut connections may succeed later (the loader retries them); the rest would not.
        let lost = ImagoError.Kind.connectionFailed
        switch code {
        case CURLE_COULDNT_CONNECT: return ImagoError(lost, "connection refused", source: source)
        case CURLE_COULDNT_RESOLVE_HOST: return ImagoError(failed, "host not found", source: source)
        case CURLE_COULDNT_RESOLVE_PROXY: return ImagoError(failed, "proxy not found", source: source)
        case CURLE_OPERATION_TIMEDOUT: return ImagoError(.timedOut, "timed out (libcurl)", source: source)
        case CURLE_GOT_NOTHING: return ImagoError(lost, "the server sent no response", source: source)
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR: return ImagoError(lost, "connection lost", source: source)
        case CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_HTTP3:
            return ImagoError(failed, "bad server response", source: source)
        case CURLE_SSL_CONNECT_ERROR: return ImagoError(failed, "secure connection failed", source: source)
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CACERT_BADFILE,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH,
            CURLE_SSL_ISSUER_ERROR:
            return ImagoError(failed, "TLS certificate refused", source: source)
        case CURLE_BAD_CONTENT_ENCODING:
            return ImagoError(failed, "cannot decode the response body's content encoding", source: source)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return ImagoError(.invalidSource, "invalid source: libcurl refused the URL", source: source)
        default:
            let message = curl_easy_strerror(code).map { String(cString: $0) } ?? "unknown error"
            return ImagoError(failed, "network error \(code.rawValue): \(message)", source: source)
        }
    }

    /// A server that broke HTTP (malformed chunked encoding, which libcurl reports as a receive error): not a lost
    /// connection, so classed `transportFailed` (never retried: the same server answers the same way); nil for
    /// anything else.
    static func protocolError(_ code: CURLcode, detail: String, source: String) -> ImagoError? {
        guard code == CURLE_RECV_ERROR, detail.contains("chunked-encoding") else { return nil }
        return ImagoError(
            .transportFailed(status: nil), "bad server response: \(detail.lowercasedFirst)", source: source)
    }

    /// A response header line over libcurl's limit (`CURL_MAX_HTTP_HEADER`, 100 KB), which libcurl 7.88 reports as
    /// `CURLE_OUT_OF_MEMORY` while reading the head.
    static func headerTooLarge(source: String) -> ImagoError {
        ImagoError(
            .tooLarge, "the response header is too large (libcurl accepts at most 100 KB a line)", source: source)
    }

    /// The connection filter refused the address (and every other the host has).
    static func refused(_ address: ConnectionAddress, source: String) -> ImagoError {
        let shown = address.isIPv6 ? "[\(address.ip)]" : address.ip
        return ImagoError(
            .addressRefused,
            "refused to connect to \(shown):\(address.port) (\(address.host)): the connection filter refused it",
            source: source)
    }

    /// A body that ended before its declared length (or, without one, a connection that broke mid-body).
    static func truncated(received: Int64, expected: Int64?, source: String) -> ImagoError {
        let reason =
            expected.map { "truncated body: received \(received) of \($0) bytes" }
            ?? "truncated body: the connection ended after \(received) bytes"
        return ImagoError(.connectionFailed, reason, source: source)
    }
}

extension String {
    /// The text with its first letter lowercased, to continue a sentence with libcurl's capitalised messages.
    fileprivate var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}
