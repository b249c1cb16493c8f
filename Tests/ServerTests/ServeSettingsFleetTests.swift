import Foundation
import Testing

@testable import ImagoServer

/// `serve.resultStore` and `serve.fleet`: read, written back, and refused with the key's path.
@Suite struct ServeSettingsFleetTests {
    func settings(_ text: String) throws -> ServeSettings {
        try ServeSettings(json: try JSONValue.parse(Data(text.utf8)))
    }

    @Test func readsTheFleetKeysAndWritesThemBack() throws {
        let read = try settings(
            #"{"resultStore": {"name": "redis", "settings": {"keyPrefix": "r:"}}, "fleet": {"redis": "redis://:pw@10.0.0.5:6380/2", "leaseMilliseconds": 2000, "timeout": 0.5, "retryInterval": 1, "keyPrefix": "l:"}}"#
        )
        #expect(read.fleet.redis == "redis://:pw@10.0.0.5:6380/2" && read.fleet.leaseMilliseconds == 2000)
        #expect(read.fleet.timeout == 0.5 && read.fleet.retryInterval == 1 && read.fleet.keyPrefix == "l:")
        #expect(
            read.resultStore == .object(["name": .string("redis"), "settings": .object(["keyPrefix": .string("r:")])]))
        #expect(try ServeSettings(json: read.json) == read)
        #expect(try settings(#"{"resultStore": "disk"}"#).resultStore == .string("disk"))
    }

    @Test func errorsNameTheKeyPath() {
        let cases: [(String, String)] = [
            (#"{"resultStore": 3}"#, "serve.resultStore"), (#"{"resultStore": ""}"#, "serve.resultStore"),
            (#"{"fleet": {"redis": "http://x"}}"#, "serve.fleet.redis"),
            (#"{"fleet": {"leaseMilliseconds": 10}}"#, "serve.fleet.leaseMilliseconds"),
            (#"{"fleet": {"keyPrefix": ""}}"#, "serve.fleet.keyPrefix"),
            (#"{"fleet": {"timeout": 0}}"#, "serve.fleet.timeout"), (#"{"fleet": {"lease": 1}}"#, "serve.fleet.lease"),
            (#"{"fleet": "redis://x"}"#, "serve.fleet"),
        ]
        for (text, path) in cases {
            do {
                _ = try settings(text)
                Issue.record("\(text) was accepted")
            } catch let error as ImagoError {
                #expect(error.reason.hasPrefix(path + ":"), "\(text): \(error.reason)")
            } catch {
                Issue.record("\(text): \(error)")
            }
        }
    }

    @Test func aResultStoreNoFactoryBuildsStopsTheServerAtStart() throws {
        var settings = ServeSettings()
        settings.listen = "127.0.0.1:0"
        settings.resultStore = .string("nowhere")
        #expect {
            _ = try ImageServer(configuration: ImagoConfiguration(), settings: settings)
        } throws: { error in
            (error as? ImagoError)?.reason.hasPrefix("serve.resultStore: unknown data cache \"nowhere\"") == true
        }
    }
}
