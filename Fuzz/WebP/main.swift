import FuzzSupport
import ImagoCodecs

/// libFuzzer entry (libFuzzer owns `main`): any bytes through `WebPCodec` give an image or an error, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebP(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzDecoding.run(WebPCodec(), start, count)
}
