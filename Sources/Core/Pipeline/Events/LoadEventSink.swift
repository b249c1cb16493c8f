/// Where a stage sends the events of the work it does: one load's listeners, or every load sharing that work.
struct LoadEventSink: Sendable {
    let deliver: @Sendable (ImageLoadEvent.Kind) -> Void

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
