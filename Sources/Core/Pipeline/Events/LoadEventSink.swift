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
    /// go to `progress`.
    static func load(
        _ loadID: UInt64, _ request: ImageRequest, listeners: [any ImageLoadEventListener],
        progress: (@Sendable (FetchProgress) -> Void)?
    ) -> LoadEventSink? {
        if listeners.isEmpty, progress == nil { return nil }
        return LoadEventSink { kind in
            if let progress, case .bytesReceived(let value) = kind { progress(value) }
            guard !listeners.isEmpty else { return }
            let event = ImageLoadEvent(loadID: loadID, request: request, kind: kind)
            for listener in listeners { listener.receive(event) }
        }
    }
}

extension Optional where Wrapped == LoadEventSink {
    /// Sends `kind` when there is a sink.
    func callAsFunction(_ kind: @autoclosure () -> ImageLoadEvent.Kind) {
        if let sink = self { sink.deliver(kind()) }
    }
}
