import Foundation
import ImagoCore
import ImagoTestSupport
import Testing

@testable import ImagoUI

/// The ThumbHash placeholder: there before the first byte, gone when the image arrives.
@MainActor
@Suite(.serialized) struct ImageModelPlaceholderTests {
    func redHash() throws -> [UInt8] {
        try ThumbHash.encode(try Raster(width: 40, height: 20, fill: RGBA(220, 30, 30)))
    }

    @Test func aThumbHashIsShownBeforeTheFirstByte() async throws {
        // The transport stalls before sending anything: only the placeholder can be on screen.
        let environment = SteppedEnvironment(pause: 0.002, stallAfter: 0)
        let model = ImageModel(loader: environment.loader, request: environment.request)
        model.thumbHash = try redHash()
        var delivered: [ImagePhase] = []
        model.onPhaseChange { phase, _ in delivered.append(phase) }
        model.load()
        let placeholder = try #require(model.placeholder)
        #expect(model.isLoading && model.progress == nil && model.phase.isEmpty)
        #expect(placeholder.width == 32 && placeholder.height < 32)  // landscape, as the image
        let pixel = placeholder.raster[16, 8]
        #expect(abs(Int(pixel.r) - 220) <= 12 && abs(Int(pixel.g) - 30) <= 12 && abs(Int(pixel.b) - 30) <= 12)
        #expect(delivered.isEmpty, "the placeholder is no phase: an exhaustive switch of 0.1.0 still covers them")
        model.cancel()
        #expect(model.placeholder == nil)
    }

    @Test func theImageReplacesThePlaceholder() async throws {
        let environment = SteppedEnvironment(pause: 0.002)
        let model = ImageModel(loader: environment.loader, request: environment.request)
        model.thumbHash = try redHash()
        var placeholderWhenDelivered: [DecodedImage?] = []
        model.onPhaseChange { _, _ in placeholderWhenDelivered.append(model.placeholder) }
        model.load()
        #expect(model.placeholder != nil)
        await waitUntil { model.phase.image != nil }
        #expect(placeholderWhenDelivered.count == 1 && placeholderWhenDelivered[0] == nil)
        #expect(model.placeholder == nil)
    }

    @Test func bytesThatAreNoThumbHashShowNoPlaceholder() async throws {
        let environment = SteppedEnvironment(pause: 0.002, stallAfter: 0)
        let model = ImageModel(loader: environment.loader, request: environment.request)
        model.thumbHash = [1, 2]
        model.load()
        #expect(model.phase.isEmpty && model.isLoading && model.placeholder == nil)
        model.cancel()
    }
}
