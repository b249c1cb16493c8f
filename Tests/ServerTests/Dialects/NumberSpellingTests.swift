import Foundation
import Imago
import Testing

@testable import ImagoServer

extension ServerIntegrationTests {
    /// Issue 35, item 3: a number written another way (leading or trailing zeros, `1.0`, `+5` where the grammar
    /// allows a sign) is the same number: ten spellings of one variant give one render, the first rendered and the
    /// other nine from the result cache under the same key, in each of the three grammars.
    @Suite struct NumberSpellingTests {
        /// The ten answers, and whether they are one render: all 200 with one body, one rendered, nine cached.
        func oneRender(_ fixture: ServerFixture, _ paths: [String]) async throws {
            #expect(paths.count == 10)
            var bodies: Set<Data> = []
            for path in paths {
                let response = try await fixture.get(path)
                #expect(response.status == 200, "\(path): \(response.status) \(response.text.prefix(200))")
                bodies.insert(response.body)
            }
            #expect(bodies.count == 1, "\(bodies.count) different answers")
            let caches = fixture.log.map(\.cache)
            #expect(caches == ["network"] + Array(repeating: "result", count: 9), "\(caches)")
        }

        static let imagoSpellings = [
            "w=300,blur=1.5", "w=0300,blur=1.5", "w=00300,blur=1.5", "w=300.0,blur=1.5", "w=300.00,blur=1.5",
            "w=300,blur=1.50", "w=300,blur=01.5", "w=300,blur=001.500", "w=0300,blur=01.50", "w=300.,blur=1.5",
        ]

        @Test func imagosGrammar() async throws {
            let fixture = try DialectServerTests.fixture()
            let paths = Self.imagoSpellings.map { fixture.path($0, origin: "img/photo.jpg") }
            try await oneRender(fixture, paths)
        }

        static let imgproxySpellings = [
            "rs:fit:300:200/bl:1.5", "rs:fit:0300:200/bl:1.5", "rs:fit:300:0200/bl:1.5", "rs:fit:+300:200/bl:1.5",
            "rs:fit:300:+200/bl:1.50", "rs:fit:300:200/bl:01.5", "rs:fit:300:200/bl:+1.5", "rs:fit:300:200/bl:1.500",
            "rs:fit:00300:0200/bl:001.50", "rs:fit:+0300:200/bl:+01.5",
        ]

        @Test func imgproxysGrammar() async throws {
            let fixture = try DialectServerTests.fixture()
            let paths = Self.imgproxySpellings.map { fixture.signedImgproxy($0, "photo.jpg") }
            try await oneRender(fixture, paths)
        }

        static let thumborSpellings = [
            "300x200/filters:brightness(20):sharpen(1.5,1,true)/photo.jpg",
            "0300x200/filters:brightness(20):sharpen(1.5,1,true)/photo.jpg",
            "300x0200/filters:brightness(020):sharpen(1.5,1,true)/photo.jpg",
            "300x200/filters:brightness(0020):sharpen(1.50,1,true)/photo.jpg",
            "300x200/filters:brightness(20):sharpen(01.5,1.0,true)/photo.jpg",
            "300x200/filters:brightness(20):sharpen(1.5,1.,true)/photo.jpg",
            "300x200/filters:brightness(20):sharpen(1.5,01,True)/photo.jpg",
            "300x200/filters:brightness(20):sharpen(1.500,1.00,1)/photo.jpg",
            "00300x00200/filters:brightness(20):sharpen(1.5,1,true)/photo.jpg",
            "300x200/filters:brightness(20):sharpen(001.5,001,true)/photo.jpg",
        ]

        /// thumbor's own patterns: `[-]?\d+` for integers (no `+`: thumbor skips a filter written with one),
        /// `[-]?(\d+\.?\d*|\d*\.?\d+)` for decimals, `[Tt]rue|[Ff]alse|1|0` for booleans. The thumbor grammar
        /// reads these ten alike (its sharpen's amount, radius and luminance flag each a value).
        @Test func thumborsGrammar() async throws {
            let fixture = try DialectServerTests.fixture()
            var paths: [String] = []
            for spelling in Self.thumborSpellings { paths.append(try DialectServerTests().thumbor(spelling)) }
            try await oneRender(fixture, paths)
        }
    }
}
