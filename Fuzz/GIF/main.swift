import FuzzSupport
import ImagoCodecs

/// libFuzzer entry (libFuzzer owns `main`): any bytes through `GIFCodec` give an image or an error, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGIF(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzDecoding.run(GIFCodec(), start, count)
}
