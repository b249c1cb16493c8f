/// The order in which a cache documents that it evicts entries when over a limit.
public enum EvictionOrder: Sendable, Hashable {
    /// The entry read or written least recently goes first.
    case leastRecentlyUsed
    /// The entry stored first goes first, whatever was read since.
    case firstInFirstOut
    /// No order is promised; the eviction-order check is not run.
    case unspecified

    var promise: String {
        switch self {
        case .leastRecentlyUsed: "the least recently used entry goes first"
        case .firstInFirstOut: "the oldest entry goes first"
        case .unspecified: "no order"
        }
    }
}
