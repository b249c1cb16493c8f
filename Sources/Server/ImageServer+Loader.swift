import Imago

extension ImageServer {
    /// A loader of `configuration`'s plugins with the `serve` limits applied: sources over `maxSourceBytes` or
    /// `maxSourcePixels` are refused before they are read or decoded, and fetches end after `sourceTimeout`.
    public static func loader(
        configuration: ImagoConfiguration, settings: ServeSettings, factories: PluginRegistry = .standardFactories()
    ) throws -> ImageLoader {
        var configuration = configuration
        configuration.transports = configuration.transports.map { spec in
            var spec = spec
            guard case .object(var values) = spec.settings else { return spec }
            switch spec.name {
            case "http":
                values["totalDeadline"] = .number(settings.sourceTimeout)
                if case .number(let idle) = values["idleTimeout"] ?? .null {
                    values["idleTimeout"] = .number(min(idle, settings.sourceTimeout))
                } else {
                    values["idleTimeout"] = .number(settings.sourceTimeout)
                }
                values["maxBytes"] = .number(Double(settings.maxSourceBytes))
            case "file":
                values["maxBytes"] = .number(Double(settings.maxSourceBytes))
            default: break
            }
            spec.settings = .object(values)
            return spec
        }
        var limits = configuration.loader.limits
        limits.maxPixels = settings.maxSourcePixels
        limits.maxTotalPixels = max(limits.maxTotalPixels, settings.maxSourcePixels)
        limits.maxBytes = settings.maxSourceBytes
        configuration.loader.limits = limits
        let registry = try factories.configured(by: configuration)
        return ImageLoader(registry: registry, settings: configuration.loader)
    }
}
