import ImagoCore

/// What travels with a phase change: how the UI should animate it, and where the image came from
/// (SwiftUI's `Transaction`, free of UI frameworks).
public struct ImageTransaction: Sendable, Hashable {
    /// An animation a UI can apply to the change.
    public enum Transition: Sendable, Hashable {
        /// Show the new phase at once.
        case none
        /// Fade the new phase in over `duration` seconds.
        case crossfade(duration: Double)
    }

    /// The transition asked for.
    public var transition: Transition
    /// Whether animations are off for this change (the UI then shows it at once whatever `transition` says).
    public var disablesAnimations: Bool
    /// Where the image came from, for success phases.
    public var origin: ImageOrigin?
    /// Pixels per point of the image shown (2 for @2x), so the UI can size it in points.
    public var scale: Double

    /// Creates a transaction.
    public init(
        transition: Transition = .none, disablesAnimations: Bool = false, origin: ImageOrigin? = nil, scale: Double = 1
    ) {
        self.transition = transition
        self.disablesAnimations = disablesAnimations
        self.origin = origin
        self.scale = scale
    }

    /// The transition to run: `none` when animations are disabled.
    public var effectiveTransition: Transition { disablesAnimations ? .none : transition }
}
