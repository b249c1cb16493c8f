import Foundation
import ImagoCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Turns URLSession's errors into toolkit errors with a reason a person can read.
enum HTTPFailure {
    static func error(for error: any Error, source: String) -> ImagoError {
        if let error = error as? ImagoError { return error.naming(source) }
        guard let urlError = error as? URLError else {
            return ImagoError(
                .transportFailed(status: nil), error.localizedDescription, source: source,
                underlying: error)
        }
        return keeping(urlError, in: translated(urlError, source: source))
    }

    /// The error with `urlError` kept as its underlying error.
    private static func keeping(_ urlError: URLError, in error: ImagoError) -> ImagoError {
        var error = error
        error.underlying = urlError
        return error
    }

    private static func translated(_ urlError: URLError, source: String) -> ImagoError {
        let failed = ImagoError.Kind.transportFailed(status: nil)
        let lost = ImagoError.Kind.connectionFailed
        switch urlError.code {
        case .cancelled: return ImagoError(.cancelled, "cancelled", source: source)
        case .timedOut: return ImagoError(.timedOut, "timed out (URLSession)", source: source)
        case .cannotConnectToHost: return ImagoError(lost, "connection refused", source: source)
        case .cannotFindHost, .dnsLookupFailed: return ImagoError(failed, "host not found", source: source)
        case .networkConnectionLost: return ImagoError(lost, "connection lost", source: source)
        case .notConnectedToInternet: return ImagoError(lost, "not connected to the network", source: source)
        case .badServerResponse: return ImagoError(failed, "bad server response", source: source)
        case .httpTooManyRedirects: return ImagoError(failed, "too many redirects", source: source)
        case .redirectToNonExistentLocation: return ImagoError(failed, "redirect without a location", source: source)
        case .secureConnectionFailed: return ImagoError(failed, "secure connection failed", source: source)
        case .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateHasUnknownRoot,
            .serverCertificateNotYetValid, .clientCertificateRejected, .clientCertificateRequired:
            return ImagoError(failed, "TLS certificate refused", source: source)
        case .cannotDecodeContentData, .cannotDecodeRawData:
            return ImagoError(failed, "cannot decode the response body's content encoding", source: source)
        case .badURL, .unsupportedURL:
            return ImagoError(.invalidSource, "invalid source: URLSession refused the URL", source: source)
        default:
            return ImagoError(
                failed, "network error \(urlError.code.rawValue): \(urlError.localizedDescription)", source: source)
        }
    }
}
