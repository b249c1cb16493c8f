import Foundation

/// A decoder of sources with a timeline (video): a still decode gives a poster (`DecodeOptions.timeline.posterTime`),
/// and a decode of every frame gives frames only when the timeline caps them (`TimelineOptions.wantsFrames`), as many
/// as it samples (`TimelineOptions.sampledFrameCount(of:)`); a render checks its limits against that count.
public protocol TimelineDecoding: ImageDecoder {}

/// A decoder that reports what its file's container says beyond the pixels (a video's codec, duration, frame
/// rate), read without decoding a frame: a decoded render (`/info`, `imago info --json`) lists it under `factsKey`.
public protocol ContainerFactsReading: ImageDecoder {
    /// The name the facts are listed under (`video`).
    var factsKey: String { get }
    /// The facts of `data`, checking `limits` as a decode does.
    func containerFacts(_ data: Data, limits: DecodeLimits) throws -> JSONValue
}
