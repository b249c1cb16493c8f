extension PixelMemoryBudget {
    /// Waits until `bytes` fit and reserves them, as `reserve(bytes:)`, but refuses at once with `limitExceeded`
    /// (`what needs about N MiB, over the pixel memory budget of M MiB`) when they could never fit, instead of
    /// running alone over the budget: for work whose size is known before it starts (an encoder's memory, a
    /// streamed animation's canvases).
    public func reserve(bytes: Int, refusingOverCapacityFor what: @autoclosure () -> String) async throws
        -> Reservation
    {
        guard bytes <= capacity else {
            throw ImagoError(
                .limitExceeded,
                "\(what()) needs about \(Self.mebibytes(bytes)) MiB, over the pixel memory budget of "
                    + "\(Self.mebibytes(capacity)) MiB (loader.pixelMemoryBudget)")
        }
        return try await reserve(bytes: bytes)
    }

    static func mebibytes(_ bytes: Int) -> Int { (bytes + (1 << 20) - 1) >> 20 }
}
