import Foundation

extension MemoryImageCache {
    /// The limits of a memory cache.
    public struct Configuration: Sendable, Hashable {
        /// Most bytes of pixels held in all.
        public var costLimit: Int
        /// Most images held.
        public var countLimit: Int
        /// Most bytes of pixels of one image; larger images are not kept.
        public var entryCostLimit: Int
        /// Seconds an image stays usable after it is stored; `nil` keeps it until evicted.
        public var timeToLive: Double?

        /// Creates a configuration; `entryCostLimit` defaults to a quarter of `costLimit`.
        public init(costLimit: Int, countLimit: Int = 1000, entryCostLimit: Int? = nil, timeToLive: Double? = nil) {
            self.costLimit = max(0, costLimit)
            self.countLimit = max(0, countLimit)
            self.entryCostLimit = max(0, entryCostLimit ?? costLimit / 4)
            self.timeToLive = timeToLive
        }

        /// Limits sized from this machine's memory (see `defaultCostLimit(physicalMemory:)`).
        public static var `default`: Configuration {
            Configuration(costLimit: defaultCostLimit(physicalMemory: ProcessInfo.processInfo.physicalMemory))
        }

        /// 15% of `physicalMemory`, capped at 512 MiB: enough for a screenful of large images without
        /// crowding out the app.
        public static func defaultCostLimit(physicalMemory: UInt64) -> Int {
            let share = physicalMemory / 100 * 15
            return Int(min(share, 512 << 20))
        }
    }
}
