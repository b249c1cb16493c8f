import CCurl
import Foundation
import ImagoCore

/// The loop of one multi handle, run on its own thread: runs commands, lets libcurl move the transfers along,
/// enforces the deadlines, and sleeps in `curl_multi_poll` until there is something to do. It never spins:
/// the poll's timeout is the nearest of libcurl's own timers and the transfers' deadlines.
final class CurlMultiLoop {
    private let multi: CurlMulti
    private var transfers: [UInt64: CurlTransfer] = [:]
    private let clock = ContinuousClock()

    init(multi: CurlMulti) { self.multi = multi }

    func run() {
        while true {
            let (commands, isShuttingDown) = multi.takeCommands()
            for command in commands { run(command) }
            if isShuttingDown, transfers.isEmpty, multi.stopIfIdle() { return }

            var running: Int32 = 0
            curl_multi_perform(multi.handle, &running)
            collectFinishedTransfers()
            enforceDeadlines()
            curl_multi_poll(multi.handle, nil, 0, pollTimeout(), nil)
        }
    }

    private func run(_ command: CurlMulti.Command) {
        switch command {
        case .add(let id, let request, let events):
            let transfer = CurlTransfer(
                id: id, request: request, events: events, configuration: multi.configuration, startedAt: clock.now)
            guard transfer.start(in: multi.handle) else { return transfer.cleanUp(in: nil) }
            transfers[id] = transfer
        case .cancel(let id):
            guard let transfer = transfers.removeValue(forKey: id) else { return }
            transfer.finish(throwing: nil)
            transfer.cleanUp(in: multi.handle)
        case .resume(let id):
            transfers[id]?.resume(now: clock.now)
        }
    }

    /// Hands each finished transfer its result; a redirect starts again on the same handle (and connection pool).
    private func collectFinishedTransfers() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi.handle, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle else { continue }
            let result = imago_curl_msg_result(message)
            curl_multi_remove_handle(multi.handle, handle)
            var context: UnsafeMutableRawPointer?
            imago_curl_easy_getinfo_pointer(handle, CURLINFO_PRIVATE, &context)
            let id = UInt64(UInt(bitPattern: context))
            guard let transfer = transfers[id] else { continue }
            if transfer.complete(result, now: clock.now), transfer.restart(in: multi.handle) { continue }
            transfers.removeValue(forKey: id)
            transfer.cleanUp(in: nil)
        }
    }

    private func enforceDeadlines() {
        let now = clock.now
        for (id, transfer) in transfers where transfer.enforceDeadlines(now: now) {
            transfers.removeValue(forKey: id)
            transfer.cleanUp(in: multi.handle)
        }
    }

    /// Milliseconds until libcurl's next timer or the nearest deadline, whichever is sooner (at most a minute).
    private func pollTimeout() -> Int32 {
        var curlTimeout = -1
        curl_multi_timeout(multi.handle, &curlTimeout)
        var timeout = curlTimeout >= 0 ? min(curlTimeout, 60_000) : 60_000
        let now = clock.now
        for transfer in transfers.values {
            guard let deadline = transfer.nextDeadline else { continue }
            let (seconds, attoseconds) = (deadline - now).components
            let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
            timeout = min(timeout, max(0, Int(milliseconds)))
        }
        return Int32(timeout)
    }
}
