import Synchronization

/// Where a stage sends the events of the work it does: one load's listeners, or every load sharing that work.
struct LoadEventSink: Sendable {
    let deliver: @Sendable (ImageLoadEvent.Kind) -> Void
    /// For a sink that reaches whoever waits at the time of the event (shared work): one that reaches those
    /// waiting now, even after they stopped waiting. `nil` when the sink already always reaches the same loads.
    let pinning: (@Sendable () -> LoadEventSink)?

    init(
        pinning: (@Sendable () -> LoadEventSink)? = nil, deliver: @escaping @Sendable (ImageLoadEvent.Kind) -> Void
    ) {
        self.deliver = deliver
        self.pinning = pinning
    }

    /// A sink that reaches the loads this one reaches now, for events sent after the work has ended.
    var pinned: LoadEventSink { pinning?() ?? self }

    /// Sends `kind`.
    func callAsFunction(_ kind: ImageLoadEvent.Kind) { deliver(kind) }

    /// The sink of one load: stamps each event with the load and hands it to the listeners; bytes received also
    /// go to `progress`. A load that ends while one of its fetch attempts is open (it left the shared fetch, which
    /// goes on for others) gets that attempt's `fetchEnded` first, so listeners can pair them.
    static func load(
        _ loadID: UInt64, _ request: ImageRequest, listeners: [any ImageLoadEventListener],
        progress: (@Sendable (FetchProgress) -> Void)?
    ) -> LoadEventSink? {
        if listeners.isEmpty, progress == nil { return nil }
        // The attempt started and not yet ended, with the body bytes it has brought; `ended` once the load's last
        // event went out (a shared fetch's events racing with the load's cancellation are dropped then, so each
        // attempt ends once).
        let state = Mutex<(open: (number: Int, since: ContinuousClock.Instant, received: Int64)?, ended: Bool)>(
            (nil, false))
        return LoadEventSink { kind in
            if let progress, case .bytesReceived(let value) = kind { progress(value) }
            guard !listeners.isEmpty else { return }
            func send(_ kind: ImageLoadEvent.Kind) {
                let event = ImageLoadEvent(loadID: loadID, request: request, kind: kind)
                for listener in listeners { listener.receive(event) }
            }
            var closing: FetchAttempt?
            let drop = state.withLock { state -> Bool in
                switch kind {
                case .fetchStarted(let attempt, _):
                    state.open = (attempt, .now, 0)
                case .bytesReceived(let progress):
                    state.open?.received = progress.received
                case .fetchEnded:
                    state.open = nil
                case .finished, .failed, .cancelled:
                    if let open = state.open {
                        let reason: ImagoError =
                            if case .failed(let error) = kind { error } else { ImagoError(.cancelled, "cancelled") }
                        closing = FetchAttempt(
                            attempt: open.number, duration: open.since.duration(to: .now).seconds,
                            byteCount: Int(open.received), error: reason)
                    }
                    state.open = nil
                    state.ended = true
                    return false
                default: return false
                }
                return state.ended
            }
            if drop { return }
            if let closing { send(.fetchEnded(closing)) }
            send(kind)
        }
    }
}

extension Optional where Wrapped == LoadEventSink {
    /// Sends `kind` when there is a sink.
    func callAsFunction(_ kind: @autoclosure () -> ImageLoadEvent.Kind) {
        if let sink = self { sink.deliver(kind()) }
    }
}
