import Foundation
import Imago
import Testing

@testable import ImagoServer

@Suite struct ServeSettingsTests {
    @Test func defaultsAreTheContractTable() throws {
        let settings = ServeSettings()
        #expect(settings.listen == "127.0.0.1:8080")
        #expect(settings.signingKeys.isEmpty && settings.allowedSources.isEmpty && !settings.allowPrivateAddresses)
        #expect(settings.maxSourceBytes == 52_428_800 && settings.maxSourcePixels == 50_000_000)
        #expect(settings.maxOutputSide == 8192 && settings.sourceTimeout == 10)
        #expect(settings.maxConcurrentRequests == ProcessInfo.processInfo.activeProcessorCount * 2)
        #expect(settings.maxQueuedRequests == 256 && settings.cacheMaxAge == 31_536_000)
        #expect(settings.resultCacheBytes == 67_108_864 && settings.autoFormats == [ImageFormat("avif"), .webp, .jpeg])
        #expect(settings.shutdownGrace == 10 && settings.requestTimeout == 30)
        #expect(settings.watermark == nil && !settings.onlyPresets && settings.fallbackImage == nil)
        #expect(settings.quality == ["jpeg": 85, "webp": 80, "avif": 60, "jxl": 80, "heic": 60])
        #expect(settings.fallbackStatus == 200 && settings.fallbackMaxAge == 60)
        guard case .object(let keys) = settings.json else { throw ServeFailure(0, "not an object") }
        #expect(keys.count == 26)
        #expect(settings.autoQuality == AutoQuality(target: 0.021, minQuality: 30, maxQuality: 95))
        #expect(settings.bestFormats == ["avif", .webp, "jxl", .jpeg, .png])
        #expect(keys["resultStore"] == .null && settings.fleet.redis == nil)
        #expect(keys["watermark"] == .null && keys["fallbackImage"] == .null)
        #expect(try ServeSettings(json: settings.json) == settings)
    }

    @Test func readsAFileSectionAndKeepsDefaultsForTheRest() throws {
        let json = try JSONValue.parse(
            Data(#"{"listen": "[::1]:0", "signingKeys": ["a", "b"], "autoFormats": ["jpeg"]}"#.utf8))
        let settings = try ServeSettings(json: json)
        #expect(settings.listen == "[::1]:0" && settings.signingKeys == ["a", "b"] && settings.autoFormats == [.jpeg])
        #expect(settings.maxOutputSide == 8192)
        let processing = try ServeSettings(
            json: try JSONValue.parse(
                Data(
                    #"{"watermark": "/srv/wm.png", "onlyPresets": true, "quality": {"webp": 70}, "fallbackImage": "file:///srv/404.png", "fallbackStatus": 404, "fallbackMaxAge": 5}"#
                        .utf8)))
        #expect(processing.watermark == "/srv/wm.png" && processing.onlyPresets)
        #expect(processing.quality["webp"] == 70 && processing.quality["jpeg"] == 85)
        #expect(processing.fallbackImage == "file:///srv/404.png" && processing.fallbackStatus == 404)
        #expect(processing.fallbackMaxAge == 5)
        #expect(try ServeSettings(json: processing.json) == processing)
    }

    @Test func errorsNameTheKeyPath() {
        let cases: [(String, String)] = [
            (#"{"maxSourceBytes": "big"}"#, "serve.maxSourceBytes"), (#"{"listen": "8080"}"#, "serve.listen"),
            (#"{"listen": "example.com:80"}"#, "serve.listen"),
            (#"{"allowedSources": [3]}"#, "serve.allowedSources[0]"),
            (#"{"allowedSources": ["https://a*.b/"]}"#, "serve.allowedSources[0]"),
            (#"{"autoFormats": ["bmp"]}"#, "serve.autoFormats[0]"), (#"{"signingKeys": [""]}"#, "serve.signingKeys"),
            (#"{"maxConcurrentRequests": 0}"#, "serve.maxConcurrentRequests"),
            (#"{"shutdownGrace": -1}"#, "serve.shutdownGrace"),
            (#"{"lisen": "127.0.0.1:1"}"#, "serve.lisen"),
            (#"{"quality": {"jpeg": 0}}"#, "serve.quality.jpeg"), (#"{"quality": {"png": 5}}"#, "serve.quality.png"),
            (#"{"fallbackStatus": 99}"#, "serve.fallbackStatus"), (#"{"onlyPresets": "yes"}"#, "serve.onlyPresets"),
            (#"{"watermark": 3}"#, "serve.watermark"),
        ]
        for (text, path) in cases {
            do {
                _ = try ServeSettings(json: try JSONValue.parse(Data(text.utf8)))
                Issue.record("\(text) was accepted")
            } catch let error as ImagoError {
                #expect(error.kind == .invalidConfiguration)
                #expect(error.reason.hasPrefix(path + ":"), "\(error.reason)")
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test func theConfigurationCarriesTheSection() throws {
        let defaults = ImagoConfiguration().withServeSection()
        let file = try JSONValue.parse(Data(#"{"serve": {"maxOutputSide": 100}}"#.utf8))
        let configuration = try ImagoConfiguration(json: file, defaults: defaults)
        #expect(try ServeSettings(configuration: configuration).maxOutputSide == 100)
        #expect(throws: ImagoError.self) { try ImagoConfiguration(json: file) }  // no serve section known there
        guard case .object(let root) = configuration.json else { return }
        #expect(root["serve"] != nil)
    }

    @Test func parsesListenAddresses() throws {
        #expect(try ListenAddress(parsing: "127.0.0.1:8080") == ListenAddress(parsing: "localhost:8080"))
        #expect(try ListenAddress(parsing: "[::1]:0").host == "::1")
        #expect(try ListenAddress(parsing: "0.0.0.0:65535").port == 65535)
        for bad in [
            "", ":80", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1", "127.1:80", "[::1:80", "x:80",
            "8099", "127.0.0.1:+80", "127.0.0.1: 80", "127.0.0.1:000080",
        ] {
            #expect(throws: ImagoError.self, "\(bad)") { try ListenAddress(parsing: bad) }
        }
        // A bare port is refused, with the loopback form as the example.
        #expect(throws: ConfigReader.error("--listen", "\"8099\" is not HOST:PORT (for example 127.0.0.1:8099)")) {
            try ListenAddress(parsing: "8099", path: "--listen")
        }
    }
}
