import CCurl
import Foundation
import ImagoCore

// libcurl's callbacks, as C function pointers: each finds its transfer from the context pointer (the transfer is
// kept alive by the loop while its handle exists) and runs on the loop's thread, inside `curl_multi_perform`.

let curlWriteCallback: curl_write_callback = { data, size, count, context in
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
}

let curlHeaderCallback: curl_write_callback = { data, size, count, context in
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
}

let curlOpenSocketCallback: curl_opensocket_callback = { context, purpose, address in
    guard let context, let address, purpose == CURLSOCKTYPE_IPCXN else { return imago_curl_socket_bad() }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.openSocket(address)
}

extension CurlTransfer {
    /// Body bytes: delivered in order, cut off past the cap, paused while the consumer is behind.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        switch phase {
        case .streaming:
            break
        case .redirecting:
            // A redirect's own body is read to its end (keeping the connection) unless it is long.
            skipped += Int64(bytes.count)
            return skipped <= Self.skippedBodyLimit ? bytes.count : 0
        case .awaitingHead, .finished:
            return 0  // ends the transfer; the stream has its answer already
        }
        lastActivity = .now
        guard received + Int64(bytes.count) <= Int64(maxBytes) else {
            fail(.tooLarge, "too large: more than \(maxBytes) bytes")
            return 0
        }
        guard !bytes.isEmpty else { return 0 }
        // A decoded (gzip, deflate) body is never paused: libcurl 7.88 keeps everything one compressed read
        // inflates to (64 KB of zeros make 64 MB) and copies the rest again at every later pause, so a 200 KB
        // bomb took 18 s and 166 MB to reach the cap. The cap above bounds what is queued instead.
        let limit = decodesContent ? nil : Self.bufferLimit
        guard events.push(.bytes(Data(bytes)), pausingAbove: limit) else {
            // libcurl keeps these bytes and hands them over again after `resume`.
            isPaused = true
            return imago_curl_write_pause()
        }
        received += Int64(bytes.count)
        return bytes.count
    }

    /// One line of a response head; the blank line that ends a final (non-1xx) head decides the response.
    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Int {
        lastActivity = .now
        guard case .awaitingHead = phase else { return bytes.count }  // trailers, or a head no longer wanted
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            fields = [:]  // a new head (after a 1xx, or the first)
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            fields[name] = fields[name].map { "\($0), \(value)" } ?? value
        } else if line.isEmpty {
            var status = 0
            if let handle { imago_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status) }
            guard status >= 200 else { return bytes.count }  // an informational head: the real one follows
            return respond(
                to: HTTPResponseHead(statusCode: status, fields: fields, url: request.sourceURL ?? request.url))
                ? bytes.count : 0
        }
        return bytes.count
    }

    /// Acts on a final response head; returns false to end the transfer at once.
    private func respond(to head: HTTPResponseHead) -> Bool {
        switch head.statusCode {
        case 304:
            // Revalidation: the caller's cached copy is still good; there is no body to read.
            var metadata = head.metadata
            metadata.expectedLength = 0
            events.push(.response(metadata))
            finish(throwing: nil)
            return true
        case 200..<300:
            if let expected = head.metadata.expectedLength, expected > maxBytes {
                fail(.tooLarge, "too large: \(expected) bytes exceeds the limit of \(maxBytes) bytes")
                return false
            }
            expected = head.metadata.expectedLength
            decodesContent = Self.isEncoded(fields)
            phase = .streaming
            events.push(.response(head.metadata))
            return true
        case 301, 302, 303, 307, 308:
            guard let location = fields["location"] else { fallthrough }
            return redirect(status: head.statusCode, location: location)
        default:
            fail(.transportFailed(status: head.statusCode), head.statusReason, retryAfter: head.metadata.retryAfter)
            return false
        }
    }

    /// Whether a response's fields name a content encoding libcurl will undo (anything but `identity`).
    static func isEncoded(_ fields: [String: String]) -> Bool {
        !["", "identity"].contains(fields["content-encoding"]?.trimmingCharacters(in: .whitespaces).lowercased() ?? "")
    }

    /// Checks a redirect's target (scheme, count, URL) before anything is sent to it.
    private func redirect(status: Int, location: String) -> Bool {
        guard let target = URL(string: location, relativeTo: request.url)?.absoluteURL else {
            fail(.transportFailed(status: status), "refused redirect to an invalid URL")
            return false
        }
        guard ["http", "https"].contains(target.scheme?.lowercased() ?? "") else {
            fail(
                .transportFailed(status: status),
                "refused redirect to \(target.absoluteString): only http and https are followed")
            return false
        }
        redirects += 1
        guard redirects <= configuration.maxRedirects else {
            fail(.transportFailed(status: status), "too many redirects (more than \(configuration.maxRedirects))")
            return false
        }
        let valid: URL
        do {
            valid = try HTTPRequestValidation.validatedURL(target)
        } catch {
            fail(.transportFailed(status: status), "refused redirect to an invalid URL: \(target.absoluteString)")
            return false
        }
        // Every hop passes the loader's source policy before anything is sent to it.
        do {
            phase = .redirecting(try request.limits.checkRedirect(to: valid, source: source))
        } catch {
            finish(throwing: ImagoError.wrapping(error, source: source))
            return false
        }
        return true
    }

    /// Shows the address to the connection filter, and opens the socket only if it agrees.
    func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        let policy = request.limits.policy
        if configuration.connectionFilter != nil || policy != nil {
            var text = [CChar](repeating: 0, count: 64)
            var port: Int32 = 0
            let family = imago_curl_describe_address(address, &text, socklen_t(text.count), &port)
            guard family == AF_INET || family == AF_INET6 else { return imago_curl_socket_bad() }
            let candidate = ConnectionAddress(
                host: request.url.host ?? "",
                ip: String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
                port: Int(port), isIPv6: family == AF_INET6)
            let allowed =
                (configuration.connectionFilter?(candidate) ?? true)
                && (policy?.allowsConnection(to: candidate.ip) ?? true)
            guard allowed else {
                refusedAddress = candidate
                return imago_curl_socket_bad()
            }
        }
        return imago_curl_open_socket(address)
    }
}
