import CCurl
import Foundation

extension CurlTransfer {
    /// The method and body (`PUT` sends `request.body`, copied by libcurl; other methods but `GET` are named as
    /// they are), and SigV4 signing when the request asks for it.
    func configureMethodAndSigning(of handle: UnsafeMutableRawPointer) {
        if request.method != "GET" {
            if let body = request.body {
                imago_curl_easy_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
                if body.isEmpty {
                    "".withCString { _ = imago_curl_easy_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, $0) }
                } else {
                    body.withUnsafeBytes {
                        _ = imago_curl_easy_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, $0.baseAddress)
                    }
                }
            }
            request.method.withCString { _ = imago_curl_easy_setopt_pointer(handle, CURLOPT_CUSTOMREQUEST, $0) }
        }
        if let signing = request.signing {
            // libcurl copies the strings; the keys go nowhere else (errors and descriptions never name them).
            signing.provider.withCString { _ = imago_curl_easy_setopt_pointer(handle, CURLOPT_AWS_SIGV4, $0) }
            signing.accessKeyID.withCString { _ = imago_curl_easy_setopt_pointer(handle, CURLOPT_USERNAME, $0) }
            signing.secretAccessKey.withCString { _ = imago_curl_easy_setopt_pointer(handle, CURLOPT_PASSWORD, $0) }
        }
    }
}
