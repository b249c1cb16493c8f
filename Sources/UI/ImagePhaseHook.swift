import ImagoCore

/// A phase change about to happen or just committed.
public struct ImagePhaseChange: Sendable {
    /// The phase before.
    public var from: ImagePhase
    /// The phase after.
    public var to: ImagePhase

    /// Creates a change.
    public init(from: ImagePhase, to: ImagePhase) {
        self.from = from
        self.to = to
    }
}

/// Runs before a phase change and may change its transaction; hooks run in the order they are listed.
public struct ImagePhaseHook: Sendable {
    /// A name for debugging.
    public var name: String
    let body: @MainActor @Sendable (ImagePhaseChange, inout ImageTransaction) -> Void

    /// Creates a hook.
    public init(
        _ name: String, _ body: @escaping @MainActor @Sendable (ImagePhaseChange, inout ImageTransaction) -> Void
    ) {
        self.name = name
        self.body = body
    }

    /// No animation when the image came from the memory cache: it is there at once, so a fade would only
    /// flicker (as Nuke, Kingfisher, Coil and Glide do).
    public static let noAnimationForMemoryHits = ImagePhaseHook("noAnimationForMemoryHits") { change, transaction in
        if change.to.origin == .memory {
            transaction.disablesAnimations = true
            transaction.transition = .none
        }
    }
}

/// Delivers phase changes: runs the hooks, commits the phase, then tells the observers, one change at a time
/// and in order, even when an observer causes another change.
@MainActor
final class ImagePhaseDelivery {
    private(set) var phase: ImagePhase = .empty
    private(set) var transaction = ImageTransaction()
    var hooks: [ImagePhaseHook]
    private var observers: [(ImagePhase, ImageTransaction) -> Void] = []
    private var pending: [(ImagePhase, ImageTransaction)] = []
    private var isDelivering = false
    /// Commits the phase and its transaction together (the model's stored properties).
    let commit: (ImagePhase, ImageTransaction) -> Void

    init(hooks: [ImagePhaseHook], commit: @escaping (ImagePhase, ImageTransaction) -> Void) {
        self.hooks = hooks
        self.commit = commit
    }

    func observe(_ observer: @escaping (ImagePhase, ImageTransaction) -> Void) { observers.append(observer) }

    func send(_ phase: ImagePhase, _ transaction: ImageTransaction) {
        pending.append((phase, transaction))
        guard !isDelivering else { return }
        isDelivering = true
        defer { isDelivering = false }
        while !pending.isEmpty {
            let next: ImagePhase
            var transaction: ImageTransaction
            (next, transaction) = pending.removeFirst()
            let change = ImagePhaseChange(from: self.phase, to: next)
            for hook in hooks { hook.body(change, &transaction) }
            self.phase = next
            self.transaction = transaction
            commit(next, transaction)
            for observer in observers { observer(next, transaction) }
        }
    }
}
