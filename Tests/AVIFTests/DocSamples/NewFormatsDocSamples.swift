import ImagoAVIF
import ImagoCore
import Testing

// The Swift sample of Docs/NewFormats.md, verbatim (DocSamplesTests checks it is here), run.

@Test func theNewFormatsRegistrationSampleRegistersAVIF() {
    var builder = PluginRegistry.Builder()
    builder.add(Codec(decoder: AVIFCodec(), encoder: AVIFCodec(speed: 6)))
    let registry = builder.build()
    #expect(registry.decoder(for: ImageFormat("avif")) != nil)
    #expect(registry.encoder(for: ImageFormat("avif")) != nil)
}
