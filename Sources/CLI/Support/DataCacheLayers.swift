import Foundation
import Imago

/// The layers of a configured data cache, for `imago cache` and `--cache-dir`.
enum DataCacheLayers {
    /// `cache` as named layers: a tiered cache's layers (recursively), else the cache itself under `name`.
    static func layers(of cache: any DataCache, name: String) -> [TieredDataCache.Layer] {
        guard let tiered = cache as? TieredDataCache else { return [TieredDataCache.Layer(name: name, cache: cache)] }
        return tiered.layers.flatMap { layers(of: $0.cache, name: $0.name) }
    }

    /// The data cache spec with every disk layer's folder set to `directory` (other caches are left alone).
    static func settingDiskDirectory(_ spec: PluginSpec?, to directory: String) -> PluginSpec? {
        guard var spec, case .object(var settings) = spec.settings else { return spec }
        switch spec.name {
        case "disk":
            settings["directory"] = .string(directory)
        case "tiered":
            guard case .array(let layers)? = settings["layers"] else { return spec }
            settings["layers"] = .array(layers.map { settingDiskDirectory(in: $0, to: directory) })
        default:
            return spec
        }
        spec.settings = .object(settings)
        return spec
    }

    /// A layer spec (`"disk"` or `{"name": …, "settings": …}`) with a disk folder set.
    private static func settingDiskDirectory(in layer: JSONValue, to directory: String) -> JSONValue {
        switch layer {
        case .string("disk"):
            return .object(["name": .string("disk"), "settings": .object(["directory": .string(directory)])])
        case .object(var object):
            guard case .string(let name)? = object["name"] else { return layer }
            let settings = object["settings"] ?? .object([:])
            guard let updated = settingDiskDirectory(PluginSpec(name, settings: settings), to: directory) else {
                return layer
            }
            object["settings"] = updated.settings
            return .object(object)
        default:
            return layer
        }
    }
}
