import Foundation
import Imago
import Testing

@Suite struct StandardCacheFactoriesTests {
    @Test func defaultSettingsBuildBothCaches() throws {
        let registry = PluginRegistry.standardFactories()
        let configuration = registry.defaultConfiguration(transports: [], codecs: [])
        let configured = try registry.configured(by: configuration)
        #expect(configured.imageCache is MemoryImageCache)
        #expect(configured.dataCache is DiskDataCache)
        #expect(configuration.imageCache?.settings.description.contains("\"costLimit\":null") == true)
    }

    @Test func settingsAreRead() throws {
        let registry = PluginRegistry.standardFactories()
        var configuration = registry.defaultConfiguration(transports: [], codecs: [])
        configuration.imageCache = PluginSpec(
            "memory", settings: .object(["costLimit": .number(1000), "timeToLive": .number(5)]))
        configuration.dataCache = PluginSpec(
            "disk",
            settings: .object([
                "directory": .string("/tmp/x-imago"), "sizeLimit": .number(5000), "maxAge": .number(60),
            ]))
        let configured = try registry.configured(by: configuration)
        let memory = try #require(configured.imageCache as? MemoryImageCache)
        #expect(memory.configuration == .init(costLimit: 1000, entryCostLimit: 250, timeToLive: 5))
        let disk = try #require(configured.dataCache as? DiskDataCache)
        #expect(disk.directory.path == "/tmp/x-imago")
        #expect(disk.configuration.sizeLimit == 5000)
        #expect(disk.configuration.maxAge == 60)
    }

    @Test func badSettingsNameTheirPath() {
        let registry = PluginRegistry.standardFactories()
        var configuration = registry.defaultConfiguration(transports: [], codecs: [])
        configuration.dataCache = PluginSpec("disk", settings: .object(["sizeLimt": .number(5)]))
        #expect { try registry.configured(by: configuration) } throws: { error in
            (error as? ImagoError)?.reason.contains("dataCache.settings.sizeLimt: unknown key") == true
        }
        configuration.dataCache = PluginSpec("disk", settings: .object(["sizeLimit": .number(-1)]))
        #expect(throws: ImagoError.self) { try registry.configured(by: configuration) }
    }
}
