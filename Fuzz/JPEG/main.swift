import FuzzSupport
import ImagoCodecs

/// libFuzzer entry (libFuzzer owns `main`): any bytes through `JPEGCodec` give an image or an error, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzDecoding.run(JPEGCodec(), start, count)
}
