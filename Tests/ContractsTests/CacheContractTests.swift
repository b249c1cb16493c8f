import ImagoContracts
import ImagoCore
import Testing

/// The worked example caches keep the cache contracts.
@Suite struct CacheContractTests {
    @Test func dictionaryImageCacheKeepsTheImageCacheContract() async {
        let contract = ImageCacheContract(
            makeCache: { DictionaryImageCache(countLimit: 16, costLimit: 64 * 1024, entryCostLimit: 16 * 1024) },
            countLimit: 16, costLimit: 64 * 1024, entryCostLimit: 16 * 1024)
        let report = await contract.run()
        #expect(report.passed, "\(report)")
        #expect(report.results.count == ImageCacheContract.Check.allCases.count)
    }

    @Test func dictionaryImageCacheWithOnlyACountLimitKeepsTheContract() async {
        let contract = ImageCacheContract(makeCache: { DictionaryImageCache(countLimit: 8) }, countLimit: 8)
        let report = await contract.run()
        #expect(report.passed, "\(report)")
    }

    @Test func dictionaryDataCacheKeepsTheDataCacheContract() async {
        let contract = DataCacheContract(
            makeCache: { DictionaryDataCache(byteLimit: 64 * 1024) },
            damage: { cache, key in (cache as? DictionaryDataCache)?.damageEntry(for: key) },
            byteLimit: 64 * 1024)
        let report = await contract.run()
        #expect(report.passed, "\(report)")
        #expect(report.results.count == DataCacheContract.Check.allCases.count)
    }
}
