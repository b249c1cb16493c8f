import FuzzSupport
import ImagoHEIF

/// libFuzzer entry (libFuzzer owns `main`): any bytes through `HEIFCodec` give an image or an error, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHEIF(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzDecoding.run(HEIFCodec(), start, count)
}
