import Foundation

/// What a quality search or a best-format choice decided: enough to encode the same output again without
/// searching (a server keeps it beside the result) and to tell the client (`Imago-Quality`).
public struct QualityDecision: Sendable, Hashable, Codable {
    /// The output format.
    public var format: ImageFormat
    /// The quality encoded at; nil for a format without one (PNG, GIF) or a lossless encode.
    public var quality: Int?
    /// The output's DSSIM against the image before encoding; nil when it was not measured (a fixed quality, or an
    /// image under the metric's 11×11 window).
    public var dssim: Double?
    /// The target searched for; nil when the quality was given.
    public var target: Double?
    /// Whether a deadline stopped the search before it finished (the answer is the best found so far).
    public var stoppedEarly: Bool

    /// Creates a decision.
    public init(
        format: ImageFormat, quality: Int?, dssim: Double? = nil, target: Double? = nil, stoppedEarly: Bool = false
    ) {
        self.format = format
        self.quality = quality
        self.dssim = dssim
        self.target = target
        self.stoppedEarly = stoppedEarly
    }

    /// Whether the output met its target (true without one, or when it was not measured).
    public var withinTarget: Bool {
        guard let target, let dssim else { return true }
        return dssim <= target
    }

    /// The value of the `Imago-Quality` response header: `q=72; dssim=0.0131`, then `; partial` when a deadline
    /// stopped the search. Parts without a value are left out (`q=` for PNG, `dssim=` when not measured).
    public var headerValue: String {
        var parts: [String] = []
        if let quality { parts.append("q=\(quality)") }
        if let dssim { parts.append(String(format: "dssim=%.4f", dssim)) }
        if stoppedEarly { parts.append("partial") }
        return parts.joined(separator: "; ")
    }
}

/// An encoded output and the decision that made it.
public struct QualityChoice: Sendable {
    /// The encoded bytes.
    public var data: Data
    /// The format, quality and DSSIM chosen.
    public var decision: QualityDecision
    /// Encodes made to reach it (by the search alone, or over every candidate of a best-format choice).
    public var encodes: Int

    /// Creates a choice.
    public init(data: Data, decision: QualityDecision, encodes: Int) {
        self.data = data
        self.decision = decision
        self.encodes = encodes
    }
}
