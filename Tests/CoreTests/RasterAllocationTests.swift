import Foundation
import Testing

@testable import ImagoCore

@Suite struct RasterAllocationTests {
    @Test func memoryThatCannotBeHadIsALimitErrorNotACrash() {
        // 64 TiB: a size a header may claim, far past this machine's memory (allocating it used to abort).
        let error = #expect(throws: ImagoError.self) {
            _ = try Raster(width: Int(Int32.max), height: 1 << 13) { _ in Issue.record("filled a buffer") }
        }
        #expect(error?.kind == .limitExceeded)
        #expect(error?.reason.hasPrefix("cannot allocate") == true)
    }

    @Test func ordinaryAllocationsStillWorkAndAreAligned() throws {
        let raster = try Raster(width: 300, height: 300, fill: RGBA(1, 2, 3))
        #expect(raster[299, 299] == RGBA(1, 2, 3))
        raster.withUnsafeBytes { #expect(Int(bitPattern: $0.baseAddress) % 64 == 0) }
    }
}
