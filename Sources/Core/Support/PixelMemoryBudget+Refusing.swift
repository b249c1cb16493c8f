extension PixelMemoryBudget {
    /// Waits until `bytes` fit and reserves them, as `reserve(bytes:)`, but refuses at once with `limitExceeded`
    /// (`what needs about N MiB, over the pixel memory budget of M MiB`) when they could never fit, instead of
    /// running alone over the budget: for work whose size is known before it starts (a render's decode, processing
    /// and encoder together, a streamed animation's canvases).
    public func reserve(bytes: Int, refusingOverCapacityFor what: @autoclosure () -> String) async throws
        -> Reservation
    {
        guard bytes <= capacity else { throw overCapacity(bytes, what()) }
        return try await reserve(bytes: bytes)
    }

    /// Reserves `bytes` now, without waiting (for work that holds a reservation already: waiting while holding
    /// could wait for ever), even over the budget; refused like `reserve(bytes:refusingOverCapacityFor:)` when
    /// `bytes` could never fit.
    public func reserveNow(bytes: Int, refusingOverCapacityFor what: @autoclosure () -> String) throws -> Reservation {
        guard bytes <= capacity else { throw overCapacity(bytes, what()) }
        return reserveNow(bytes: bytes)
    }

    private func overCapacity(_ bytes: Int, _ what: String) -> ImagoError {
        ImagoError(
            .limitExceeded,
            "\(what) needs about \(Self.mebibytes(bytes)) MiB, over the pixel memory budget of "
                + "\(Self.mebibytes(capacity)) MiB (loader.pixelMemoryBudget)")
    }

    static func mebibytes(_ bytes: Int) -> Int { (bytes + (1 << 20) - 1) >> 20 }
}
