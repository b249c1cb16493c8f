import ImagoCore

/// Makes the example plugins nameable in a configuration file: each factory reads its settings (unknown keys
/// and bad values are reported with their path by the registry).
extension PluginRegistry.Builder {
    mutating func registerExampleFactories() {
        add(
            PluginFactory<any ImageTransport>(name: "memory", defaultSettings: .object(["chunkSize": .number(16384)])) {
                settings in
                MemoryTransport(chunkSize: try settings.int("chunkSize", default: 16384, in: 1...(1 << 24)))
            })
        add(PluginFactory<Codec>(name: "pam") { _ in Codec(decoder: PAMCodec(), encoder: PAMCodec()) })
        add(
            PluginFactory<any ImageCache>(
                name: "dictionary",
                defaultSettings: .object(["countLimit": .number(100), "costLimit": .number(67_108_864)])
            ) { settings in
                DictionaryImageCache(
                    countLimit: try settings.int("countLimit", default: 100, in: 1...1_000_000),
                    costLimit: try settings.int("costLimit", default: 64 << 20, in: 1...(1 << 40)))
            })
        add(
            PluginFactory<any DataCache>(
                name: "dictionary", defaultSettings: .object(["byteLimit": .number(16_777_216)])
            ) {
                settings in
                DictionaryDataCache(byteLimit: try settings.int("byteLimit", default: 16 << 20, in: 1...(1 << 40)))
            })
        add(
            PluginFactory<any ImageProcessor>(name: "grayscale", defaultSettings: .object(["intensity": .number(1)])) {
                settings in
                GrayscaleProcessor(intensity: try settings.double("intensity", default: 1, in: 0...1))
            })
        add(
            PluginFactory<any ImageInterceptor>(name: "fallback", defaultSettings: .object(["grey": .number(200)])) {
                settings in
                let grey = UInt8(try settings.int("grey", default: 200, in: 0...255))
                let placeholder = try Raster(width: 1, height: 1, fill: RGBA(grey, grey, grey))
                return FallbackInterceptor(placeholder: DecodedImage(raster: placeholder, format: .png))
            })
        add(
            PluginFactory<any ImageDetector>(name: "marker", defaultSettings: .object(["tolerance": .number(24)])) {
                settings in
                MarkerDetector(tolerance: try settings.int("tolerance", default: 24, in: 0...255))
            })
    }
}
