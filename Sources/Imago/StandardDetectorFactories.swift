import ImagoDetect

extension PluginRegistry.Builder {
    /// `faces` (ImagoDetect, over OpenCV): settings `frontalCascade` and `profileCascade` (paths of cascade files),
    /// `profiles` (whether faces in profile are looked for too), `workingSize` (longest side detection runs at, 64–4096),
    /// `minimumFaceSize` (pixels at the working size, 8–1024), `minimumNeighbours` (1–50), `scaleFactor` (1.01–2).
    /// Building it fails with the reason when this build or this machine has no OpenCV.
    mutating func registerStandardDetectorFactories() {
        add(
            PluginFactory<any ImageDetector>(
                name: "faces",
                defaultSettings: .object([
                    "frontalCascade": .string(FaceDetector.defaultFrontalCascade),
                    "profileCascade": .string(FaceDetector.defaultProfileCascade), "profiles": .bool(true),
                    "workingSize": .number(640),
                    "minimumFaceSize": .number(20), "minimumNeighbours": .number(4), "scaleFactor": .number(1.1),
                ])
            ) { reader in
                let profileCascade = try reader.string("profileCascade") ?? FaceDetector.defaultProfileCascade
                let profile = try reader.bool("profiles", default: true) ? profileCascade : nil
                do {
                    return try FaceDetector(
                        frontalCascade: try reader.string("frontalCascade") ?? FaceDetector.defaultFrontalCascade,
                        profileCascade: profile,
                        workingSize: try reader.int("workingSize", default: 640, in: 64...4096),
                        minimumFaceSize: try reader.int("minimumFaceSize", default: 20, in: 8...1024),
                        minimumNeighbours: try reader.int("minimumNeighbours", default: 4, in: 1...50),
                        scaleFactor: try reader.double("scaleFactor", default: 1.1, in: 1.01...2))
                } catch let error as ImagoError {
                    throw ConfigReader.error(reader.path, error.reason)
                }
            })
    }
}
