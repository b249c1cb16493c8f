/// The colour effects' order: fixed (gray, bright, contrast, sat, rgb, colorize, equalize, curve, noise, conv) unless
/// `effectOrder` names another, as thumbor's filters apply in the URL's order (`contrast(20):brightness(10)` is not
/// `brightness(10):contrast(20)`). The canonical form writes the order only where it differs from the fixed one, so
/// URLs that mean the same share one key.
extension ProcessingOptions {
    /// A colour effect whose place among the others `effectOrder` can set, by its key in Imago's grammar.
    public enum ColourEffect: String, Sendable, Hashable, CaseIterable {
        case gray, bright, contrast, sat, rgb, colorize, equalize, curve, noise, conv
    }

    /// The colour effects set, in the fixed order.
    var colourEffectsSet: [ColourEffect] {
        ColourEffect.allCases.filter { effect in
            switch effect {
            case .gray: grayscale
            case .bright: brightness != nil
            case .contrast: contrast != nil
            case .sat: saturation != nil
            case .rgb: channelShift != nil
            case .colorize: colorize != nil
            case .equalize: equalize
            case .curve: curves != nil
            case .noise: noise != nil
            case .conv: convolution != nil
            }
        }
    }

    /// The order the colour effects set apply in when it is not the fixed one: those `effectOrder` names, in its
    /// order (each at its last place), then the others in the fixed order; empty when that is the fixed order.
    public var appliedEffectOrder: [ColourEffect] {
        let set = colourEffectsSet
        var named: [ColourEffect] = []
        for effect in effectOrder.reversed() where set.contains(effect) && !named.contains(effect) {
            named.insert(effect, at: 0)
        }
        let order = named + set.filter { !named.contains($0) }
        return order == set ? [] : order
    }

    /// Moves the colour effects among `keys` (Imago keys, as a grammar row writes them) to the end of
    /// `effectOrder`: a filter read after the others applies after them.
    mutating func appendEffects(_ keys: [String]) {
        for effect in keys.compactMap(ColourEffect.init(rawValue:)) {
            effectOrder.removeAll { $0 == effect }
            effectOrder.append(effect)
        }
    }

    /// The colour effects' processors, in `appliedEffectOrder` (or the fixed order).
    func orderedEffectProcessors() throws -> [(key: String, make: () throws -> any ImageProcessor)] {
        let made = try effectProcessors()
        let order = appliedEffectOrder.map(\.rawValue)
        guard !order.isEmpty else { return made }
        // Every effect made is in `order` (it lists all that are set).
        return order.compactMap { key in made.first { $0.key == key } }
    }
}
