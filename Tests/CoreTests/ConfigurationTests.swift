import Foundation
import Testing

@testable import ImagoCore

private struct SettingsTransport: ImageTransport {
    let timeout: Double
    let schemes: Set<String> = ["mem"]
    func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        AsyncThrowingStream { $0.finish() }
    }
}

private func registryWithFactories() -> PluginRegistry {
    var builder = PluginRegistry.Builder()
    builder.add(
        PluginFactory<any ImageTransport>(name: "mem", defaultSettings: .object(["timeout": .number(5)])) { reader in
            SettingsTransport(timeout: try reader.double("timeout", default: 5, in: 0...60))
        })
    let registry = builder.build()
    return registry
}

private func json(_ text: String) throws -> JSONValue { try JSONValue.parse(Data(text.utf8)) }

@Suite struct ConfigurationTests {
    @Test func roundTripsThroughJSON() throws {
        var configuration = ImagoConfiguration(
            transports: [PluginSpec("mem", settings: .object(["timeout": .number(2.5)]))], codecs: [PluginSpec("png")],
            imageCache: PluginSpec("memory"), dataCache: nil)
        configuration.loader.retry = RetryPolicy(maxAttempts: 5, initialDelay: 0.25)
        configuration.loader.limits.maxPixels = 1234
        let text = configuration.json.jsonText()
        let back = try ImagoConfiguration(json: try json(text))
        #expect(back == configuration)
    }

    @Test func absentKeysKeepDefaultsAndNullTurnsACacheOff() throws {
        let defaults = ImagoConfiguration(
            transports: [PluginSpec("mem")], imageCache: PluginSpec("memory"), dataCache: PluginSpec("disk"))
        let partial = try ImagoConfiguration(
            json: try json(#"{"dataCache": null, "loader": {"retry": {"maxAttempts": 7}}}"#), defaults: defaults)
        #expect(partial.transports == [PluginSpec("mem")])
        #expect(partial.imageCache == PluginSpec("memory"))
        #expect(partial.dataCache == nil)
        #expect(partial.loader.retry.maxAttempts == 7)
        #expect(partial.loader.retry.initialDelay == RetryPolicy.default.initialDelay)
        #expect(partial.loader.maxConcurrentLoads == LoaderSettings().maxConcurrentLoads)
    }

    @Test func readsThePixelMemoryBudget() throws {
        let configured = try ImagoConfiguration(json: try json(#"{"loader": {"pixelMemoryBudget": 134217728}}"#))
        #expect(configured.loader.pixelMemoryBudget == 128 << 20)
        #expect(configured.loader.effectivePixelMemoryBudget == 128 << 20)
        let automatic = try ImagoConfiguration(json: try json(#"{"loader": {"pixelMemoryBudget": null}}"#))
        #expect(automatic.loader.pixelMemoryBudget == nil)
        #expect(automatic.loader.effectivePixelMemoryBudget == PixelMemoryBudget.defaultCapacity)
        let text = configured.json.jsonText()
        #expect(try ImagoConfiguration(json: try json(text)).loader.pixelMemoryBudget == 128 << 20)
        #expect(throws: ImagoError.self) {
            try ImagoConfiguration(json: try json(#"{"loader": {"pixelMemoryBudget": 0}}"#))
        }
    }

    @Test func acceptsPluginNamesAsStringsOrObjects() throws {
        let configuration = try ImagoConfiguration(
            json: try json(#"{"transports": ["mem", {"name": "mem", "settings": {"timeout": 1}}]}"#))
        #expect(configuration.transports.map(\.name) == ["mem", "mem"])
        #expect(configuration.transports[1].settings == .object(["timeout": .number(1)]))
    }

    @Test(arguments: [
        (#"{"transprots": []}"#, "transprots: unknown key"),
        (#"{"loader": {"retry": {"maxAtempts": 2}}}"#, "loader.retry.maxAtempts: unknown key"),
        (#"{"loader": {"maxConcurrentLoads": 0}}"#, "loader.maxConcurrentLoads: 0 is out of range"),
        (#"{"loader": {"maxConcurrentLoads": 1.5}}"#, "loader.maxConcurrentLoads: expected a whole number"),
        (
            #"{"loader": {"limits": {"maxPixels": "big"}}}"#,
            "loader.limits.maxPixels: expected a whole number, found a string"
        ),
        (#"{"transports": [42]}"#, "transports[0]: expected a plugin name"),
        (#"{"transports": [{"settings": {}}]}"#, "transports[0].name: missing plugin name"),
        (#"{"transports": [{"name": "mem", "color": 1}]}"#, "transports[0].color: unknown key"),
        (#"{"codecs": "png"}"#, "codecs: expected an array, found a string"),
        (#"[1, 2]"#, "configuration: expected an object, found an array"),
    ])
    func reportsBadValuesWithTheKeyPath(text: String, expected: String) throws {
        let error = #expect(throws: ImagoError.self) { try ImagoConfiguration(json: try json(text)) }
        #expect(error?.kind == .invalidConfiguration)
        #expect(error?.reason.hasPrefix(expected) == true, "\(error?.reason ?? "no error")")
    }

    @Test func refusesInvalidJSONNamingTheFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("imago-bad-\(UUID()).json")
        try Data("{ not json".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let error = #expect(throws: ImagoError.self) { try ImagoConfiguration(contentsOf: file) }
        #expect(error?.kind == .invalidConfiguration)
        #expect(error?.source == file.path)
        #expect(error?.reason.hasPrefix("not valid JSON") == true)
    }

    @Test func buildsPluginsFromFactoriesAndReportsTheirSettingsPaths() throws {
        let factories = registryWithFactories()
        let built = try factories.configured(
            by: try ImagoConfiguration(
                json: try json(#"{"transports": [{"name": "mem", "settings": {"timeout": 3}}]}"#)))
        let transport = try #require(built.transport(for: URL(string: "mem:x")!) as? SettingsTransport)
        #expect(transport.timeout == 3)
        #expect(built.factoryNames(.transport) == ["mem"])  // factories carry over

        let badValue = #expect(throws: ImagoError.self) {
            try factories.configured(
                by: try ImagoConfiguration(
                    json: try json(#"{"transports": [{"name": "mem", "settings": {"timeout": 99}}]}"#)))
        }
        #expect(badValue?.reason.hasPrefix("transports[0].settings.timeout: 99.0 is out of range") == true)

        let unknownSetting = #expect(throws: ImagoError.self) {
            try factories.configured(
                by: try ImagoConfiguration(
                    json: try json(#"{"transports": [{"name": "mem", "settings": {"tmeout": 1}}]}"#)))
        }
        #expect(unknownSetting?.reason.hasPrefix("transports[0].settings.tmeout: unknown key") == true)

        let unknownPlugin = #expect(throws: ImagoError.self) {
            try factories.configured(by: try ImagoConfiguration(json: try json(#"{"transports": ["s3"]}"#)))
        }
        #expect(unknownPlugin?.reason == #"transports[0]: unknown transport "s3" (known: "mem")"#)
    }

    @Test func defaultConfigurationListsFactoryDefaults() {
        let configuration = registryWithFactories().defaultConfiguration()
        #expect(configuration.transports == [PluginSpec("mem", settings: .object(["timeout": .number(5)]))])
        #expect(configuration.imageCache == nil)  // no "memory" factory registered here
    }
}
