#include "imago_mhd.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/// What one daemon needs besides MHD's own state: the Swift callbacks and a place for MHD's start-up errors.
struct imago_mhd_server {
    struct MHD_Daemon *daemon;
    struct imago_mhd_callbacks callbacks;
    pthread_mutex_t lock;
    char error[256];
};

static void logger(void *cls, const char *format, va_list arguments) {
    struct imago_mhd_server *server = cls;
    pthread_mutex_lock(&server->lock);
    /* Keep the first message: it is the reason a start failed (later ones are per-connection noise). */
    if (server->error[0] == 0) {
        vsnprintf(server->error, sizeof server->error, format, arguments);
        size_t length = strlen(server->error);
        while (length > 0 && (server->error[length - 1] == '\n' || server->error[length - 1] == '\r')) {
            server->error[--length] = 0;
        }
    }
    pthread_mutex_unlock(&server->lock);
}

static void *uri_logged(void *cls, const char *uri, struct MHD_Connection *connection) {
    struct imago_mhd_server *server = cls;
    return server->callbacks.began(server->callbacks.context, uri, connection);
}

static enum MHD_Result access_handler(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                                      const char *version, const char *upload_data, size_t *upload_data_size,
                                      void **con_cls) {
    (void)url;
    (void)version;
    (void)upload_data;
    struct imago_mhd_server *server = cls;
    if (*upload_data_size != 0) {
        /* Bodies are never read (only GET and HEAD are served): drop them. */
        *upload_data_size = 0;
        return MHD_YES;
    }
    return server->callbacks.handle(server->callbacks.context, connection, method, *con_cls);
}

static void request_completed(void *cls, struct MHD_Connection *connection, void **con_cls,
                              enum MHD_RequestTerminationCode code) {
    (void)connection;
    (void)code;
    struct imago_mhd_server *server = cls;
    if (*con_cls != NULL) {
        server->callbacks.completed(server->callbacks.context, *con_cls);
        *con_cls = NULL;
    }
}

/* The path is handed over exactly as sent: signatures cover the bytes the client sent, and the source is
   percent-decoded by the router itself. */
static size_t keep_escapes(void *cls, struct MHD_Connection *connection, char *uri) {
    (void)cls;
    (void)connection;
    return strlen(uri);
}

struct imago_mhd_server *imago_mhd_start(const struct imago_mhd_options *options,
                                         const struct imago_mhd_callbacks *callbacks, char *error, size_t error_size) {
    struct sockaddr_storage address;
    memset(&address, 0, sizeof address);
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
    struct sockaddr_in *v4 = (struct sockaddr_in *)&address;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&address;
    if (inet_pton(AF_INET, options->host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(options->port);
    } else if (inet_pton(AF_INET6, options->host, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(options->port);
        flags |= MHD_USE_IPv6;
    } else {
        snprintf(error, error_size, "not a numeric IP address: %s", options->host);
        return NULL;
    }

    struct imago_mhd_server *server = calloc(1, sizeof *server);
    if (server == NULL) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    server->callbacks = *callbacks;
    pthread_mutex_init(&server->lock, NULL);

    struct MHD_OptionItem items[] = {
        {MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)logger, server},
        {MHD_OPTION_SOCK_ADDR, 0, &address},
        {MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)uri_logged, server},
        {MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)request_completed, server},
        {MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t)keep_escapes, NULL},
        {MHD_OPTION_THREAD_POOL_SIZE, options->threads > 1 ? options->threads : 0, NULL},
        {MHD_OPTION_CONNECTION_LIMIT, options->connection_limit, NULL},
        {MHD_OPTION_CONNECTION_TIMEOUT, options->timeout, NULL},
        {MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)options->memory_limit, NULL},
        {MHD_OPTION_LISTEN_BACKLOG_SIZE, options->backlog, NULL},
        {MHD_OPTION_END, 0, NULL},
    };
    /* MHD binds MHD_OPTION_SOCK_ADDR's address; the port argument only names the port in its messages ("Failed to
       bind to port N"), so it is the one asked for, not 0. */
    struct MHD_Daemon *daemon = MHD_start_daemon(flags, options->port, NULL, NULL, access_handler, server,
                                                 MHD_OPTION_ARRAY, items, MHD_OPTION_END);
    if (daemon == NULL) {
        pthread_mutex_lock(&server->lock);
        snprintf(error, error_size, "%s", server->error[0] ? server->error : strerror(errno));
        pthread_mutex_unlock(&server->lock);
        pthread_mutex_destroy(&server->lock);
        free(server);
        return NULL;
    }
    server->daemon = daemon;
    return server;
}

uint16_t imago_mhd_bound_port(struct imago_mhd_server *server) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

void imago_mhd_stop_accepting(struct imago_mhd_server *server) {
    MHD_socket socket = MHD_quiesce_daemon(server->daemon);
    if (socket != MHD_INVALID_SOCKET) close(socket);
}

void imago_mhd_stop(struct imago_mhd_server *server) {
    MHD_stop_daemon(server->daemon);
    pthread_mutex_destroy(&server->lock);
    free(server);
}

const char *imago_mhd_header(struct MHD_Connection *connection, const char *name) {
    return MHD_lookup_connection_value(connection, MHD_HEADER_KIND, name);
}

int imago_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

struct MHD_Response *imago_mhd_response(const void *data, size_t size) {
    return MHD_create_response_from_buffer(size, (void *)data, MHD_RESPMEM_MUST_COPY);
}
