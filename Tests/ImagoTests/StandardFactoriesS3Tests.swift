import Foundation
import Imago
import Testing

/// The `s3` transport and data cache factories read their settings (no store is contacted to build them).
@Suite struct StandardFactoriesS3Tests {
    private let factories = PluginRegistry.standardFactories()

    @Test func theTransportReadsItsSettings() throws {
        let configuration = try ImagoConfiguration(
            json: .object([
                "transports": .array([
                    .object([
                        "name": .string("s3"),
                        "settings": .object([
                            "endpoint": .string("http://127.0.0.1:9000"), "region": .string("eu-west-3"),
                            "pathStyle": .bool(true), "accessKeyId": .string("AKIDEXAMPLE"),
                            "secretAccessKey": .string("not-shown"), "maxBytes": .number(1000),
                        ]),
                    ])
                ])
            ]),
            defaults: factories.defaultConfiguration(transports: [], codecs: []))
        let registry = try factories.configured(by: configuration)
        let transport = try #require(registry.transports.first as? S3Transport)
        #expect(transport.schemes == ["s3"])
        #expect(transport.configuration.region == "eu-west-3")
        #expect(transport.configuration.pathStyle)
        #expect(transport.configuration.connection.maxBytes == 1000)
        #expect(!"\(transport)".contains("not-shown"))
        guard case .object(let settings) = transport.configuration.settings else {
            Issue.record("settings are not an object")
            return
        }
        #expect(settings["secretAccessKey"] == .string("(set)"))
        #expect(settings["endpoint"] == .string("http://127.0.0.1:9000"))
    }

    @Test func theDataCacheIsALayerOfTiered() throws {
        let configuration = try ImagoConfiguration(
            json: .object([
                "dataCache": .object([
                    "name": .string("tiered"),
                    "settings": .object([
                        "layers": .array([
                            .string("disk"),
                            .object([
                                "name": .string("s3"),
                                "settings": .object([
                                    "bucket": .string("imago-cache"), "prefix": .string("fleet/"),
                                    "endpoint": .string("http://127.0.0.1:9000"), "pathStyle": .bool(true),
                                ]),
                            ]),
                        ])
                    ]),
                ])
            ]),
            defaults: factories.defaultConfiguration(transports: [], codecs: []))
        let tiered = try #require(try factories.configured(by: configuration).dataCache as? TieredDataCache)
        let s3 = try #require(tiered.layers[1].cache as? S3DataCache)
        #expect(tiered.layers.map(\.name) == ["disk", "s3"])
        #expect(s3.configuration.bucket == "imago-cache")
        #expect(s3.configuration.prefix == "fleet/")
        #expect(s3.objectKey(for: CacheKey("k")).hasPrefix("fleet/"))
    }
}
