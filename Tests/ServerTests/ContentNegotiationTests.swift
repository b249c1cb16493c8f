import Imago
import Testing

@testable import ImagoServer

@Suite struct ContentNegotiationTests {
    let preferred: [ImageFormat] = [.webp, .jpeg]

    @Test func picksTheFirstPreferredFormatTheClientNames() {
        #expect(ContentNegotiation.format(accept: "image/webp,*/*", preferred: preferred) == .webp)
        #expect(ContentNegotiation.format(accept: "image/jpeg, image/webp;q=0.5", preferred: preferred) == .webp)
        #expect(ContentNegotiation.format(accept: "IMAGE/WEBP", preferred: preferred) == .webp)
        #expect(ContentNegotiation.format(accept: "image/webp", preferred: [.jpeg, .webp]) == .webp)
        #expect(ContentNegotiation.format(accept: "image/jpeg,image/webp", preferred: [.jpeg, .webp]) == .jpeg)
        #expect(ContentNegotiation.format(accept: "image/png,image/jpeg", preferred: preferred) == .jpeg)
        // JPEG XL and HEIC may be named in autoFormats (issue 24).
        let newer = try? ServeSettings(
            json: .object(["autoFormats": .array([.string("jxl"), .string("heic"), .string("jpeg")])]))
        #expect(newer?.autoFormats == [.jxl, .heic, .jpeg])
        #expect(ContentNegotiation.format(accept: "image/jxl,image/jpeg", preferred: newer?.autoFormats ?? []) == .jxl)
        #expect(ContentNegotiation.format(accept: "image/heic", preferred: newer?.autoFormats ?? []) == .heic)
    }

    @Test func ignoresRefusedTypesAndWildcards() {
        #expect(ContentNegotiation.format(accept: "image/webp;q=0,image/jpeg", preferred: preferred) == .jpeg)
        #expect(ContentNegotiation.format(accept: "image/webp; q=0.0", preferred: preferred) == nil)
        #expect(ContentNegotiation.format(accept: "*/*", preferred: preferred) == nil)
        #expect(ContentNegotiation.format(accept: "image/*", preferred: preferred) == nil)
        #expect(ContentNegotiation.format(accept: nil, preferred: preferred) == nil)
        #expect(ContentNegotiation.format(accept: ",,;;", preferred: preferred) == nil)
    }
}
