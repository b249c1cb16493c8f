import Imago

extension ImageServer {
    /// A loader of `configuration`'s plugins with the `serve` limits applied: sources over `maxSourceBytes` or
    /// `maxSourcePixels` are refused before they are read or decoded, and fetches end after `sourceTimeout`.
    ///
    /// Unless `allowPrivateAddresses`, http(s) goes through a `CurlTransport` (with the configured HTTP
    /// transport's settings) whose connection filter refuses every private address it is about to connect to, as
    /// resolved, redirects included: names are resolved once, by libcurl, and checked there.
    public static func loader(
        configuration: ImagoConfiguration, settings: ServeSettings, factories: PluginRegistry = .standardFactories()
    ) throws -> ImageLoader {
        var configuration = configuration
        configuration.transports = configuration.transports.map { spec in
            var spec = spec
            guard case .object(var values) = spec.settings else { return spec }
            switch spec.name {
            case "http", "curl", "urlsession":
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
        if !settings.allowPrivateAddresses {
            registry.register(try filteredHTTPTransport(configuration, policy: SourcePolicy(settings: settings)))
        }
        return ImageLoader(registry: registry, settings: configuration.loader)
    }

    /// libcurl with the settings of the configuration's last HTTP(S) transport and the policy's connection filter.
    static func filteredHTTPTransport(_ configuration: ImagoConfiguration, policy: SourcePolicy) throws
        -> CurlTransport
    {
        let index = configuration.transports.lastIndex { ["http", "curl", "urlsession"].contains($0.name) }
        var curl = CurlTransport.Configuration()
        if let index {
            curl = try CurlTransport.Configuration(
                reading: ConfigReader(configuration.transports[index].settings, path: "transports[\(index)].settings"))
        }
        curl.connectionFilter = { address in policy.allowsConnection(to: address.ip) }
        return CurlTransport(configuration: curl)
    }
}
