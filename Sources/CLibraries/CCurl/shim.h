// libcurl's option and info calls are variadic, which Swift cannot call: these typed wrappers can be.
#include <curl/curl.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

static inline CURLcode imago_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode imago_curl_easy_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode imago_curl_easy_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode imago_curl_easy_setopt_write(CURL *handle, CURLoption option, curl_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode imago_curl_easy_setopt_opensocket(CURL *handle, curl_opensocket_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, callback);
}

static inline CURLMcode imago_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

static inline CURLcode imago_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode imago_curl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

/// The transfer a finished-transfer message is about, and its result (the message's union, spelled out).
static inline CURLcode imago_curl_msg_result(const CURLMsg *message) { return message->data.result; }

/// A stream socket for the address libcurl is about to connect to, closed on exec like libcurl's own.
static inline curl_socket_t imago_curl_open_socket(const struct curl_sockaddr *address) {
#ifdef SOCK_CLOEXEC
    return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
#else
    return socket(address->family, address->socktype, address->protocol);
#endif
}

/// Called once, before any other libcurl call (thread-safe since 7.84).
static inline CURLcode imago_curl_global_init(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }

/// Resumes a transfer its write callback paused.
static inline CURLcode imago_curl_unpause(CURL *handle) { return curl_easy_pause(handle, CURLPAUSE_CONT); }

/// What a write callback returns to pause its transfer.
static inline size_t imago_curl_write_pause(void) { return CURL_WRITEFUNC_PAUSE; }

/// What an open-socket callback returns to refuse the connection.
static inline curl_socket_t imago_curl_socket_bad(void) { return CURL_SOCKET_BAD; }

/// The numeric address (written into `text`, at least INET6_ADDRSTRLEN bytes) and port of `address`;
/// returns its family (AF_INET or AF_INET6), or 0 for any other family.
static inline int imago_curl_describe_address(
    const struct curl_sockaddr *address, char *text, socklen_t size, int *port) {
    if (address->family == AF_INET) {
        const struct sockaddr_in *ipv4 = (const struct sockaddr_in *)&address->addr;
        if (inet_ntop(AF_INET, &ipv4->sin_addr, text, size) == NULL) return 0;
        *port = ntohs(ipv4->sin_port);
        return AF_INET;
    }
    if (address->family == AF_INET6) {
        const struct sockaddr_in6 *ipv6 = (const struct sockaddr_in6 *)&address->addr;
        if (inet_ntop(AF_INET6, &ipv6->sin6_addr, text, size) == NULL) return 0;
        *port = ntohs(ipv6->sin6_port);
        return AF_INET6;
    }
    return 0;
}
