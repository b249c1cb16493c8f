import CImagoFaces
import ImagoCore
import Synchronization

/// The loaded copies of one cascade file, handed out one caller at a time (OpenCV's classifier keeps state while
/// it detects): a detection takes a copy or loads one, and gives it back. Copies live as long as the process; there
/// are at most as many as detections ever ran at once (one per compute thread). Shared by every detector of the path.
final class CascadePool: Sendable {
    let path: String
    private let idle = Mutex<[Cascade]>([])

    /// An open cascade, moved between threads only through the pool's lock.
    private struct Cascade: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private static let pools = Mutex<[String: CascadePool]>([:])

    /// The pool of `path`, reading the file once now so a bad path is reported when the detector is made.
    static func shared(_ path: String) throws -> CascadePool {
        if let pool = pools.withLock({ $0[path] }) { return pool }
        let pool = CascadePool(path: path)
        let first = try pool.open()
        pool.idle.withLock { $0.append(first) }
        return pools.withLock { pools in
            if let existing = pools[path] { return existing }
            pools[path] = pool
            return pool
        }
    }

    private init(path: String) { self.path = path }

    private func open() throws -> Cascade {
        var error = [CChar](repeating: 0, count: 512)
        guard let pointer = imago_faces_cascade_open(path, &error, error.count) else {
            throw ImagoError(.invalidConfiguration, FaceErrors.failure(error).reason)
        }
        return Cascade(pointer: pointer)
    }

    /// The detections of this cascade in `grey`, with `settings`' parameters.
    func detect(in grey: GreyImage, settings: FaceDetector) throws -> [imago_faces_rect] {
        let cascade = try idle.withLock { $0.popLast() } ?? open()
        defer { idle.withLock { $0.append(cascade) } }
        var rects = [imago_faces_rect](repeating: imago_faces_rect(), count: 256)
        var error = [CChar](repeating: 0, count: 512)
        let count = grey.pixels.withUnsafeBufferPointer { pixels in
            imago_faces_detect(
                cascade.pointer, pixels.baseAddress, grey.width, grey.height, settings.scaleFactor,
                Int32(settings.minimumNeighbours), Int32(settings.minimumFaceSize), &rects, Int32(rects.count),
                &error, error.count)
        }
        guard count >= 0 else { throw FaceErrors.failure(error) }
        return Array(rects.prefix(Int(count)))
    }
}
