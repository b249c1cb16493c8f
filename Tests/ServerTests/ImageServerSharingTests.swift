import Foundation
import Imago
import Testing

@testable import ImagoServer

extension ServerIntegrationTests {
    /// Shared work and what operators see: coalescing counted at the origin, the result cache, metrics, access log.
    @Suite struct ImageServerSharingTests {
        @Test func identicalRequestsInFlightShareOneProcessing() async throws {
            let fixture = try ServerFixture()
            let path = fixture.path("w=30", origin: "slow/800/photo.jpg")
            let responses = try await RawHTTP.concurrently(8) { _ in try fixture.getBlocking(path) }
            #expect(responses.allSatisfy { $0.status == 200 })
            #expect(Set(responses.map(\.body)).count == 1)
            #expect(try await fixture.origin.count() == 1)
            let metrics = try await fixture.get("/metrics").text
            #expect(metrics.contains("imago_coalesced_requests_total 7"), "\(metrics)")
            #expect(metrics.contains("imago_decodes_total 1"))
        }

        @Test func differentOptionsOnOneSourceShareOneFetch() async throws {
            let fixture = try ServerFixture()
            let responses = try await RawHTTP.concurrently(4) { index in
                try fixture.getBlocking(fixture.path("w=\(10 * (index + 1))", origin: "slow/800/photo.jpg"))
            }
            #expect(responses.allSatisfy { $0.status == 200 })
            #expect(Set(responses.map(\.body)).count == 4)
            #expect(try await fixture.origin.count() == 1)
        }

        @Test func finishedResponsesComeFromTheResultCache() async throws {
            let fixture = try ServerFixture()
            let path = fixture.path("w=30", origin: "img/photo.jpg")
            let first = try await fixture.get(path)
            let second = try await fixture.get(path)
            #expect(first.body == second.body && first.header("ETag") == second.header("ETag"))
            #expect(try await fixture.origin.count() == 1)
            #expect(fixture.log.map(\.cache) == ["network", "result"])
            let bytes = try await fixture.get("/metrics").text.split(separator: "\n")
                .first { $0.hasPrefix("imago_result_cache_bytes ") }.flatMap { Int($0.split(separator: " ")[1]) }
            #expect((bytes ?? 0) >= first.body.count)
            // The cache is keyed by the canonical options: another spelling of the same request is a hit.
            let respelled = try await fixture.get(fixture.path("dpr=1,w=30,fit=contain", origin: "img/photo.jpg"))
            #expect(respelled.body == first.body)
            #expect(fixture.log.last { $0.path != "/metrics" }?.cache == "result")
        }

        /// Serve keeps no processed pixels, even when the configuration names a memory cache: without the result
        /// cache, the same request is rendered again from its source.
        @Test func withoutTheResultCacheEveryRequestIsRenderedAgain() async throws {
            let fixture = try ServerFixture(imageCache: true) { settings, _, _ in settings.resultCacheBytes = 0 }
            let path = fixture.path("w=30", origin: "img/photo.jpg")
            let first = try await fixture.get(path)
            let second = try await fixture.get(path)
            #expect(first.status == 200 && second.body == first.body)
            #expect(fixture.log.map(\.cache) == ["network", "network"])
            #expect(try await fixture.origin.count() == 2)
        }

        @Test func metricsSpeakThePrometheusTextFormat() async throws {
            let fixture = try ServerFixture()
            let slow = Task { try await fixture.get(fixture.path("w=10", origin: "slow/3000/photo.jpg")) }
            var during = try await fixture.get("/metrics")
            for _ in 0..<120 where !during.text.contains("imago_inflight_requests 1\n") {
                try await Task.sleep(for: .milliseconds(20))
                during = try await fixture.get("/metrics")
            }
            #expect(during.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
            #expect(during.text.contains("imago_inflight_requests 1\n"))
            #expect(try await slow.value.status == 200)
            _ = try await fixture.get(fixture.path("w=10", origin: "slow/3000/photo.jpg"))  // result-cache hit
            _ = try await fixture.get(fixture.path(origin: "img/missing.png"))
            let text = try await fixture.get("/metrics").text
            let metricsRequests = fixture.log.filter { $0.path == "/metrics" }.count - 1  // this one is not counted yet
            for line in [
                "# TYPE imago_requests_total counter", "imago_requests_total{status=\"200\"} \(2 + metricsRequests)",
                "imago_requests_total{status=\"404\"} 1", "# TYPE imago_request_duration_seconds histogram",
                "imago_request_duration_seconds_bucket{le=\"+Inf\"} \(3 + metricsRequests)",
                "imago_request_duration_seconds_count \(3 + metricsRequests)",
                "imago_source_fetches_total 2", "imago_inflight_requests 0",
                "imago_cache_hits_total{cache=\"result\"} 1",
                "imago_cache_hits_total{cache=\"memory\"} 0", "imago_cache_hits_total{cache=\"disk\"} 0",
            ] {
                #expect(text.contains(line + "\n"), "missing \(line) in\n\(text)")
            }
            // Every sample line is NAME{LABELS} VALUE with a numeric value; buckets never decrease.
            var previous = -1.0
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                let parts = line.split(separator: " ")
                #expect(parts.count == 2 && Double(parts[1]) != nil, "\(line)")
                if line.hasPrefix("imago_request_duration_seconds_bucket"), let value = Double(parts[1]) {
                    #expect(value >= previous)
                    previous = value
                }
            }
            let sum = text.split(separator: "\n").first { $0.hasPrefix("imago_request_duration_seconds_sum ") }
            #expect(sum.flatMap { Double($0.split(separator: " ")[1]) }.map { $0 >= 1.0 } == true)
        }

        @Test func writesOneAccessLogEntryPerRequest() async throws {
            let fixture = try ServerFixture()
            let path = fixture.path("w=25", origin: "img/photo.jpg")
            let image = try await fixture.get(path)
            _ = try await fixture.get(path, method: "HEAD")
            _ = try await fixture.get("/health")
            _ = try await fixture.get("/unsafe/w=0/x")
            let log = fixture.log
            #expect(log.map(\.method) == ["GET", "HEAD", "GET", "GET"])
            #expect(log.map(\.path) == [path, path, "/health", "/unsafe/w=0/x"])
            #expect(log.map(\.status) == [200, 200, 200, 400])
            #expect(log.map(\.bytes) == [image.body.count, 0, 2, log[3].bytes])
            #expect(log[3].bytes > 0)
            #expect(log.map(\.cache) == ["network", "result", "none", "none"])
            #expect(log.allSatisfy { $0.milliseconds >= 0 && abs($0.time.timeIntervalSinceNow) < 60 })
            let object = try JSONSerialization.jsonObject(with: Data(log[0].line.utf8)) as? [String: Any]
            #expect(Set(object?.keys.map { $0 } ?? []) == ["time", "method", "path", "status", "bytes", "ms", "cache"])
            #expect(object?["status"] as? Int == 200)
            #expect((object?["time"] as? String)?.hasSuffix("Z") == true)
        }

        @Test func accessLogLinesStayOneLineOfJSON() throws {
            let entry = AccessLogEntry(
                time: Date(timeIntervalSince1970: 1_700_000_000.25), method: "GET", path: "/a\"b\\c\n\r\u{0}\u{2028}é",
                status: 400, bytes: 12, milliseconds: 1.23456, cache: "none")
            let line = entry.jsonLine
            #expect(!line.contains("\n") && !line.contains("\r"))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["path"] as? String == "/a\"b\\c\n\r\u{0}\u{2028}é")
            #expect(object["time"] as? String == "2023-11-14T22:13:20.250Z")
            #expect(object["ms"] as? Double == 1.235)
        }
    }
}
