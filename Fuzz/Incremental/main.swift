import Foundation
import FuzzSupport
import ImagoCodecs

/// libFuzzer entry for the incremental decoders: the first byte sets the chunk size, the rest is fed to the JPEG
/// and PNG incremental decoders in chunks with a preview after every new step. Never a crash; and when the
/// incremental decode succeeds, the one-shot decode of the same bytes succeeds with the same image.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIncremental(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let start, count > 1 else { return 0 }
    let chunkSize = Int(start.load(as: UInt8.self)) * 16 + 1
    let data = Data(bytes: start + 1, count: count - 1)
    let options = DecodeOptions(limits: FuzzDecoding.limits)
    let scaled = DecodeOptions(limits: FuzzDecoding.limits, targetSize: PixelSize(width: 17, height: 9))
    check(JPEGCodec(), JPEGIncrementalDecoder(options: options), data, chunkSize, options)
    check(JPEGCodec(), JPEGIncrementalDecoder(options: scaled), data, chunkSize, scaled)
    check(PNGCodec(), PNGIncrementalDecoder(options: options, decodesEveryImage: true), data, chunkSize, options)
    return 0
}

func check(
    _ codec: some ImageDecoder, _ decoder: some IncrementalImageDecoder, _ data: Data, _ chunkSize: Int,
    _ options: DecodeOptions
) {
    var shown = 0
    var offset = 0
    do {
        while offset < data.count {
            let end = min(offset + chunkSize, data.count)
            let progress = try decoder.append(data.subdata(in: offset..<end))
            offset = end
            if progress.completedSteps > shown, let preview = try decoder.makePreview() {
                precondition(preview.width > 0 && preview.height > 0)
                shown = progress.completedSteps
            }
        }
        let final = try decoder.finish()
        let oneShot = try? codec.decode(data, options: options)
        precondition(oneShot == final, "the incremental decode differs from the one-shot decode")
    } catch {
        precondition(error is ImagoError, "not an ImagoError: \(error)")
    }
}
