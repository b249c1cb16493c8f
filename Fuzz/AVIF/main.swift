import FuzzSupport
import ImagoAVIF

/// libFuzzer entry (libFuzzer owns `main`): any bytes through `AVIFCodec` give an image or an error, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAVIF(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzDecoding.run(AVIFCodec(), start, count)
}
