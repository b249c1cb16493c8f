/// Observes loads: registered on a loader (`ImageLoader(registry:settings:eventListeners:)`, every load) or given
/// to one load (`ImageLoader.image(for:listener:)`).
///
/// `receive` is called synchronously on the loader's threads, in order for each load, possibly from several
/// threads for different loads: keep it short and thread-safe (hand the event to a queue or an actor for
/// anything slow).
///
/// ```swift
/// let log = ImageLoadEventClosure { event in
///     if case .fetchEnded(let attempt) = event.kind { print(event.request.url, attempt.statusCode ?? 0) }
/// }
/// let loader = ImageLoader(registry: .standard(), eventListeners: [log])
/// ```
public protocol ImageLoadEventListener: Sendable {
    /// Called for each event of a load.
    func receive(_ event: ImageLoadEvent)
}

/// A listener made of a closure.
public struct ImageLoadEventClosure: ImageLoadEventListener {
    private let body: @Sendable (ImageLoadEvent) -> Void

    /// Creates a listener calling `body` for each event.
    public init(_ body: @escaping @Sendable (ImageLoadEvent) -> Void) { self.body = body }

    public func receive(_ event: ImageLoadEvent) { body(event) }
}
