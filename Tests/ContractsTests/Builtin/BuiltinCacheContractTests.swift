import Foundation
import Imago
import ImagoContracts
import ImagoTestSupport
import Testing

/// Every built-in cache keeps its contract.
@Suite struct BuiltinCacheContractTests {
    @Test func memoryImageCacheKeepsTheImageCacheContract() async {
        let limits = MemoryImageCache.Configuration(costLimit: 64 * 1024, countLimit: 16, entryCostLimit: 16 * 1024)
        let contract = ImageCacheContract(
            makeCache: { MemoryImageCache(configuration: limits) }, countLimit: 16, costLimit: 64 * 1024,
            entryCostLimit: 16 * 1024, evictionOrder: .leastRecentlyUsed)
        let report = await contract.run()
        #expect(report.passed, "\(report)")
    }

    @Test func diskDataCacheKeepsTheDataCacheContract() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("imago-disk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let sizeLimit = 256 * 1024
        let contract = DataCacheContract(
            makeCache: {
                let folder = root.appendingPathComponent(UUID().uuidString)
                return DiskDataCache(configuration: .init(directory: folder, sizeLimit: sizeLimit))
            },
            damage: { cache, _ in
                // The cache holds only the entry to damage: flip a byte in the middle of every file.
                guard let folder = (cache as? DiskDataCache)?.directory else { return }
                try damageEveryFile(in: folder)
            },
            byteLimit: sizeLimit,
            settle: { cache in await (cache as? DiskDataCache)?.waitForMaintenance() })
        let report = await contract.run()
        #expect(report.passed, "\(report)")
    }
}
