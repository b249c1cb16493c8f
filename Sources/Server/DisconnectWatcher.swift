import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Watches the sockets of requests waiting for their answer and reports each whose client has gone (the peer
/// closed or reset the connection): libmicrohttpd does not poll a suspended connection, so without this the work
/// of a client that left would go on, and hold up shutdown, as if somebody were still waiting.
///
/// One thread of its own sleeps in `poll` (never the cooperative pool). Only hang-ups are watched, not readable
/// data, so a client that pipelines its next request is not taken for gone.
final class DisconnectWatcher: Sendable {
    /// A watched socket. The serial tells watches apart when a finished request's identifier and socket number
    /// are both reused by the next request (a fresh `RequestState` at the same address on a reused descriptor):
    /// a hang-up seen on the old connection must not be blamed on the new one.
    private struct Watch: Equatable {
        var fd: Int32
        var serial: UInt64
    }

    private struct State {
        var watched: [ObjectIdentifier: Watch] = [:]
        var nextSerial: UInt64 = 0
        var stopped = false
    }

    private let state = Mutex(State())
    private let gone: @Sendable (ObjectIdentifier) -> Void
    /// How long one `poll` waits: how soon a newly watched socket is included.
    static let interval: Int32 = 50
    /// Linux's `POLLRDHUP` (the peer closed its side), which Glibc declares only under `_GNU_SOURCE`.
    static let readHangUp: Int16 = 0x2000

    /// Starts watching; `gone` is called (on the watcher's thread) once for each request whose client left, after
    /// which it is no longer watched.
    init(gone: @escaping @Sendable (ObjectIdentifier) -> Void) {
        self.gone = gone
        let thread = Thread { [self] in run() }
        thread.name = "imago-disconnects"
        thread.start()
    }

    /// Watches `fd`, the socket of the request `id`, until `unwatch` or its client goes.
    func watch(_ id: ObjectIdentifier, fd: Int32) {
        guard fd >= 0 else { return }
        state.withLock { state in
            state.nextSerial += 1
            state.watched[id] = Watch(fd: fd, serial: state.nextSerial)
        }
    }

    /// Stops watching `id` (its answer is on its way).
    func unwatch(_ id: ObjectIdentifier) {
        _ = state.withLock { $0.watched.removeValue(forKey: id) }
    }

    /// Ends the thread.
    func stop() { state.withLock { $0.stopped = true } }

    private func run() {
        while true {
            let (stopped, entries) = state.withLock { ($0.stopped, Array($0.watched)) }
            if stopped { return }
            guard !entries.isEmpty else {
                usleep(UInt32(Self.interval) * 1000)
                continue
            }
            var fds = entries.map { pollfd(fd: $0.value.fd, events: Self.readHangUp, revents: 0) }
            guard poll(&fds, nfds_t(fds.count), Self.interval) > 0 else { continue }
            let hangUp = Self.readHangUp | Int16(POLLHUP | POLLERR | POLLNVAL)
            for (index, entry) in entries.enumerated() where fds[index].revents & hangUp != 0 {
                // Still watched means still suspended: MHD has not closed (or reused) the socket meanwhile.
                let current = state.withLock { state -> Bool in
                    guard state.watched[entry.key] == entry.value else { return false }
                    state.watched.removeValue(forKey: entry.key)
                    return true
                }
                if current { gone(entry.key) }
            }
        }
    }
}
