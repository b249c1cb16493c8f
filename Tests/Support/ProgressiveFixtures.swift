import Foundation

/// Test images that give previews while they arrive (in `Tests/Fixtures/Progressive`, made by Pillow and vips).
public enum ProgressiveFixtures {
    /// A 640x480 progressive JPEG of 10 scans (Pillow's `progressive=True`, quality 90).
    public static let progressiveJPEG = "photo-progressive.jpg"
    /// The same picture as a baseline JPEG.
    public static let baselineJPEG = "photo-baseline.jpg"
    /// A 400x300 Adam7-interlaced PNG (vips `pngsave --interlace`).
    public static let adam7PNG = "photo-adam7.png"

    /// The folder of the fixtures.
    public static var folder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/Progressive")
    }

    /// A fixture's bytes.
    public static func data(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }
}
