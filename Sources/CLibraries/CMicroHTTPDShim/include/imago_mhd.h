#ifndef IMAGO_MHD_H
#define IMAGO_MHD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

/// The three moments of a request that Swift handles. `context` is the server's own pointer.
struct imago_mhd_callbacks {
    void *context;
    /// The request line was read: returns the request's state (kept by MHD as its `con_cls`).
    void *(*began)(void *context, const char *uri, struct MHD_Connection *connection);
    /// The head is complete (again after each resume): queue a response, or suspend the connection.
    enum MHD_Result (*handle)(void *context, struct MHD_Connection *connection, const char *method, void *state);
    /// MHD is done with the request (answered, or the client went away): release the state.
    void (*completed)(void *context, void *state);
};

/// Where and how to listen.
struct imago_mhd_options {
    const char *host;              /* numeric IPv4 or IPv6 address */
    uint16_t port;                 /* 0: any free port */
    unsigned int threads;          /* MHD's polling threads */
    unsigned int connection_limit; /* open connections at most */
    unsigned int timeout;          /* seconds an idle connection is kept */
    size_t memory_limit;           /* bytes per connection: request line and headers must fit */
    unsigned int backlog;          /* listen backlog */
};

/// A running daemon and what the shim keeps for it.
struct imago_mhd_server;

/// Starts a daemon (MHD_start_daemon is variadic, which Swift cannot call). On failure returns NULL and writes
/// one line saying why into `error`.
struct imago_mhd_server *imago_mhd_start(const struct imago_mhd_options *options,
                                         const struct imago_mhd_callbacks *callbacks, char *error, size_t error_size);

/// The port the daemon listens on (the one chosen when 0 was asked).
uint16_t imago_mhd_bound_port(struct imago_mhd_server *server);

/// Stops accepting new connections (the listening socket is closed); connections already open are still served.
void imago_mhd_stop_accepting(struct imago_mhd_server *server);

/// Stops the daemon (every connection must have been resumed) and frees the server.
void imago_mhd_stop(struct imago_mhd_server *server);

/// A request header's value, or NULL.
const char *imago_mhd_header(struct MHD_Connection *connection, const char *name);

/// The socket of `connection`, or -1. A suspended connection is not polled by MHD: the server watches this socket
/// itself to learn that the client went away while its request waited.
int imago_mhd_connection_fd(struct MHD_Connection *connection);

/// Returns the heap's free pages to the system (glibc's `malloc_trim`, which Swift's Glibc module does not
/// declare); 0 elsewhere.
static inline int imago_release_free_memory(void) {
#ifdef __GLIBC__
    return malloc_trim(0);
#else
    return 0;
#endif
}

/// Makes glibc serve every allocation of `threshold` bytes or more with its own mapping, returned to the system when
/// freed (`mallopt(M_MMAP_THRESHOLD)`, which also stops glibc raising the threshold after each large free: raised, it
/// keeps large buffers in its heaps, and a server's memory stays at its busiest moment). Nothing elsewhere.
static inline void imago_map_large_allocations(size_t threshold) {
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, (int)threshold);
#else
    (void)threshold;
#endif
}

/// A response holding a copy of `size` bytes at `data` (NULL for none).
struct MHD_Response *imago_mhd_response(const void *data, size_t size);

#endif
