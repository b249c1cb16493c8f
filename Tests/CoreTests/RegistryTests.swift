import Foundation
import Testing

@testable import ImagoCore

/// A decoder that recognises a magic prefix and reports its name in the image's format.
private struct PrefixDecoder: ImageDecoder {
    let format: ImageFormat
    let magic: [UInt8]
    func canDecode(_ header: Data) -> Bool { header.starts(with: magic) }
    func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        DecodedImage(raster: try Raster(width: 1, height: 1, fill: RGBA(0, 0, 0)), format: format)
    }
}

private struct ForeignErrorDecoder: ImageDecoder {
    struct Oops: Error {}
    var format: ImageFormat { ImageFormat("oops") }
    func canDecode(_ header: Data) -> Bool { true }
    func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage { throw Oops() }
}

private struct NamedTransport: ImageTransport {
    let name: String
    let schemes: Set<String>
    func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        AsyncThrowingStream { continuation in
            continuation.yield(.response(TransportMetadata(contentType: name)))
            continuation.yield(.bytes(Data(name.utf8)))
            continuation.finish()
        }
    }
}

private struct NullEncoder: ImageEncoder {
    let format: ImageFormat
    let tag: UInt8
    var supportsAnimation: Bool { false }
    func encode(_ image: DecodedImage, options: EncodeOptions) throws -> Data { Data([tag]) }
}

@Suite struct PluginRegistryTests {
    @Test func sniffsWithTheMostRecentlyRegisteredDecoderFirst() {
        var builder = PluginRegistry.Builder()
        builder.add(PrefixDecoder(format: .png, magic: [0x89, 0x50]))
        builder.add(PrefixDecoder(format: .jpeg, magic: [0xFF, 0xD8]))
        let registry = builder.build()
        #expect(registry.decoder(for: Data([0x89, 0x50, 0x4E]))?.format == .png)
        #expect(registry.decoder(for: Data([0xFF, 0xD8, 0xFF]))?.format == .jpeg)
        #expect(registry.decoder(for: Data([1, 2, 3])) == nil)
        #expect(registry.decoder(for: Data()) == nil)

        // A user's decoder for the same bytes, registered later, overrides the built-in.
        builder.add(PrefixDecoder(format: ImageFormat("fastpng"), magic: [0x89]))
        let later = builder.build()
        #expect(registry.decoders.count == 2, "a built registry never changes")
        #expect(later.decoder(for: Data([0x89, 0x50, 0x4E]))?.format.rawValue == "fastpng")
        #expect(later.decoders.map(\.format.rawValue) == ["fastpng", "jpeg", "png"])
        #expect(later.decoder(for: .png)?.format == .png)
    }

    @Test func sniffingSeesOnlyTheFirstBytes() {
        var builder = PluginRegistry.Builder()
        let late = [UInt8](repeating: 0, count: ImageFormat.sniffLength) + [0xAB]
        builder.add(PrefixDecoder(format: .webp, magic: late))
        let registry = builder.build()
        #expect(registry.decoder(for: Data(late)) == nil)
    }

    @Test func picksTransportsBySchemeCaseInsensitivelyLatestFirst() async throws {
        var builder = PluginRegistry.Builder()
        builder.add(NamedTransport(name: "builtin", schemes: ["http", "https"]))
        builder.add(NamedTransport(name: "files", schemes: ["file"]))
        var registry = builder.build()
        #expect(registry.transport(for: URL(string: "HTTPS://x/y")!) != nil)
        #expect(registry.transport(for: URL(string: "s3://bucket/key")!) == nil)
        builder.add(NamedTransport(name: "mine", schemes: ["https"]))
        registry = builder.build()
        let chosen = try #require(registry.transport(for: URL(string: "https://x/y")!))
        let fetched = try await chosen.fetchAll(TransportRequest(url: URL(string: "https://x/y")!))
        #expect(fetched.metadata.contentType == "mine")
        #expect(String(decoding: fetched.data, as: UTF8.self) == "mine")
        #expect(registry.transport(for: URL(string: "http://x/y")!) != nil)
        let unsupported = #expect(throws: ImagoError.self) {
            try registry.transport(serving: URL(string: "s3://bucket/key")!)
        }
        #expect(unsupported?.kind == .unsupportedScheme)
        #expect(unsupported?.description == #"s3://bucket/key: unsupported scheme "s3""#)
    }

    @Test func encodersOverrideByFormat() throws {
        var builder = PluginRegistry.Builder()
        builder.add(NullEncoder(format: .png, tag: 1))
        builder.add(Codec(encoder: NullEncoder(format: .png, tag: 2)))
        let registry = builder.build()
        let image = DecodedImage(raster: try Raster(width: 1, height: 1, fill: RGBA(0, 0, 0)), format: .png)
        #expect(try registry.encoder(for: .png)?.encode(image) == Data([2]))
        #expect(registry.encoder(for: .gif) == nil)
    }

    @Test func fetchAllRefusesOversizedBodies() async {
        let transport = NamedTransport(name: String(repeating: "x", count: 100), schemes: ["mem"])
        let error = await #expect(throws: ImagoError.self) {
            _ = try await transport.fetchAll(TransportRequest(url: URL(string: "mem:a")!), maxBytes: 10)
        }
        #expect(error?.kind == .tooLarge)
        #expect(error?.source == "mem:a")
    }

    @Test func choosingADecoderChecksTheByteLimitAndNamesUnknownBytes() throws {
        var builder = PluginRegistry.Builder()
        builder.add(PrefixDecoder(format: .png, magic: [0x89, 0x50]))
        let registry = builder.build()
        let png = Data([0x89, 0x50, 0x4E, 0x47])
        #expect(try registry.decoder(for: png, limits: .default).format == .png)
        let tooLarge = #expect(throws: ImagoError.self) {
            try registry.decoder(for: png, limits: DecodeLimits(maxBytes: 3))
        }
        #expect(tooLarge?.kind == .tooLarge)
        let unknown = #expect(throws: ImagoError.self) { try registry.decoder(for: Data([1, 2]), limits: .default) }
        #expect(unknown?.kind == .decodingFailed(format: nil))
        #expect(unknown?.reason == "not an image: unknown format")
    }

    @Test func checkedDecodingTurnsAPluginsOwnErrorIntoDecodingFailed() {
        let error = #expect(throws: ImagoError.self) {
            try ForeignErrorDecoder().decode(checked: Data([0]), options: .default)
        }
        #expect(error?.kind == .decodingFailed(format: ImageFormat("oops")))
        #expect(error?.reason.hasPrefix("oops decoding failed") == true)
    }
}
