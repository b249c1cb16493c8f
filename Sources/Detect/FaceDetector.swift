import CImagoFaces
import Foundation
import ImagoCore

/// Faces, frontal and in profile, by OpenCV's cascade classifiers (Viola–Jones Haar cascades from Debian's
/// `opencv-data`), through a small C++ shim that loads OpenCV on first use.
///
/// The image is shrunk (area averaging) so its longest side is at most `workingSize`, turned grey and its histogram
/// equalised; the frontal cascade runs on it, then the profile cascade on it and on its mirror image (OpenCV's
/// profile cascade finds faces turned one way). Overlapping detections of the cascades are merged, keeping the one
/// with more neighbours. A region's confidence is `n / (n + minNeighbours)`, where `n` is the number of raw
/// detections OpenCV merged into it: a face found at many scales and offsets is more likely a face.
///
/// The context is checked before each cascade; one cascade pass is not interrupted (about 10–40 ms at 640 px).
public struct FaceDetector: ImageDetector {
    /// The default cascades (Debian's `opencv-data`).
    public static let defaultFrontalCascade = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt2.xml"
    public static let defaultProfileCascade = "/usr/share/opencv4/haarcascades/haarcascade_profileface.xml"

    /// The longest side detection works at, in pixels.
    public let workingSize: Int?
    /// The smallest face looked for, in pixels of the shrunk image.
    public let minimumFaceSize: Int
    /// How many raw detections must agree (OpenCV's `minNeighbors`): higher finds fewer false faces and fewer faces.
    public let minimumNeighbours: Int
    /// The scale step between window sizes (OpenCV's `scaleFactor`).
    public let scaleFactor: Double
    private let frontal: CascadePool
    private let profile: CascadePool?

    /// Creates a detector, loading OpenCV and the cascades now: throws `invalidConfiguration` saying why when this
    /// build has no OpenCV, OpenCV cannot be loaded, or a cascade cannot be read.
    public init(
        frontalCascade: String = defaultFrontalCascade, profileCascade: String? = defaultProfileCascade,
        workingSize: Int = 640, minimumFaceSize: Int = 20, minimumNeighbours: Int = 4, scaleFactor: Double = 1.1
    ) throws {
        guard workingSize >= 64, minimumFaceSize >= 8, minimumNeighbours >= 1, scaleFactor > 1, scaleFactor <= 2 else {
            throw ImagoError(.invalidConfiguration, "faces: a setting is out of range")
        }
        if let failure = imago_faces_load() {
            throw ImagoError(.invalidConfiguration, "the faces detector cannot run: " + String(cString: failure))
        }
        self.workingSize = workingSize
        self.minimumFaceSize = minimumFaceSize
        self.minimumNeighbours = minimumNeighbours
        self.scaleFactor = scaleFactor
        frontal = try CascadePool.shared(frontalCascade)
        profile = try profileCascade.map { try CascadePool.shared($0) }
    }

    /// Whether this build has face detection (OpenCV's headers were there when it was compiled) and OpenCV's
    /// libraries load; the reason when not.
    public static var availability: Result<Void, ImagoError> {
        if let failure = imago_faces_load() {
            return .failure(ImagoError(.invalidConfiguration, String(cString: failure)))
        }
        return .success(())
    }

    public var identifier: String {
        let cascades = ([frontal.path] + (profile.map { [$0.path] } ?? [])).map {
            URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent
        }
        return "faces(\(cascades.joined(separator: "+")),\(workingSize ?? 0),min=\(minimumFaceSize),"
            + "n=\(minimumNeighbours),s=\(scaleFactor))"
    }

    public var kinds: Set<RegionKind> { [.face] }

    public func detect(in raster: Raster, context: DetectionContext) throws -> [DetectedRegion] {
        try context.checkpoint()
        let grey = try GreyImage(raster, longestSide: workingSize ?? 640)
        guard grey.width >= minimumFaceSize, grey.height >= minimumFaceSize else { return [] }
        var found = try frontal.detect(in: grey, settings: self)
        if let profile {
            try context.checkpoint()
            found += try profile.detect(in: grey, settings: self)
            try context.checkpoint()
            found += try profile.detect(in: grey.mirrored(), settings: self).map { $0.mirrored(width: grey.width) }
        }
        let size = PixelSize(width: raster.width, height: raster.height)
        let shrunk = PixelSize(width: Int(grey.width), height: Int(grey.height))
        return Self.merge(found).compactMap { candidate in
            DetectedRegion(
                kind: .face, x: Int(candidate.x), y: Int(candidate.y), width: Int(candidate.width),
                height: Int(candidate.height),
                confidence: Double(candidate.neighbours) / Double(Int(candidate.neighbours) + minimumNeighbours)
            ).scaled(from: shrunk, to: size)
        }
    }

    /// Drops detections overlapping a stronger one (intersection over union above 0.3, or one inside the other),
    /// strongest first; ties go to the larger and then the top-left one, so the order of the input does not matter.
    static func merge(_ candidates: [imago_faces_rect]) -> [imago_faces_rect] {
        let ordered = candidates.sorted {
            ($0.neighbours, $0.width * $0.height, -$0.y, -$0.x) > ($1.neighbours, $1.width * $1.height, -$1.y, -$1.x)
        }
        var kept: [imago_faces_rect] = []
        for candidate in ordered where !kept.contains(where: { overlaps($0, candidate) }) {
            kept.append(candidate)
        }
        return kept.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
    }

    private static func overlaps(_ a: imago_faces_rect, _ b: imago_faces_rect) -> Bool {
        let width = min(a.x + a.width, b.x + b.width) - max(a.x, b.x)
        let height = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
        guard width > 0, height > 0 else { return false }
        let shared = width * height
        let smaller = min(a.width * a.height, b.width * b.height)
        return Double(shared) > 0.3 * Double(a.width * a.height + b.width * b.height - shared)
            || Double(shared) > 0.8 * Double(smaller)
    }
}

extension imago_faces_rect {
    /// The same rectangle in the image mirrored left to right.
    fileprivate func mirrored(width imageWidth: Int32) -> imago_faces_rect {
        var copy = self
        copy.x = imageWidth - x - width
        return copy
    }
}
