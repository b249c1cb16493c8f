/// Gravities, as every grammar writes them: a name from the grammar's own list, or `fp:X:Y` (a focus point).
extension OptionArguments {
    /// Imago's gravity names (`Gravity.code`), `sm` included.
    public static let imagoGravities: [String: Gravity] = [
        "c": .center, "n": .north, "s": .south, "e": .east, "w": .west, "ne": .northEast, "nw": .northWest,
        "se": .southEast, "sw": .southWest, "sm": .smart,
    ]

    /// The gravity starting at argument `index`: a name of `names`, or `fp` and two fractions from 0 to 1; returns
    /// it and how many arguments it took. `sm` (smart) only where `allowsSmart`.
    public func gravity(
        at index: Int, names: [String: Gravity] = imagoGravities, allowsSmart: Bool, expected what: String
    ) throws -> (gravity: Gravity, taken: Int) {
        guard let first = self[index] else { throw malformed(what) }
        if first == "fp" {
            guard let x = try decimal(index + 1, in: 0...1, expected: what),
                let y = try decimal(index + 2, in: 0...1, expected: what)
            else { throw malformed(what) }
            return (.focusPoint(x: x, y: y), 3)
        }
        guard let gravity = names[String(first)], allowsSmart || gravity != .smart else { throw malformed(what) }
        return (gravity, 1)
    }
}
