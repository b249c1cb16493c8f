import Foundation
import Testing

@testable import ImagoRedis

@Suite struct RedisEndpointTests {
    @Test func parsesEveryPart() throws {
        let full = try RedisEndpoint(url: "redis://:s3cr%40t@cache.internal:6380/2")
        #expect(full == RedisEndpoint(host: "cache.internal", port: 6380, password: "s3cr@t", database: 2))
        #expect(full.description == "redis://:***@cache.internal:6380/2", "the password never shows")
        let user = try RedisEndpoint(url: "redis://imago:pw@127.0.0.1")
        #expect(user.user == "imago" && user.password == "pw" && user.port == 6379 && user.database == 0)
        #expect(try RedisEndpoint(url: "redis://localhost/").database == 0)
    }

    @Test func refusesWhatIsNotARedisURL() {
        for bad in [
            "http://127.0.0.1:6379", "redis://", "redis://host:0", "redis://host/x", "redis://host/-1",
            "redis://host/0?db=1", "rediss://host",
        ] {
            #expect(throws: ImagoError.self, "\(bad)") { try RedisEndpoint(url: bad) }
        }
    }
}
