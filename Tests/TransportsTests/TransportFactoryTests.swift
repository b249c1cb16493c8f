import Foundation
import ImagoCore
import ImagoTransports
import Testing

@Suite struct TransportFactoryTests {
    @Test func httpFactoryBuildsFromItsDefaultsAndFromSettings() throws {
        let defaults = try #require(
            try HTTPTransport.factory.build(HTTPTransport.factory.defaultSettings, path: "t") as? HTTPTransport)
        #expect(defaults.configuration == HTTPTransport.Configuration())

        let settings: JSONValue = .object([
            "idleTimeout": .number(0.25), "totalDeadline": .number(2.5), "maxBytes": .number(1000),
            "maxRedirects": .number(0), "userAgent": .string("Bot/1"), "headers": .object(["X-A": .string("b")]),
            "maxConnectionsPerHost": .number(12),
        ])
        let built = try #require(try HTTPTransport.factory.build(settings, path: "t") as? HTTPTransport)
        #expect(
            built.configuration
                == HTTPTransport.Configuration(
                    idleTimeout: 0.25, totalDeadline: 2.5, maxBytes: 1000, maxRedirects: 0, userAgent: "Bot/1",
                    headers: ["X-A": "b"], maxConnectionsPerHost: 12))
        #expect(built.configuration.settings == settings)
    }

    @Test func defaultSettingsListEverySetting() throws {
        guard case .object(let http) = HTTPTransport.factory.defaultSettings else { throw Failure.notAnObject }
        #expect(
            Set(http.keys) == [
                "idleTimeout", "totalDeadline", "maxBytes", "maxRedirects", "userAgent", "headers",
                "maxConnectionsPerHost",
            ])
        #expect(http["userAgent"] == .string("Imago/0.1"))
        #expect(http["maxBytes"] == .number(52_428_800))
        guard case .object(let file) = FileTransport.factory.defaultSettings else { throw Failure.notAnObject }
        #expect(file == ["root": .null, "maxBytes": .number(52_428_800), "chunkSize": .number(1_048_576)])
        #expect(DataURITransport.factory.defaultSettings == .object(["maxBytes": .number(52_428_800)]))
        #expect(
            [
                CurlTransport.factory.name, HTTPTransport.factory.name, FileTransport.factory.name,
                DataURITransport.factory.name,
            ] == ["curl", "urlsession", "file", "data"])
    }

    @Test func curlFactoryReadsTheURLSessionSettingsAndAProxy() throws {
        guard case .object(let curl) = CurlTransport.factory.defaultSettings,
            case .object(let urlSession) = HTTPTransport.factory.defaultSettings
        else { throw Failure.notAnObject }
        // A configuration written for one HTTP transport works for the other; curl adds `proxy` and `caFile`.
        #expect(curl.filter { !["proxy", "caFile"].contains($0.key) } == urlSession)
        #expect(curl["proxy"] == .null && curl["caFile"] == .null)

        let settings: JSONValue = .object([
            "idleTimeout": .number(0.25), "totalDeadline": .number(2.5), "maxBytes": .number(1000),
            "maxRedirects": .number(0), "userAgent": .string("Bot/1"), "headers": .object(["X-A": .string("b")]),
            "maxConnectionsPerHost": .number(12), "proxy": .string("http://127.0.0.1:3128"),
            "caFile": .string("/etc/imago/ca.pem"),
        ])
        let built = try #require(try CurlTransport.factory.build(settings, path: "t") as? CurlTransport)
        let configuration = built.configuration
        #expect(configuration.idleTimeout == 0.25 && configuration.totalDeadline == 2.5)
        #expect(configuration.maxBytes == 1000 && configuration.maxRedirects == 0)
        #expect(configuration.userAgent == "Bot/1" && configuration.headers == ["X-A": "b"])
        #expect(configuration.maxConnectionsPerHost == 12 && configuration.proxy == "http://127.0.0.1:3128")
        #expect(configuration.caFile == "/etc/imago/ca.pem")
        #expect(configuration.settings == settings)
        #expect(CurlTransport.factory(named: "http").name == "http")
    }

    @Test(arguments: [
        (JSONValue.object(["proxy": .string("")]), "transports[0].settings.proxy: empty proxy"),
        (.object(["caFile": .string("")]), "transports[0].settings.caFile: empty path"),
        (.object(["proxy": .number(1)]), "transports[0].settings.proxy: expected a string"),
        (.object(["idleTimeout": .number(0)]), "transports[0].settings.idleTimeout: 0.0 is out of range"),
    ])
    func curlFactoryRefusesBadSettingsNamingTheKey(settings: JSONValue, reasonPrefix: String) {
        #expect {
            try CurlTransport.factory.build(settings, path: "transports[0].settings")
        } throws: { error in
            guard let error = error as? ImagoError else { return false }
            return error.kind == .invalidConfiguration && error.reason.hasPrefix(reasonPrefix)
        }
    }

    @Test func fileAndDataFactoriesReadTheirSettings() throws {
        let file = try #require(
            try FileTransport.factory.build(
                .object(["root": .string("/srv/images"), "chunkSize": .number(4096)]), path: "t") as? FileTransport)
        #expect(file.configuration == FileTransport.Configuration(root: "/srv/images", chunkSize: 4096))
        let data = try #require(
            try DataURITransport.factory.build(.object(["maxBytes": .number(10)]), path: "t") as? DataURITransport)
        #expect(data.configuration.maxBytes == 10)
    }

    @Test(arguments: [
        (JSONValue.object(["timeout": .number(1)]), "transports[0].settings.timeout: unknown key"),
        (.object(["idleTimeout": .string("fast")]), "transports[0].settings.idleTimeout: expected a number"),
        (.object(["idleTimeout": .number(0)]), "transports[0].settings.idleTimeout: 0.0 is out of range"),
        (.object(["maxRedirects": .number(1.5)]), "transports[0].settings.maxRedirects: expected a whole number"),
        (.object(["headers": .object(["X": .number(1)])]), "transports[0].settings.headers: expected an object"),
    ])
    func httpFactoryRefusesBadSettingsNamingTheKey(settings: JSONValue, reasonPrefix: String) {
        #expect {
            try HTTPTransport.factory.build(settings, path: "transports[0].settings")
        } throws: { error in
            guard let error = error as? ImagoError else { return false }
            return error.kind == .invalidConfiguration && error.reason.hasPrefix(reasonPrefix)
        }
    }

    @Test func fileFactoryRefusesAnEmptyRoot() {
        #expect(throws: ImagoError.self) {
            try FileTransport.factory.build(.object(["root": .string("")]), path: "transports[1].settings")
        }
    }

    private enum Failure: Error { case notAnObject }
}
