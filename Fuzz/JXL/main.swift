import FuzzSupport
import ImagoJXL

/// libFuzzer entry (libFuzzer owns `main`): any bytes through `JXLCodec` give an image or an error, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJXL(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzDecoding.run(JXLCodec(), start, count)
}
