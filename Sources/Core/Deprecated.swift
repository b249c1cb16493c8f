// Names of 0.1.0 that changed in 0.2.0, kept so code written for 0.1.0 builds with a warning that names the
// replacement (CHANGELOG.md lists each with its migration). The registry's are in Registry/PluginRegistry+Deprecated.

extension ImageOrigin {
    /// 0.1.0's name of `dataCache`.
    @available(*, deprecated, renamed: "dataCache")
    public static var disk: ImageOrigin { .dataCache }
}

extension CropProcessor {
    /// 0.1.0's rectangle, for a crop made with `init(x:y:width:height:)` (0 for a crop 0.1.0 could not make).
    @available(
        *, deprecated, message: "a crop is a shape since 0.2.0: read or set shape (.region(CropRegion, clamped:))"
    )
    public var x: Int {
        get { pixels(\.x) }
        set { setPixels(\.x, newValue) }
    }
    @available(
        *, deprecated, message: "a crop is a shape since 0.2.0: read or set shape (.region(CropRegion, clamped:))"
    )
    public var y: Int {
        get { pixels(\.y) }
        set { setPixels(\.y, newValue) }
    }
    @available(
        *, deprecated, message: "a crop is a shape since 0.2.0: read or set shape (.region(CropRegion, clamped:))"
    )
    public var width: Int {
        get { pixels(\.width) }
        set { setPixels(\.width, newValue) }
    }
    @available(
        *, deprecated, message: "a crop is a shape since 0.2.0: read or set shape (.region(CropRegion, clamped:))"
    )
    public var height: Int {
        get { pixels(\.height) }
        set { setPixels(\.height, newValue) }
    }

    private var pixelRegion: CropRegion {
        if case .region(let region, _) = shape { return region }
        return CropRegion(x: .pixels(0), y: .pixels(0), width: .pixels(0), height: .pixels(0))
    }

    private func pixels(_ side: KeyPath<CropRegion, CropValue>) -> Int {
        if case .pixels(let value) = pixelRegion[keyPath: side] { return value }
        return 0
    }

    private mutating func setPixels(_ side: WritableKeyPath<CropRegion, CropValue>, _ value: Int) {
        var region = pixelRegion
        region[keyPath: side] = .pixels(value)
        shape = .region(region, clamped: false)
    }
}

extension ImageLoader {
    /// 0.1.0's form, a stream that ends quietly when its consumer is cancelled before the final response.
    @_disfavoredOverload
    @available(
        *, deprecated,
        message:
            "responses(for:previews:progress:) returns ImageResponses since 0.2.0; iterate it as before (it throws cancelled instead of ending quietly)"
    )
    public func responses(
        for request: ImageRequest, previews policy: PreviewPolicy = PreviewPolicy(),
        progress: (@Sendable (FetchProgress) -> Void)? = nil
    ) -> AsyncThrowingStream<ImageResponse, any Error> {
        responses(for: request, previews: policy, progress: progress).stream
    }
}

// The UI layer is the ImagoUI module since 0.2.0. `import Imago` brings it, as before; a file that imports
// ImagoCore alone is told where the types went (ImagoUI's own declarations hide these wherever it is imported).

@available(
    *, unavailable,
    message:
        "ImageModel is in the ImagoUI product since 0.2.0: depend on ImagoUI and import ImagoUI (import Imago brings it too)"
)
public struct ImageModel {}
@available(
    *, unavailable,
    message:
        "ImagePhase is in the ImagoUI product since 0.2.0: depend on ImagoUI and import ImagoUI (import Imago brings it too)"
)
public struct ImagePhase {}
@available(
    *, unavailable,
    message:
        "ImagePhaseChange is in the ImagoUI product since 0.2.0: depend on ImagoUI and import ImagoUI (import Imago brings it too)"
)
public struct ImagePhaseChange {}
@available(
    *, unavailable,
    message:
        "ImagePhaseHook is in the ImagoUI product since 0.2.0: depend on ImagoUI and import ImagoUI (import Imago brings it too)"
)
public struct ImagePhaseHook {}
@available(
    *, unavailable,
    message:
        "ImageTransaction is in the ImagoUI product since 0.2.0: depend on ImagoUI and import ImagoUI (import Imago brings it too)"
)
public struct ImageTransaction {}
