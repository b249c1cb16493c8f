import Synchronization

/// Something whose priority can be read now: a caller's fixed priority, or shared work whose priority is the
/// highest of its waiters' (so a visible request joining a prefetch raises it while it is still queued).
protocol PrioritySource: AnyObject, Sendable {
    /// The priority at this moment.
    var currentPriority: ImagePriority { get }
}

/// A priority that a caller holds; it can change while the work waits in a queue.
final class PriorityBox: PrioritySource {
    private let value: Mutex<ImagePriority>

    init(_ priority: ImagePriority) { value = Mutex(priority) }

    var currentPriority: ImagePriority {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
