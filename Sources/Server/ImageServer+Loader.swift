import Imago

extension ImageServer {
    /// A loader of `configuration`'s plugins with the `serve` limits imposed on every transport, built-in or a
    /// user's: sources over `maxSourceBytes` or `maxSourcePixels` are refused before they are read or decoded, one
    /// `sourceTimeout` bounds each fetch with its retries, and the source policy (`allowedSources`, private
    /// addresses) is checked on the source, on every redirect hop and on every address a transport connects to.
    /// The loader's pixel budget in serve unless the configuration sets `loader.pixelMemoryBudget`: 192 MiB, two
    /// 4000×3000 decodes with their resized outputs.
    public static let defaultPixelMemoryBudget = 192 << 20

    /// With a `fleet` that shares, each source is fetched once by the fleet (see `FleetSourceTransport`).
    public static func loader(
        configuration: ImagoConfiguration, settings: ServeSettings, factories: PluginRegistry = .standardFactories(),
        fleet: ServeFleet? = nil
    ) throws -> ImageLoader {
        var configuration = configuration
        var limits = configuration.loader.limits
        limits.maxPixels = settings.maxSourcePixels
        limits.maxTotalPixels = max(limits.maxTotalPixels, settings.maxSourcePixels)
        limits.maxBytes = settings.maxSourceBytes
        configuration.loader.limits = limits
        configuration.loader.fetchTimeout = settings.sourceTimeout
        // Serve keeps finished answers (the result cache) and source bytes (the data cache), never processed
        // pixels: each variant's bitmap would sit beside its encoded bytes, and hundreds of variants add up to GBs.
        configuration.imageCache = nil
        // An app's default pixel budget is a share of the machine's memory; a server's is what a few full-size
        // decodes and their outputs need at once, so the process stays small under any mix of requests.
        if configuration.loader.pixelMemoryBudget == nil {
            configuration.loader.pixelMemoryBudget = Self.defaultPixelMemoryBudget
        }
        var registry = try factories.configured(by: configuration)
        if let fleet { registry = sharingSources(registry, fleet: fleet, settings: settings) }
        return ImageLoader(
            registry: registry, settings: configuration.loader, sourcePolicy: SourcePolicy(settings: settings))
    }
}
