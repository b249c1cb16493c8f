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

    init(_ options: LoadOptions) throws {
        let factories = PluginRegistry.standardFactories()
        var configuration = factories.standardConfiguration()
        if let file = options.configFile {
            configuration = try ImagoConfiguration(contentsOf: URL(fileURLWithPath: file), defaults: configuration)
        }
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
        registry = try factories.configured(by: configuration)
        loader = ImageLoader(registry: registry, settings: configuration.loader, eventListeners: [cacheFailures])
        concurrency = configuration.loader.maxConcurrentLoads
        let loader = self.loader
        preset = try options.preset.map { try loader.processors(named: $0) } ?? []
    }

    /// The data cache's spec with the folder of its disk cache (or of a tiered cache's disk layers) set to
    /// `directory`.
    static func diskCache(_ spec: PluginSpec?, in directory: String) -> PluginSpec? {
        DataCacheLayers.settingDiskDirectory(spec, to: directory)
    }
}
