import Foundation
import Imago
import ImagoTestSupport
import Testing

/// Three `imago serve` processes behind nginx, sharing leases, source bytes and results through one Redis
/// (Docs/Deployment.md): each variant is rendered once and each original fetched once by the whole fleet, and a
/// process killed or Redis lost during the load costs the clients nothing.
@Suite(.serialized) struct FleetTests {
    /// Every answer is a 200 with the right image; the problems found otherwise.
    func problems(_ answers: [LoadAnswer], _ variants: [FleetRig.Variant], rig: FleetRig) -> [String] {
        zip(answers, variants).compactMap { answer, variant in
            guard answer.status == 200 else {
                return
                    "\(variant.path): status \(answer.status) \(answer.error ?? String(decoding: answer.body, as: UTF8.self))"
            }
            return rig.problem(with: answer.body, for: variant).map { "\(variant.path): \($0)" }
        }
    }

    @Test func eachVariantIsRenderedOnceAndEachOriginalFetchedOnce() async throws {
        let rig = try FleetRig()
        let variants = rig.variants.shuffled()
        #expect(variants.count == 300)
        let first = await LoadRunner.run(port: rig.nginx.port, paths: variants.map(\.path))
        #expect(problems(first, variants, rig: rig) == [], "nginx: \(rig.nginx.errorLog)")
        #expect(try rig.total("imago_renders_total") == 300)
        #expect(try rig.total("imago_source_fetches_total") == 30)
        for original in rig.originals {
            #expect(try await rig.fetches(original) == 1, "\(original.name)")
        }
        let again = variants.shuffled()
        let second = await LoadRunner.run(port: rig.nginx.port, paths: again.map(\.path))
        #expect(problems(second, again, rig: rig) == [])
        #expect(try rig.total("imago_renders_total") == 300, "the second pass renders nothing")
        let rendered = rig.serverP95(caches: ["network", "dataCache", "memory"])
        let fromStore = rig.serverP95(caches: ["store"])
        let fromMemory = rig.serverP95(caches: ["result"])
        print(
            "fleet figures: renders per variant \(try rig.total("imago_renders_total") / 300),"
                + " origin fetches per original \(try rig.total("imago_source_fetches_total") / 30);"
                + " server p95: render \(rendered.milliseconds) ms (\(rendered.count)),"
                + " fleet hit \(fromStore.milliseconds) ms (\(fromStore.count)),"
                + " memory hit \(fromMemory.milliseconds) ms (\(fromMemory.count));"
                + " client p95 through nginx: first pass \(LoadRunner.p95(first.map(\.seconds))) ms,"
                + " second pass \(LoadRunner.p95(second.map(\.seconds))) ms")
    }

    @Test func originalsInS3AndResultsInS3AreFetchedAndRenderedOnce() async throws {
        let rig = try FleetRig(originals: 6, store: .s3)
        let moto = try #require(rig.moto)
        let variants = rig.variants.shuffled()
        let first = await LoadRunner.run(port: rig.nginx.port, paths: variants.map(\.path))
        #expect(problems(first, variants, rig: rig) == [])
        #expect(try rig.total("imago_renders_total") == 60)
        for original in rig.originals { #expect(try await rig.fetches(original) == 1, "\(original.name)") }
        let results = try moto.requests().filter { $0.key.hasPrefix("PUT /\(FleetRig.bucket)/results/") }
        #expect(results.values.reduce(0, +) == 60, "one result object per variant")
        let again = variants.shuffled()
        let second = await LoadRunner.run(port: rig.nginx.port, paths: again.map(\.path))
        #expect(problems(second, again, rig: rig) == [])
        #expect(try rig.total("imago_renders_total") == 60, "the second pass renders nothing")
        #expect(try rig.total("imago_cache_hits_total{cache=\"store\"}") > 0)
        let revalidations = try moto.responses().filter { $0.key.hasPrefix("GET 304 /\(FleetRig.bucket)/originals/") }
        print(
            "fleet figures (S3): GETs answered with an original per original"
                + " \(try await rig.fetches(rig.originals[0])), revalidations (304) in all \(revalidations.values.reduce(0, +))"
                + " for 6 originals, results written to S3 \(results.values.reduce(0, +)) for 60 variants")
    }

    @Test func theSameURLAtEveryProcessAtOnceIsRenderedOnce() async throws {
        let rig = try FleetRig(originals: 1)
        let variant = rig.variants[3]
        async let a = LoadRunner.run(port: rig.serves[0].port, paths: Array(repeating: variant.path, count: 8))
        async let b = LoadRunner.run(port: rig.serves[1].port, paths: Array(repeating: variant.path, count: 8))
        async let c = LoadRunner.run(port: rig.serves[2].port, paths: Array(repeating: variant.path, count: 8))
        let answers = await a + b + c
        #expect(problems(answers, Array(repeating: variant, count: 24), rig: rig) == [])
        #expect(try rig.total("imago_renders_total") == 1)
        #expect(try await rig.fetches(variant.original) == 1)
        // A missing original is each process's 404, fetched under the same lease, never a 5xx.
        let missing = variant.path.replacingOccurrences(of: "original%2D0", with: "missing")
        for serve in rig.serves { #expect(try serve.get(missing).status == 404) }
        #expect(await LoadRunner.run(port: rig.nginx.port, paths: [missing]).map(\.status) == [404])
        // An origin that is down is each process's 502 (not retried by nginx: another process would only repeat it).
        let source = (rig.deadOrigin + "a.png").addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let down = "/unsafe/w=16,f=png/plain/\(source)"
        for serve in rig.serves { #expect(try serve.get(down).status == 502) }
        #expect(await LoadRunner.run(port: rig.nginx.port, paths: [down]).map(\.status) == [502])
    }

    @Test func aProcessKilledDuringTheLoadCostsNoClientError() async throws {
        let rig = try FleetRig()
        let variants = rig.variants.shuffled()
        let answers = await LoadRunner.run(port: rig.nginx.port, paths: variants.map(\.path)) { done in
            if done == 60 { rig.kill(serve: 1) }
        }
        #expect(!rig.serves[1].process.isRunning)
        let found = problems(answers, variants, rig: rig)
        #expect(found == [])
        let retried = rig.nginx.errorLog.split(separator: "\n").filter { $0.contains("upstream") }.count
        print(
            "fleet figures: client errors through nginx while one of three processes was killed: \(found.count);"
                + " upstream failures nginx logged and retried: \(retried);"
                + " renders \(try rig.total("imago_renders_total")) for 300 variants (the two left)")
    }

    @Test func aRedisOutageDuringTheLoadCostsNo5xxAndSharingResumes() async throws {
        let rig = try FleetRig()
        let variants = rig.variants.shuffled()
        // Redis stops during one load and starts again (same port, empty) during the next.
        let down = await LoadRunner.run(port: rig.nginx.port, paths: variants.map(\.path)) { done in
            if done == 60 { rig.redis.kill() }
        }
        let whileDown = try Self.rendersForOneVariantAtEveryProcess(rig, width: 20)
        #expect(whileDown == 3, "without Redis every process renders")
        let errors = try rig.total("imago_shared_store_errors_total{store=\"lease\",op=\"acquire\"}")
        #expect(errors > 0, "the outage is counted")
        let again = variants.shuffled()
        let back = await LoadRunner.run(port: rig.nginx.port, paths: again.map(\.path)) { done in
            if done == 60 { try? rig.redis.start() }
        }
        let found = problems(down, variants, rig: rig) + problems(back, again, rig: rig)
        #expect(found == [])
        // Once each process asks Redis again (after its retryInterval), a variant is rendered once per fleet again.
        var shared = false
        for width in 21..<61 where !shared {
            shared = try Self.rendersForOneVariantAtEveryProcess(rig, width: width) == 1
        }
        #expect(shared, "sharing resumed after Redis came back")
        print(
            "fleet figures: client errors during the Redis outage \(found.count), renders of one variant asked of"
                + " each process while Redis was down \(whileDown), lease errors counted \(errors)")
    }

    /// Asks each process in turn for one new variant; the renders it cost the fleet.
    static func rendersForOneVariantAtEveryProcess(_ rig: FleetRig, width: Int) throws -> Int {
        let source = rig.sourceURL(rig.originals[0]).addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let path = "/unsafe/w=\(width),f=png/plain/\(source)"
        let before = try rig.total("imago_renders_total")
        for serve in rig.serves {
            let answer = try serve.get(path)
            guard answer.status == 200 else { throw TestFailure("\(path): \(answer.status)") }
        }
        return Int(try rig.total("imago_renders_total") - before)
    }
}
