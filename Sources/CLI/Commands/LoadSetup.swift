import Foundation
import Imago

/// The loader `imago load` runs: the embedded defaults, or `--config FILE`, with the command line's overrides.
struct LoadSetup: Sendable {
    let loader: ImageLoader
    let registry: PluginRegistry
    /// Sees the caches' failures, to warn about them once.
    let cacheFailures = CacheFailureWatch()
    /// The processors of `--preset`, before `--max-size`'s resize.
    let preset: [any ImageProcessor]
    /// How many loads the command runs at once.
    let concurrency: Int
    /// Encoded bytes of local files being loaded at once (their size, before they are read).
    let inputBudget = PixelMemoryBudget(capacity: LoadSetup.inputBytesInFlight)

    init(_ options: LoadOptions) throws {
        let factories = PluginRegistry.standardFactories()
        var configuration = try ConfigCommand.configuration(file: options.configFile, factories: factories)
        if let concurrency = options.concurrency {
            configuration.loader.maxConcurrentLoads = concurrency
            configuration.loader.maxConcurrentLoadsPerHost = min(
                configuration.loader.maxConcurrentLoadsPerHost, concurrency)
        }
        if let retries = options.retries { configuration.loader.retry.maxAttempts = retries + 1 }
        if options.noCache {
            configuration.imageCache = nil
            configuration.dataCache = nil
        }
        if let directory = options.cacheDirectory, configuration.dataCache != nil {
            configuration.dataCache = LoadSetup.diskCache(configuration.dataCache, in: directory)
        }
        // A batch gains nothing from more decoded images than the cores can encode: unless the configuration sets
        // a budget, the tool holds at most 64 MiB of pixels per core (a 12 MP image is 48 MB; a larger one runs
        // alone), however many loads run at once.
        if configuration.loader.pixelMemoryBudget == nil {
            configuration.loader.pixelMemoryBudget = min(
                PixelMemoryBudget.defaultCapacity,
                Self.batchBudgetPerCore * ProcessInfo.processInfo.activeProcessorCount)
        }
        registry = try factories.configured(by: configuration)
        loader = ImageLoader(registry: registry, settings: configuration.loader, eventListeners: [cacheFailures])
        concurrency = configuration.loader.maxConcurrentLoads
        let loader = self.loader
        preset = try options.preset.map { try loader.processors(named: $0) } ?? []
    }

    /// The pixel budget per core of `imago load` when the configuration sets none.
    static let batchBudgetPerCore = 64 << 20
    /// The most bytes of local files read and not yet decoded (a larger file is read alone).
    static let inputBytesInFlight = 16 << 20

    /// The data cache's spec with the folder of its disk cache (or of a tiered cache's disk layers) set to
    /// `directory`.
    static func diskCache(_ spec: PluginSpec?, in directory: String) -> PluginSpec? {
        DataCacheLayers.settingDiskDirectory(spec, to: directory)
    }
}
