/// How the loader schedules, limits and retries its work.
public struct LoaderSettings: Sendable, Hashable {
    /// Most loads fetching at once.
    public var maxConcurrentLoads: Int
    /// Most loads fetching from one host at once.
    public var maxConcurrentLoadsPerHost: Int
    /// Most decodes at once, so a burst cannot hold hundreds of full-size bitmaps.
    public var maxConcurrentDecodes: Int
    /// Limits checked by decoders.
    public var limits: DecodeLimits
    /// Retries of transport failures.
    public var retry: RetryPolicy
    /// Bytes of decoded pixels the loader holds at once between the start of a decode and the hand-over of its image
    /// (a decode waits for room; one image larger than the budget runs alone); nil for the default,
    /// `PixelMemoryBudget.defaultCapacity` (the smaller of 10% of the memory and 1 GiB). Configuration key
    /// `pixelMemoryBudget`.
    public var pixelMemoryBudget: Int?
    /// Longest time one fetch may take in all, seconds: every attempt, the waits between retries and the queue
    /// before them (a retry starts only while the deadline allows it); `nil` leaves each transport's own deadlines.
    /// Configuration key `fetchTimeout`.
    public var fetchTimeout: Double?

    /// The budget in effect: `pixelMemoryBudget` or the default.
    public var effectivePixelMemoryBudget: Int { pixelMemoryBudget ?? PixelMemoryBudget.defaultCapacity }

    /// Creates settings; the defaults suit an app.
    public init(
        maxConcurrentLoads: Int = 8, maxConcurrentLoadsPerHost: Int = 6, maxConcurrentDecodes: Int = 2,
        limits: DecodeLimits = .default, retry: RetryPolicy = .default, pixelMemoryBudget: Int? = nil,
        fetchTimeout: Double? = nil
    ) {
        self.maxConcurrentLoads = maxConcurrentLoads
        self.maxConcurrentLoadsPerHost = maxConcurrentLoadsPerHost
        self.maxConcurrentDecodes = maxConcurrentDecodes
        self.limits = limits
        self.retry = retry
        self.pixelMemoryBudget = pixelMemoryBudget
        self.fetchTimeout = fetchTimeout
    }

    /// Reads settings, taking `defaults` for every key that is absent.
    init(_ reader: ConfigReader, defaults: LoaderSettings) throws {
        let limits = try reader.object("limits")
        let retry = try reader.object("retry")
        self.init(
            maxConcurrentLoads: try reader.int(
                "maxConcurrentLoads", default: defaults.maxConcurrentLoads, in: 1...1024),
            maxConcurrentLoadsPerHost: try reader.int(
                "maxConcurrentLoadsPerHost", default: defaults.maxConcurrentLoadsPerHost, in: 1...1024),
            maxConcurrentDecodes: try reader.int(
                "maxConcurrentDecodes", default: defaults.maxConcurrentDecodes, in: 1...256),
            limits: DecodeLimits(
                maxPixels: try limits.int("maxPixels", default: defaults.limits.maxPixels, in: 1...Int.max),
                maxTotalPixels: try limits.int(
                    "maxTotalPixels", default: defaults.limits.maxTotalPixels, in: 1...Int.max),
                maxFrames: try limits.int("maxFrames", default: defaults.limits.maxFrames, in: 1...Int.max),
                maxBytes: try limits.int("maxBytes", default: defaults.limits.maxBytes, in: 1...Int.max)),
            retry: RetryPolicy(
                maxAttempts: try retry.int("maxAttempts", default: defaults.retry.maxAttempts, in: 1...100),
                initialDelay: try retry.double("initialDelay", default: defaults.retry.initialDelay, in: 0...3600),
                multiplier: try retry.double("multiplier", default: defaults.retry.multiplier, in: 1...100),
                maxDelay: try retry.double("maxDelay", default: defaults.retry.maxDelay, in: 0...3600),
                jitter: try retry.double("jitter", default: defaults.retry.jitter, in: 0...1)),
            pixelMemoryBudget: try reader.optionalInt("pixelMemoryBudget", in: 1...Int.max)
                ?? defaults.pixelMemoryBudget,
            fetchTimeout: try reader.optionalDouble("fetchTimeout", in: 0.001...86_400) ?? defaults.fetchTimeout)
        try limits.finish()
        try retry.finish()
    }

    /// The JSON form.
    var json: JSONValue {
        .object([
            "maxConcurrentLoads": .number(Double(maxConcurrentLoads)),
            "maxConcurrentLoadsPerHost": .number(Double(maxConcurrentLoadsPerHost)),
            "maxConcurrentDecodes": .number(Double(maxConcurrentDecodes)),
            "pixelMemoryBudget": pixelMemoryBudget.map { .number(Double($0)) } ?? .null,
            "fetchTimeout": fetchTimeout.map { .number($0) } ?? .null,
            "limits": .object([
                "maxPixels": .number(Double(limits.maxPixels)),
                "maxTotalPixels": .number(Double(limits.maxTotalPixels)),
                "maxFrames": .number(Double(limits.maxFrames)),
                "maxBytes": .number(Double(limits.maxBytes)),
            ]),
            "retry": .object([
                "maxAttempts": .number(Double(retry.maxAttempts)),
                "initialDelay": .number(retry.initialDelay),
                "multiplier": .number(retry.multiplier),
                "maxDelay": .number(retry.maxDelay),
                "jitter": .number(retry.jitter),
            ]),
        ])
    }
}
