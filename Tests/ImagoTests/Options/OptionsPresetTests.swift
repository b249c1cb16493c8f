import Foundation
import Imago
import Testing

/// `processing` presets written in the options grammar, beside the processor-list form.
@Suite struct OptionsPresetTests {
    let text =
        #"{"processing": {"card": "w=6,h=4,fit=cover,g=sm", "list": [{"name": "resize", "settings": {"width": 3, "height": 3}}]}}"#

    @Test func aStringPresetIsOneOptionsSpecAndReadsBackAsAString() throws {
        let configuration = try ImagoConfiguration(json: try JSONValue.parse(Data(text.utf8)))
        let card = try #require(configuration.processing["card"])
        #expect(ImagoConfiguration.optionsText(of: card) == "w=6,h=4,fit=cover,g=sm")
        #expect(ImagoConfiguration.optionsText(of: try #require(configuration.processing["list"])) == nil)
        guard case .object(let root) = configuration.json, case .object(let presets)? = root["processing"] else {
            Issue.record("no processing section")
            return
        }
        #expect(presets["card"] == .string("w=6,h=4,fit=cover,g=sm"))
        #expect(try ImagoConfiguration(json: configuration.json) == configuration)
    }

    @Test func theLoaderRunsAStringPreset() throws {
        let configuration = try ImagoConfiguration(json: try JSONValue.parse(Data(text.utf8)))
        let loader = try ImageLoader(configuration: configuration)
        let processors = try loader.registry.processors(named: "card")
        let preset = try #require(processors.first as? OptionsProcessor)
        #expect(processors.count == 1 && preset.text == "w=6,h=4,fit=cover,g=sm")
        #expect(preset.identifier.hasPrefix("options(resize(6x4,fill"))
        let image = DecodedImage(raster: try Raster(width: 30, height: 30, fill: RGBA(1, 2, 3)), format: .png)
        let result = try preset.process(image)
        #expect(result.width == 6 && result.height == 4)
    }

    @Test func aBadStringPresetNamesItsPath() throws {
        for (preset, fragment) in [("w=0", "w=0"), ("wm=1:se", "wm"), ("pr=card", "pr")] {
            let json = #"{"processing": {"bad": "\#(preset)"}}"#
            do {
                _ = try ImageLoader(configuration: try ImagoConfiguration(json: try JSONValue.parse(Data(json.utf8))))
                Issue.record("\(preset) was accepted")
            } catch let error as ImagoError {
                #expect(error.reason.contains("processing.bad") && error.reason.contains(fragment), "\(error.reason)")
            }
        }
        let number = #"{"processing": {"bad": 3}}"#
        #expect(throws: ImagoError.self) { try ImagoConfiguration(json: try JSONValue.parse(Data(number.utf8))) }
    }
}
