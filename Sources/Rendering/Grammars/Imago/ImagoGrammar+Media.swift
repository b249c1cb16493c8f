/// Imago's rows for faces and videos: `blurfaces`, `pixelatefaces` (a face detector finds what they hide), `t`
/// (a video's poster time), `frames` and `fps` (a video's animated preview).
extension ProcessingOptions {
    static let mediaRows: [OptionRow<Void>] = [
        row("blurfaces", "a sigma from 0.3 to 100", canonical: { $0.blurFaces.map(number) }) {
            $0.blurFaces = try $1.decimal(0, in: 0.3...100)
        },
        row("pixelatefaces", "a cell size from 2 to 256 pixels", canonical: { $0.pixelateFaces.map(String.init) }) {
            $0.pixelateFaces = try $1.int(0, in: 2...256)
        },
        row(
            "t", "seconds from 0, or S:k for the keyframe at or before them", arguments: 1...2,
            canonical: { options in
                options.posterTime.map { number($0) + (options.posterAtKeyframe ? ":k" : "") }
            }
        ) { options, arguments in
            guard arguments.count == 1 || arguments.values[1] == "k" else { throw arguments.malformed() }
            options.posterTime = try arguments.decimal(0, in: 0...86_400)
            options.posterAtKeyframe = arguments.count == 2
        },
        row("frames", "a number of frames from 1 to 1000", canonical: { $0.previewFrames.map(String.init) }) {
            $0.previewFrames = try $1.int(0, in: 1...1000)
        },
        row("fps", "frames a second, from 0.1 to 60", canonical: { $0.previewFrameRate.map(number) }) {
            $0.previewFrameRate = try $1.decimal(0, in: 0.1...60)
        },
    ]
}
