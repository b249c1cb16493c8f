import CLazyLibrary
import Foundation
import Testing

/// The loader behind libavif, libheif and libjxl (CLazyLibrary): it opens the first file name that loads, fills
/// a pointer per function the library has, and says why when none loads.
@Suite struct LazyLibraryTests {
    /// Opens `sonames` looking up `symbols`; returns the failure message (nil when loaded) and the pointers found.
    static func open(_ sonames: [String], symbols: [String]) -> (failure: String?, found: [Bool]) {
        let names: [UnsafePointer<CChar>?] = sonames.map { UnsafePointer(strdup($0)) } + [nil]
        let symbolNames: [UnsafePointer<CChar>?] = symbols.map { UnsafePointer(strdup($0)) }
        let slots = symbols.map { _ in UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 1) }
        defer {
            names.forEach { free(UnsafeMutablePointer(mutating: $0)) }
            symbolNames.forEach { free(UnsafeMutablePointer(mutating: $0)) }
            slots.forEach { $0.deallocate() }
        }
        for slot in slots { slot.pointee = nil }
        let library = UnsafeMutablePointer<imago_lazy_library>.allocate(capacity: 1)
        defer { library.deallocate() }
        return names.withUnsafeBufferPointer { sonamePointers in
            symbolNames.withUnsafeBufferPointer { symbolPointers in
                slots.map { Optional($0) }.withUnsafeBufferPointer { slotPointers in
                    library.initialize(to: imago_lazy_library())
                    library.pointee.name = UnsafePointer(strdup("libtest"))
                    library.pointee.sonames = sonamePointers.baseAddress
                    library.pointee.symbols = symbolPointers.baseAddress
                    library.pointee.slots = slotPointers.baseAddress
                    library.pointee.count = symbols.count
                    imago_lazy_open(library)
                    defer { free(UnsafeMutablePointer(mutating: library.pointee.name)) }
                    let failure = library.pointee.failure.map { String(cString: $0) }
                    return (failure, slots.map { $0.pointee != nil })
                }
            }
        }
    }

    @Test func aMissingLibraryIsReportedNotLoaded() {
        let result = Self.open(["libimago-no-such-library.so.1"], symbols: ["anything"])
        #expect(result.failure?.contains("libtest could not be loaded") == true, "\(result.failure ?? "nil")")
        #expect(result.failure?.contains("libimago-no-such-library.so.1") == true)
        #expect(result.found == [false])
    }

    @Test func theFirstNameThatLoadsIsUsedAndEachFunctionLookedUp() {
        // zlib is on every Debian machine (libpng needs it).
        let result = Self.open(
            ["libimago-no-such-library.so.1", "libz.so.1"], symbols: ["zlibVersion", "noSuchFunction"])
        #expect(result.failure == nil, "\(result.failure ?? "")")
        #expect(result.found == [true, false])
    }
}
