import Imago

extension ImageServer {
    /// A loader of `configuration`'s plugins with the `serve` limits imposed on every transport, built-in or a
    /// user's: sources over `maxSourceBytes` or `maxSourcePixels` are refused before they are read or decoded, one
    /// `sourceTimeout` bounds each fetch with its retries, and the source policy (`allowedSources`, private
    /// addresses) is checked on the source, on every redirect hop and on every address a transport connects to.
    public static func loader(
        configuration: ImagoConfiguration, settings: ServeSettings, factories: PluginRegistry = .standardFactories()
    ) throws -> ImageLoader {
        var configuration = configuration
        var limits = configuration.loader.limits
        limits.maxPixels = settings.maxSourcePixels
        limits.maxTotalPixels = max(limits.maxTotalPixels, settings.maxSourcePixels)
        limits.maxBytes = settings.maxSourceBytes
        configuration.loader.limits = limits
        configuration.loader.fetchTimeout = settings.sourceTimeout
        let registry = try factories.configured(by: configuration)
        return ImageLoader(
            registry: registry, settings: configuration.loader, sourcePolicy: SourcePolicy(settings: settings))
    }
}
