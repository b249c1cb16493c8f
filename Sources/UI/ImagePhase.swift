import ImagoCore

/// Where the load of one image view stands, as SwiftUI's `AsyncImagePhase` has it.
///
/// Progress is not a phase: it changes many times a second and has no transition; `ImageModel.progress` has it.
public enum ImagePhase: Sendable {
    /// Nothing loaded yet (or loading; `ImageModel.placeholder` may have a picture to show meanwhile).
    case empty
    /// The image, with where it came from.
    case success(ImageResponse)
    /// The load failed.
    case failure(ImagoError)

    /// The image, when loaded; it knows its pixel size, scale and size in points.
    public var image: DecodedImage? { response?.image }
    /// The whole response, when loaded.
    public var response: ImageResponse? {
        if case .success(let response) = self { return response }
        return nil
    }
    /// The error, when the load failed.
    public var error: ImagoError? {
        if case .failure(let error) = self { return error }
        return nil
    }
    /// Where the image came from, when loaded.
    public var origin: ImageOrigin? { response?.origin }
    /// Whether the image shown is a preview of one still arriving (see `ImageModel.previews`).
    public var isPreview: Bool { response?.isPreview ?? false }
    /// Whether nothing is shown yet.
    public var isEmpty: Bool {
        if case .empty = self { return true }
        return false
    }
}

extension ImagePhase: CustomStringConvertible {
    public var description: String {
        switch self {
        case .empty: "empty"
        case .success(let response):
            "\(response.isPreview ? "preview" : "success")(\(response.image.width)x\(response.image.height), "
                + "\(response.origin))"
        case .failure(let error): "failure(\(error))"
        }
    }
}
