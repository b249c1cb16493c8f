import ImagoCore
import Observation
import Synchronization

/// The observable state of one image view: give it a request, call `load()` when the view appears, and watch
/// `phase` (with `transaction` for how to animate each change).
///
/// Changing `request` cancels the load in flight, resets the phase, and loads the new one if `load()` was called
/// (and not `cancel()`); dropping the model cancels its load. Phase changes run the `hooks` in order, then are
/// committed together with their transaction, then reach the observers added with `onPhaseChange`, exactly once
/// each and in order. Progress reaches `progress` at most once a frame (about 60 times a second).
@MainActor
@Observable
public final class ImageModel {
    /// The current phase.
    public private(set) var phase: ImagePhase = .empty
    /// The transaction of the last phase change.
    public private(set) var transaction = ImageTransaction()
    /// Bytes received and expected while loading; complete once the phase is `success`.
    public private(set) var progress: FetchProgress?
    /// While the phase is `empty` and a load runs, the picture decoded from `thumbHash` (a small blurry image, at
    /// most 32 pixels on its longest side) for the view to show until the image arrives; `nil` otherwise.
    public private(set) var placeholder: DecodedImage?
    /// Whether a load is in flight.
    public private(set) var isLoading = false
    /// The player of the delivered image when it is animated (`nil` for a still image): a view draws
    /// `player.currentFrame`, and pauses it while it is not visible.
    public private(set) var player: AnimationPlayer?
    /// The frame a view draws now: the player's for an animation, else the image's (nil before it is loaded).
    public var currentFrame: ImageFrame? { player?.currentFrame ?? phase.image?.frames.first }
    /// Whether an animated image starts playing as soon as it is delivered.
    @ObservationIgnored public var playsAnimations = true
    /// How an animation is held while it plays: every frame decoded (`all`), or, with `automatic`, frame by frame
    /// when decoding every frame is refused for its size. Set it before `load()`.
    @ObservationIgnored public var animationFrames: AnimationFrames = .automatic

    /// How a model holds an animation's frames.
    public enum AnimationFrames: Sendable {
        /// Every frame decoded through the loader (memory cache, processors, previews); an animation whose frames
        /// together break the loader's limits (`maxTotalPixels`, `maxFrames`) is a failure.
        case all
        /// As `all`, but an animation refused with `limitExceeded` plays from a frame source over its bytes
        /// (`ImageLoader.sourceBytes(for:)`): one canvas in memory, each frame decoded when due, at the source's size (the
        /// request's processors are not applied). A still image refused for its size stays a failure.
        case automatic
    }

    /// The image to show; setting another cancels the load in flight and resets the phase to `empty`.
    public var request: ImageRequest? {
        didSet { requestDidChange() }
    }
    /// The transition asked for when an image or failure arrives (hooks may change it).
    @ObservationIgnored public var transition: ImageTransaction.Transition = .crossfade(duration: 0.25)
    /// When set, loads show previews while the bytes arrive: the phase is then `success` with a preview
    /// response (`phase.isPreview`), changed without animation; the final image replaces it with `transition`.
    @ObservationIgnored public var previews: PreviewPolicy?
    /// A ThumbHash of the request's image (as `GET /info` or `imago info --json` give it, base64-decoded): when
    /// set, a load that is not a memory hit decodes it into `placeholder` before it awaits anything, for the view to
    /// show while the phase is `empty`. Set it with each request (it is not part of the request: it changes nothing the loader loads or
    /// caches). Bytes that are not a ThumbHash show no placeholder.
    @ObservationIgnored public var thumbHash: [UInt8]?

    /// The hooks run before each phase change, in order.
    public var hooks: [ImagePhaseHook] {
        get { delivery.hooks }
        set { delivery.hooks = newValue }
    }

    @ObservationIgnored public let loader: ImageLoader
    @ObservationIgnored private var delivery: ImagePhaseDelivery!
    @ObservationIgnored private let inFlight = InFlightLoad()
    /// Bumped for every new load, so late results of a replaced load are dropped.
    @ObservationIgnored private var generation = 0
    @ObservationIgnored private var wantsImage = false
    /// Whether the current request's image was delivered (the phase itself may lag during a delivery).
    @ObservationIgnored private var hasImage = false

    /// Creates a model; the built-in hook turns animations off for memory-cache hits.
    public init(
        loader: ImageLoader, request: ImageRequest? = nil, hooks: [ImagePhaseHook] = [.noAnimationForMemoryHits]
    ) {
        self.loader = loader
        self.request = request
        self.delivery = ImagePhaseDelivery(hooks: hooks) { [unowned self] phase, transaction in
            self.phase = phase
            self.transaction = transaction
        }
    }

    deinit { inFlight.cancel() }

    /// Adds an observer called after each committed phase change, with its transaction.
    public func onPhaseChange(_ observer: @escaping @MainActor (ImagePhase, ImageTransaction) -> Void) {
        delivery.observe(observer)
    }

    /// Starts loading unless the image is loaded or loading. A memory-cache hit is delivered before it returns.
    public func load() {
        wantsImage = true
        guard let request, !isLoading, !hasImage else { return }
        generation += 1
        let current = generation
        if let response = loader.cachedResponse(for: request) {
            return deliver(.success(response), scale: request.scale)
        }
        isLoading = true
        progress = nil
        showPlaceholder()
        let loader = self.loader
        let owner = WeakModel(self)
        let previews = self.previews
        let onDemand = animationFrames == .automatic
        let coalescer = ProgressCoalescer { progress in owner.model?.update(progress, generation: current) }
        let task = Task {
            let result: Result<ImageResponse, ImagoError>
            var player: AnimationPlayer?
            do {
                let progress: @Sendable (FetchProgress) -> Void = { coalescer.report($0) }
                if let previews {
                    result = .success(
                        try await loader.image(for: request, previews: previews, progress: progress) { preview in
                            Task { @MainActor in owner.model?.show(preview, generation: current) }
                        })
                } else {
                    result = .success(try await loader.image(for: request, progress: progress))
                }
            } catch let error as ImagoError where onDemand && error.kind == .limitExceeded {
                do {
                    let playing = try await Self.playOnDemand(request, loader: loader, refusal: error)
                    player = playing.player
                    result = .success(playing.response)
                } catch {
                    result = .failure(ImagoError.wrapping(error, source: request.sourceString))
                }
            } catch {
                result = .failure(ImagoError.wrapping(error, source: request.sourceString))
            }
            owner.model?.finish(
                result, generation: current, scale: request.scale, player: player, progress: coalescer.finish())
        }
        inFlight.replace(with: task)
    }

    /// Cancels the load in flight; the phase stays as it is.
    public func cancel() {
        wantsImage = false
        generation += 1
        isLoading = false
        placeholder = nil
        inFlight.cancel()
    }

    private func update(_ progress: FetchProgress, generation: Int) {
        guard generation == self.generation, isLoading else { return }
        self.progress = progress
    }

    /// The ThumbHash placeholder, at once. Decoding one is a few thousand operations on a 32-pixel image, done here
    /// so it is on screen before the load's first await.
    private func showPlaceholder() {
        guard let thumbHash, let raster = try? ThumbHash.decode(thumbHash) else { return }
        placeholder = DecodedImage(raster: raster, format: ImageFormat("thumbhash"))
    }

    /// A preview of the load in flight: shown at once, never after the final image.
    private func show(_ preview: ImageResponse, generation: Int) {
        guard generation == self.generation, isLoading, !hasImage else { return }
        placeholder = nil
        let transaction = ImageTransaction(
            transition: .none, disablesAnimations: true, origin: preview.origin, scale: preview.request.scale)
        delivery.send(.success(preview), transaction)
    }

    /// Plays an animation too large to decode whole from its bytes, frame by frame: the bytes the failed load
    /// fetched (the loader's data cache and fetch coalescing answer them), a frame source from the registry's
    /// decoder, and a response whose image is the first frame. Rethrows `refusal` when the bytes are not an
    /// animation that decodes on demand.
    private nonisolated static func playOnDemand(
        _ request: ImageRequest, loader: ImageLoader, refusal: ImagoError
    ) async throws -> (player: AnimationPlayer, response: ImageResponse) {
        let bytes = try await loader.sourceBytes(for: request)
        let data = bytes.data
        let limits = loader.settings.limits
        guard let decoder = try loader.registry.decoder(for: data, limits: limits) as? any AnimatedImageDecoding else {
            throw refusal
        }
        let player = try await AnimationPlayer {
            try decoder.makeFrameSource(data, options: DecodeOptions(limits: limits))
        }
        let first = await player.currentFrame
        let image = DecodedImage(
            frames: [first], loopCount: player.loopCount, format: decoder.format,
            hasAlpha: first.raster.hasTransparency, encodedSize: data.count, scale: request.scale)
        let response = ImageResponse(
            image: image, request: request, origin: bytes.origin, attempts: bytes.origin == .network ? 1 : 0,
            sourceLastModified: bytes.lastModified)
        return (player, response)
    }

    /// Ends the load: `lastProgress` is the last progress reported, which may not have reached `progress` yet (the
    /// coalescer holds reports back up to a frame); a success shows it complete.
    private func finish(
        _ result: Result<ImageResponse, ImagoError>, generation: Int, scale: Double, player: AnimationPlayer?,
        progress lastProgress: FetchProgress?
    ) {
        guard generation == self.generation else { return }
        isLoading = false
        switch result {
        case .success(let response):
            if let received = lastProgress?.received {
                progress = FetchProgress(received: received, expected: received)
            }
            deliver(.success(response), scale: scale, player: player)
        case .failure(let error) where error.kind == .cancelled: return
        case .failure(let error): deliver(.failure(error), scale: scale)
        }
    }

    /// Delivers `phase`; an animated image gets a player of its frames unless `onDemand` plays it from its bytes.
    private func deliver(_ phase: ImagePhase, scale: Double, player onDemand: AnimationPlayer? = nil) {
        placeholder = nil
        if let image = phase.response?.image {
            hasImage = true
            player = onDemand ?? (image.isAnimated ? AnimationPlayer(image: image) : nil)
            if playsAnimations { player?.play() }
        }
        let transaction = ImageTransaction(transition: transition, origin: phase.origin, scale: scale)
        delivery.send(phase, transaction)
    }

    private func requestDidChange() {
        guard delivery != nil else { return }
        let reload = wantsImage
        cancel()
        hasImage = false
        player?.pause()
        player = nil
        progress = nil
        if !phase.isEmpty { delivery.send(.empty, ImageTransaction(scale: request?.scale ?? 1)) }
        if reload { load() }
    }
}

/// A weak reference the load's task holds, so a dropped model is freed (and its load cancelled).
@MainActor
private final class WeakModel {
    weak var model: ImageModel?
    init(_ model: ImageModel) { self.model = model }
}

/// The task of the load in flight, reachable from `deinit` (which is not isolated to the main actor).
private final class InFlightLoad: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)

    func replace(with newTask: Task<Void, Never>) {
        task.withLock { $0 }?.cancel()
        task.withLock { $0 = newTask }
    }

    func cancel() {
        let old = task.withLock { task in
            defer { task = nil }
            return task
        }
        old?.cancel()
    }
}
