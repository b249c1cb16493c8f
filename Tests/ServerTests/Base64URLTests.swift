import Foundation
import Testing

@testable import ImagoServer

@Suite struct Base64URLTests {
    @Test func roundTripsEveryLength() {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 250) }
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(
                text
                    == Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                    .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: ""))
            #expect(Base64URL.decode(text) == bytes)
        }
    }

    @Test func refusesPaddingForeignCharactersAndImpossibleLengths() {
        #expect(Base64URL.decode("aGk=") == nil)
        #expect(Base64URL.decode("a+b/") == nil)
        #expect(Base64URL.decode("abcde") == nil)  // 5 characters: 6 bits left over
        #expect(Base64URL.decode("aGk") == Array("hi".utf8))
        #expect(Base64URL.decode("aGl") == nil)  // non-zero leftover bits: not canonical
        #expect(Base64URL.decode("a b") == nil)
    }
}
