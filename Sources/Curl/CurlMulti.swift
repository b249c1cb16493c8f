import CCurl
import Foundation
import ImagoCore
import Synchronization

/// The side of a libcurl multi handle other threads see: they post commands, which its own thread runs.
///
/// libcurl handles are not thread-safe, so every call on them happens on the loop's thread (`CurlMultiLoop`);
/// the only call made from elsewhere is `curl_multi_wakeup`, which exists for that. The thread sleeps in
/// `curl_multi_poll` until a socket is ready, a timer is due, or a command wakes it.
package final class CurlMulti: Sendable {
    enum Command: Sendable {
        case add(id: UInt64, request: CurlRequest, events: HTTPEventQueue)
        case cancel(id: UInt64)
        case resume(id: UInt64)
    }

    private struct Inbox {
        var commands: [Command] = []
        var isShuttingDown = false
        var isStopped = false
    }

    /// The `CURLM *`. Off the loop's thread it is only passed to `curl_multi_wakeup`, under the inbox lock, so it
    /// is never woken after the loop cleaned it up.
    nonisolated(unsafe) let handle: UnsafeMutableRawPointer
    package let configuration: CurlConfiguration
    private let inbox = Mutex(Inbox())
    private let nextID = Atomic<UInt64>(1)

    package init(configuration: CurlConfiguration) {
        _ = CurlGlobal.initialized
        guard let handle = curl_multi_init() else { fatalError("libcurl could not allocate a multi handle") }
        self.handle = handle
        self.configuration = configuration
        imago_curl_multi_setopt_long(handle, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maxConnectionsPerHost)
        imago_curl_multi_setopt_long(handle, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        Thread.detachNewThread { [self] in
            Thread.current.name = "Imago.CurlTransport"
            CurlMultiLoop(multi: self).run()
        }
    }

    /// Starts a fetch: its events go to `events`; cancelling the queue cancels the transfer, and the consumer
    /// catching up resumes a transfer paused for back-pressure.
    package func add(_ request: CurlRequest, events: HTTPEventQueue) {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        events.onCancel { [self] in send(.cancel(id: id)) }
        events.onResume { [self] in send(.resume(id: id)) }
        if !send(.add(id: id, request: request, events: events)) {
            events.end(throwing: ImagoError(.cancelled, "the transport has shut down", source: request.source))
        }
    }

    /// The events of `request` as a stream, which owns the consumer's end: releasing it cancels the fetch.
    package func stream(_ request: CurlRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        let events = HTTPEventQueue()
        add(request, events: events)
        let consumer = HTTPStreamConsumer(events)
        return AsyncThrowingStream(unfolding: { try await consumer.next() })
    }

    /// Lets the loop's thread end once its transfers have; the transport is gone.
    package func shutDownWhenIdle() {
        inbox.withLock { inbox in
            guard !inbox.isStopped else { return }
            inbox.isShuttingDown = true
            _ = curl_multi_wakeup(handle)
        }
    }

    @discardableResult
    private func send(_ command: Command) -> Bool {
        inbox.withLock { inbox in
            guard !inbox.isStopped else { return false }
            inbox.commands.append(command)
            _ = curl_multi_wakeup(handle)
            return true
        }
    }

    // MARK: For the loop's thread

    /// The commands posted since the last call, and whether the transport is gone.
    func takeCommands() -> (commands: [Command], isShuttingDown: Bool) {
        inbox.withLock { inbox in
            defer { inbox.commands.removeAll() }
            return (inbox.commands, inbox.isShuttingDown)
        }
    }

    /// Cleans the multi handle up unless a command came in meanwhile; returns whether it stopped.
    func stopIfIdle() -> Bool {
        inbox.withLock { inbox in
            guard inbox.commands.isEmpty else { return false }
            inbox.isStopped = true
            curl_multi_cleanup(handle)
            return true
        }
    }
}

/// libcurl's process-wide initialisation, done once before the first handle.
enum CurlGlobal {
    static let initialized: Bool = imago_curl_global_init() == CURLE_OK
}
