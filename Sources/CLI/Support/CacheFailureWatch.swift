import Foundation
import Imago
import Synchronization

/// Listens to loads for the first cache failure (a disk cache that stepped aside, a cache that cannot be read),
/// so a command can say so once: otherwise nothing tells the user that no run will ever be served from it.
final class CacheFailureWatch: ImageLoadEventListener {
    private let state = Mutex<(first: ImagoError?, warned: Bool)>((nil, false))

    init() {}

    func receive(_ event: ImageLoadEvent) {
        switch event.kind {
        case .cacheWriteFailed(_, let error), .dataCacheReadFailed(let error):
            state.withLock { if $0.first == nil { $0.first = error } }
        default: break
        }
    }

    /// The first failure seen.
    var firstFailure: ImagoError? { state.withLock { $0.first } }

    /// Prints the first failure on standard error, once.
    func warnOnce(command: String) {
        let failure = state.withLock { state -> ImagoError? in
            guard !state.warned, let first = state.first else { return nil }
            state.warned = true
            return first
        }
        if let failure { Console.printError("\(command): warning: \(failure)") }
    }
}
