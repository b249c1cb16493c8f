import Foundation
import Imago
import Testing

/// Which HTTP(S) transport a configuration gets, by name.
@Suite struct StandardTransportFactoriesTests {
    private func httpTransport(_ spec: PluginSpec) throws -> any ImageTransport {
        let registry = try PluginRegistry.standardFactories().configured(by: ImagoConfiguration(transports: [spec]))
        return try registry.transport(serving: URL(string: "https://example.com/a.png")!)
    }

    @Test func theDefaultConfigurationUsesTheLibcurlTransportOnLinux() throws {
        let registry = PluginRegistry.standard()
        let transport = try registry.transport(serving: URL(string: "http://example.com/a.png")!)
        #if os(Linux)
            #expect(PluginRegistry.defaultHTTPTransportName == "curl")
            #expect(transport is CurlTransport)
        #else
            #expect(PluginRegistry.defaultHTTPTransportName == "urlsession")
            #expect(transport is HTTPTransport)
        #endif
    }

    @Test func eachHTTPTransportCanBeChosenByName() throws {
        #expect(try httpTransport(PluginSpec("curl")) is CurlTransport)
        #expect(try httpTransport(PluginSpec("urlsession")) is HTTPTransport)
    }

    @Test func anOldConfigurationNamingHTTPKeepsWorkingWithItsSettings() throws {
        let settings: JSONValue = .object(["idleTimeout": .number(2), "maxConnectionsPerHost": .number(3)])
        let transport = try httpTransport(PluginSpec("http", settings: settings))
        #if os(Linux)
            let curl = try #require(transport as? CurlTransport)
            #expect(curl.configuration.idleTimeout == 2 && curl.configuration.maxConnectionsPerHost == 3)
        #else
            let urlSession = try #require(transport as? HTTPTransport)
            #expect(urlSession.configuration.idleTimeout == 2)
        #endif
    }
}
