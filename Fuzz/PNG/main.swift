import FuzzSupport
import ImagoCodecs

/// libFuzzer entry (libFuzzer owns `main`): any bytes through `PNGCodec` give an image or an error, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzDecoding.run(PNGCodec(), start, count)
}
