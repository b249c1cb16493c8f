import Foundation
import ImagoCodecs
import ImagoCore
import Testing

/// The JPEGs libjpeg only warns about, which Pillow, ImageMagick and browsers show: decoded with the references'
/// pixels, the warnings kept on the image, refused in strict mode.
@Suite struct JPEGLeniencyCorpusTests {
    static let files = [
        "jpeg/pillow/hopper_bad_exif.jpg",
        "jpeg/jpeg-decoder-reftest/partial_progressive.jpg",
        "jpeg/jpeg-decoder-crashtest/dc-predictor-overflow.jpg",
        "jpeg/jpeg-decoder-crashtest/subtract-with-overflow.jpg",
        "jpeg/jpeg-decoder-crashtest/imagetestsuite/1cbb1bb37d62c44f67374cd451643dc4.jpg",
        "jpeg/jpeg-decoder-crashtest/imagetestsuite/5482a54657765056f1a94116a8dbffe7.jpg",
        "jpeg/jpeg-decoder-crashtest/imagetestsuite/7997b6b229f25315d33f5c7085e37500.jpg",
        "jpeg/jpeg-decoder-crashtest/imagetestsuite/b55977028a3a574336966b6536640fc9.jpg",
        "jpeg/jpeg-decoder-crashtest/imagetestsuite/f6b4389c3cf0f5997b2e5a4b905aea8d.jpg",
    ]

    @Test(arguments: files)
    func decodesAsTheReferencesWithWarnings(_ file: String) throws {
        let corpus = try CorpusReference.load()
        let entry = try #require(corpus.entries.first { $0.file == file })
        let data = try corpus.data(entry)
        let image = try JPEGCodec().decode(data, options: CorpusConformance.options)
        #expect(!image.warnings.isEmpty, "libjpeg warned about \(file)")
        #expect(image.width == entry.pillow.width && image.height == entry.pillow.height)
        if entry.verdict == "identical" {
            #expect(CorpusReference.sha256(image.raster) == entry.pillow.sha256_rgba)
        }
        let error = #expect(throws: ImagoError.self) {
            try JPEGCodec().decode(data, options: DecodeOptions(strict: true))
        }
        #expect(error?.kind == .decodingFailed(format: .jpeg))
    }
}
