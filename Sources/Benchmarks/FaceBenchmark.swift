import Foundation
import Imago

/// `imago-bench faces FOLDER`: on the photographs Scripts/make-face-set.py writes (with a manifest of where the faces
/// are), the share of crops that keep every face whole with `g=face` (regions from the face detector), smart and
/// centre gravity, for square, 4:5 and 16:9 crops; and the detector's CPU time per image and per megapixel.
/// Usage: imago-bench faces FOLDER [WORKING_SIZE [SCALE_FACTOR [PROFILES 0|1 [FRONTAL_CASCADE]]]]
enum FaceBenchmark {
    struct Scene: Decodable {
        let file: String
        let faces: [[Int]]
    }

    static func run(_ arguments: [String]) throws {
        guard let folder = arguments.first else { throw CocoaError(.fileNoSuchFile) }
        let folderURL = URL(fileURLWithPath: folder)
        let scenes = try JSONDecoder().decode(
            [Scene].self, from: Data(contentsOf: folderURL.appendingPathComponent("manifest.json")))
        // Optional: working size, scale factor, whether profiles are looked for, the frontal cascade.
        let setting = { (index: Int) in arguments.count > index ? arguments[index] : nil }
        let detector = try FaceDetector(
            frontalCascade: setting(4) ?? FaceDetector.defaultFrontalCascade,
            profileCascade: setting(3) == "0" ? nil : FaceDetector.defaultProfileCascade,
            workingSize: setting(1).flatMap(Int.init) ?? 640, scaleFactor: setting(2).flatMap(Double.init) ?? 1.1)
        let aspects = [(1, 1), (4, 5), (16, 9)]
        var kept = [String: Int]()
        var crops = 0
        var cpu: [Double] = []
        var megapixels = 0.0
        var found = 0
        var matched = 0
        var faces = 0
        var possible = 0
        for scene in scenes {
            let raster = try JPEGCodec().decode(Data(contentsOf: folderURL.appendingPathComponent(scene.file))).raster
            let size = PixelSize(width: raster.width, height: raster.height)
            // CPU time of the detection (the least of three runs: the machine is shared).
            var best = Double.infinity
            var regions: [DetectedRegion] = []
            for _ in 0..<3 {
                let start = threadCPU()
                regions = try detector.detect(in: raster, context: DetectionContext())
                best = min(best, threadCPU() - start)
            }
            cpu.append(best)
            megapixels += Double(raster.width * raster.height) / 1e6
            let truth = scene.faces.map {
                DetectedRegion(kind: .face, x: $0[0], y: $0[1], width: $0[2], height: $0[3], confidence: 1)
            }
            faces += truth.count
            found += regions.count
            matched += truth.filter { face in regions.contains { $0.overlap(with: face) > 0.3 } }.count
            let result = DetectionResult(detector: detector.identifier, imageSize: size, regions: regions)
            for (aw, ah) in aspects {
                crops += 1
                // Whether any window of this aspect holds every face (the most a crop can keep).
                let window = try CropProcessor(aspectWidth: aw, aspectHeight: ah).rectangle(in: raster)
                let left = truth.map(\.x).min() ?? 0
                let top = truth.map(\.y).min() ?? 0
                if (truth.map { $0.x + $0.width }.max() ?? 0) - left <= window.width
                    && (truth.map { $0.y + $0.height }.max() ?? 0) - top <= window.height
                {
                    possible += 1
                }
                for (name, gravity) in [("face", Gravity.regions(result)), ("smart", .smart), ("centre", .center)] {
                    let crop = CropProcessor(aspectWidth: aw, aspectHeight: ah, gravity: gravity)
                    let rect = try crop.rectangle(in: raster)
                    let whole = truth.allSatisfy {
                        $0.x >= rect.x && $0.y >= rect.y && $0.x + $0.width <= rect.x + rect.width
                            && $0.y + $0.height <= rect.y + rect.height
                    }
                    if whole { kept[name, default: 0] += 1 }
                }
            }
        }
        print("scenes \(scenes.count), faces \(faces), crops \(crops) (1:1, 4:5, 16:9 of each)")
        print("a window keeping every face exists in \(possible) of \(crops) crops")
        print("detector \(detector.identifier)")
        print(String(format: "faces found %d of %d (IoU > 0.3), %d detections in all", matched, faces, found))
        for name in ["face", "smart", "centre"] {
            let share = Double(kept[name, default: 0]) / Double(crops) * 100
            print(
                String(
                    format: "g=%-7@ keeps every face whole in %3d of %d crops (%.1f%%)", name, kept[name, default: 0],
                    crops, share))
        }
        let total = cpu.reduce(0, +)
        let sorted = cpu.sorted()
        print(
            String(
                format: "detection CPU: median %.1f ms per image, %.1f ms per megapixel (%.1f MP in all)",
                sorted[sorted.count / 2] * 1000, total / megapixels * 1000, megapixels))
    }

    static func threadCPU() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}
