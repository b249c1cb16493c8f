import Foundation

/// The encodes of one quality search and what follows from them: the bracket (the highest quality that missed the
/// target, the lowest that met it), the next quality to try, and the answer.
struct QualityTrials {
    struct Trial {
        var quality: Int
        var dssim: Double
        var data: Data
    }

    /// The most the curve's offset may change per quality point when it is extrapolated from two measurements on
    /// the same side of the target (a measured slope is noisy when the two qualities are close).
    static let maxOffsetSlope = 0.03

    /// How far below the target (in ln DSSIM) an estimate aims when it is the last chance to meet it: a third of
    /// the spread of the calibration photos around the model.
    static let lastChanceMargin = 0.1

    let settings: AutoQuality
    let model: QualityModel
    let logTarget: Double
    private(set) var count = 0
    /// The lowest quality that met the target.
    private var passing: Trial?
    /// The highest quality that missed it.
    private var failing: Trial?
    /// The second lowest quality that met the target and the second highest that missed it: with only one side
    /// known, the offset is extrapolated through the two nearest the target (a secant step).
    private var secondPassing: Trial?
    private var secondFailing: Trial?
    private var sizeChecked = false

    init(settings: AutoQuality, model: QualityModel) {
        self.settings = settings
        self.model = model
        self.logTarget = log(settings.target)
    }

    /// The lowest quality the model expects to meet the target for an image of `complexity`.
    func firstEstimate(complexity: Double) -> Int {
        let offset = model.offset(complexity: complexity)
        return lowestMeeting(in: settings.minQuality...settings.maxQuality, margin: 0) { _ in offset }
            ?? settings.maxQuality
    }

    mutating func record(quality: Int, dssim: Double, data: Data) {
        count += 1
        let trial = Trial(quality: quality, dssim: dssim, data: data)
        if dssim <= settings.target {
            if passing.map({ quality < $0.quality }) ?? true {
                secondPassing = passing
                passing = trial
            }
        } else if failing.map({ quality > $0.quality }) ?? true {
            secondFailing = failing
            failing = trial
        }
    }

    /// The next quality to try, or nil when the search is done: nothing is left between the bracket's ends, or
    /// the model expects no quality below the lowest that met the target to meet it too.
    func nextQuality() -> Int? {
        let low = failing?.quality ?? settings.minQuality - 1
        let high = passing?.quality ?? settings.maxQuality + 1
        guard high - low > 1 else { return nil }
        // Without an output that meets the target, the last encode aims a little lower, to have one.
        let lastChance = passing == nil && count + 1 == settings.maxEncodes
        let found = lowestMeeting(in: (low + 1)...(high - 1), margin: lastChance ? Self.lastChanceMargin : 0) {
            offset(at: $0)
        }
        return found ?? (passing == nil ? high - 1 : nil)
    }

    /// The curve's offset at `quality` from what was measured: interpolated between the bracket's ends, or
    /// extrapolated through the two measurements nearest the target on the one side known (its slope bounded by
    /// `maxOffsetSlope`), or the one measurement's.
    private func offset(at quality: Int) -> Double {
        switch (failing, passing) {
        case let (low?, high?):
            return line(through: low, high, at: quality, maxSlope: .infinity)
        case let (nearest?, nil):
            return secondFailing.map { line(through: nearest, $0, at: quality, maxSlope: Self.maxOffsetSlope) }
                ?? model.offset(quality: nearest.quality, dssim: nearest.dssim)
        case let (nil, nearest?):
            return secondPassing.map { line(through: nearest, $0, at: quality, maxSlope: Self.maxOffsetSlope) }
                ?? model.offset(quality: nearest.quality, dssim: nearest.dssim)
        case (nil, nil):
            return 0
        }
    }

    /// The offset at `quality` on the line through two trials' offsets (the first is the one extrapolated from).
    private func line(through first: Trial, _ second: Trial, at quality: Int, maxSlope: Double) -> Double {
        let firstOffset = model.offset(quality: first.quality, dssim: first.dssim)
        let secondOffset = model.offset(quality: second.quality, dssim: second.dssim)
        let slope = (secondOffset - firstOffset) / Double(second.quality - first.quality)
        return firstOffset + min(max(slope, -maxSlope), maxSlope) * Double(quality - first.quality)
    }

    private func lowestMeeting(in range: ClosedRange<Int>, margin: Double, offset: (Int) -> Double) -> Int? {
        range.first { model.logDSSIM(at: $0) + offset($0) <= logTarget - margin }
    }

    /// Whether the answer cannot be smaller than `bound` bytes: an output that missed the target is already as
    /// large (the answer needs a higher quality), or, after the first encode, the size the model predicts at the
    /// quality it expects to answer is over the bound by more than the model's error.
    mutating func cannotBeat(_ bound: Int) -> Bool {
        if let failing, failing.data.count >= bound { return true }
        guard !sizeChecked, let trial = passing ?? failing else { return false }
        sizeChecked = true
        let expected = nextQuality() ?? trial.quality
        let predicted = Double(trial.data.count) * exp(model.logBytes(at: expected) - model.logBytes(at: trial.quality))
        return predicted > Double(bound) * 1.15
    }

    /// The lowest quality that met the target, else the highest tried.
    var answer: Trial {
        guard let best = passing ?? failing else { preconditionFailure("a search encodes at least once") }
        return best
    }
}
