import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one delegate of a transport's session: routes each task's callbacks to the load that started it.
final class HTTPSessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let loads = Mutex<[Int: HTTPLoad]>([:])

    /// Routes `task`'s callbacks to `load` until the task completes.
    func register(_ load: HTTPLoad, for task: URLSessionTask) {
        loads.withLock { $0[task.taskIdentifier] = load }
    }

    private func load(for task: URLSessionTask) -> HTTPLoad? {
        loads.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        completionHandler(load(for: dataTask)?.receive(response) ?? .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        load(for: dataTask)?.receive(data)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(load(for: task)?.redirect(response, to: request))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let load = loads.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        load?.complete(error)
    }
}
