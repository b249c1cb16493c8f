import Foundation
import Imago
import Synchronization

/// The app's pictures, served by `GalleryTransport`.
let pictures: [String: Data] = {
    do {
        return [
            "sunset": try GLRYCodec.picture(width: 8, height: 6, color: RGBA(250, 120, 40)),
            "sea": try GLRYCodec.picture(width: 5, height: 5, color: RGBA(20, 90, 200)),
            "night": try GLRYCodec.picture(width: 40, height: 30, color: RGBA(10, 10, 30)),
        ]
    } catch {
        fatalError("cannot make the pictures: \(error)")
    }
}()

extension PluginRegistry {
    /// Set-up 11: the app's registrations, kept together in an extension of the registry.
    func registerGallery() {
        // 1. The app's transport, asked before the built-ins for its scheme.
        register(GalleryTransport(pictures: pictures))
        // 2. The source policy: http(s) only from the hosts the app trusts.
        register(AllowListTransport(inner: CurlTransport(), hosts: ["images.example.com"]))
        // 3. The app's codec.
        register(Codec(decoder: GLRYCodec(), encoder: GLRYCodec()))
        // 7–9. Factories, so a configuration file can name the app's plugins.
        registerFactory(
            PluginFactory<any ImageTransport>(name: "gallery") { _ in GalleryTransport(pictures: pictures) })
        registerFactory(PluginFactory<Codec>(name: "glry") { _ in Codec(decoder: GLRYCodec(), encoder: GLRYCodec()) })
        registerFactory(PluginFactory<any ImageProcessor>(name: "invert") { _ in InvertProcessor() })
        // 10. A processing preset.
        registerPreset(
            "negative-thumbnail",
            [ResizeProcessor(size: PixelSize(width: 4, height: 3), mode: .fill), InvertProcessor()])
    }
}

/// Set-up 13: the app's metrics, from the loader's events.
final class GalleryMetrics: ImageLoadEventListener {
    private let state = Mutex<(fetches: Int, finished: [String], log: [String])>((0, [], []))

    var log: [String] { state.withLock { $0.log } }
    var fetches: Int { state.withLock { $0.fetches } }
    var origins: [String] { state.withLock { $0.finished } }

    func receive(_ event: ImageLoadEvent) {
        switch event.kind {
        case .dataCacheHit(let byteCount):
            state.withLock { $0.log.append("disk hit: \(byteCount) bytes") }
        case .fetchEnded(let attempt):
            state.withLock { $0.fetches += 1 }
            if let error = attempt.error { print("fetch failed:", error) }
        case .finished(let response):
            let origin = response.origin == .disk ? "disk" : "\(response.origin)"
            state.withLock { $0.finished.append(origin) }
        default:
            break
        }
    }
}

/// The app's own stored record of where each picture came from (it is `Codable`).
struct LoadRecord: Codable, Equatable {
    var name: String
    var origin: ImageOrigin
}
