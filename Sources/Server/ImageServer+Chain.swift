import Foundation
import Imago

/// The handler chain every request goes through, top to bottom, over one `RequestContext`:
///
/// ```
/// answer(request)                              on a libmicrohttpd thread, nothing awaited
///   1 limits         GET or HEAD (405), a target within maxTargetBytes (414)
///   2 routing        /health · /metrics · /info/… · images: /info and images are peers from here on
///   3 grammar        the dialect of the path prefix reads the source and the options into the one model,
///                    checks its signature (403) and expiry, and the options together (400)
///   4 source policy  the source normalised and checked against allowedSources and private addresses (403)
///   5 job            the format negotiated (f=auto and Accept), the one result key
///   6 memory tier    the result cache: a hit is answered at once
/// later (the connection suspended), within serve.requestTimeout (503 still waiting, 504 once begun):
///   7 coalescing     identical requests in this process share one render
///   8 store tier     the fleet's result store (serve.resultStore)
///   9 fleet lease    one process of the fleet renders a key, the others wait and read the store
///  10 admission      a processing slot (maxConcurrentRequests), or a place in line (maxQueuedRequests, else 503)
///  11 render         loader.render: fetch, plan, stream or decode-process-encode (the fallback image for a
///                    source that failed with 404, 415, 502 or 504)
/// ```
///
/// Errors are typed all the way (`OptionError`, `RequestError`, `ImagoError`); `ServeFailure(answering:)` at the
/// end of the chain chooses the status.
extension ImageServer {
    func answer(_ request: HTTPRequest) -> HTTPAnswer {
        let context = RequestContext(request, timeout: settings.requestTimeout)
        do {
            // 1 limits
            guard request.method == "GET" || request.method == "HEAD" else {
                var response = HTTPResponse(
                    failure: ServeFailure(answering: RequestError(.methodNotAllowed, "only GET and HEAD are served")))
                response.headers.append(("Allow", "GET, HEAD"))
                return .now(response)
            }
            guard request.target.utf8.count <= Self.maxTargetBytes else {
                throw RequestError(.targetTooLong, "the path is over \(Self.maxTargetBytes) bytes")
            }
            // 2 routing
            let kind: RenderJob.Kind
            var target = Substring(request.target)
            switch request.path {
            case "/health":
                guard !isDraining else { throw RequestError(.shuttingDown, "shutting down") }
                return .now(.text("ok"))
            case "/metrics":
                let text = metrics.text(loader: loader.statistics, resultCacheBytes: results.bytes, fleet: fleet)
                return .now(.text(text, contentType: "text/plain; version=0.0.4; charset=utf-8"))
            case let path where path.hasPrefix("/info/"):
                kind = .info
                target = target.dropFirst("/info".count)
            default:
                kind = .image
            }
            // 3 grammar, 4 source policy, 5 job
            let job = try self.job(kind, target: target, for: request)
            // 6 memory tier
            if let hit = results.image(for: job.key.text) {
                metrics.recordResultHit()
                return .now(response(hit, to: request, for: job, cache: "result"))
            }
            return .later { await self.respond(to: job, context) }
        } catch {
            return .now(HTTPResponse(failure: ServeFailure(answering: error)))
        }
    }

    /// Steps 3 to 5: what the request asks for, checked.
    func job(_ kind: RenderJob.Kind, target: Substring, for request: HTTPRequest) throws -> RenderJob {
        let (dialect, rest) = try dialects.route(target)
        // The same limits, presets and only-presets mode whatever the grammar: a dialect is no way around them.
        var context = ProcessingOptions.Context(
            maxOutputSide: settings.maxOutputSide, presets: presets, onlyPresets: settings.onlyPresets)
        // What a URL's own limits (msr, msfs, maf, mafr) may only tighten.
        context.sourceLimits = loader.settings.limits
        let requested = try dialect.request(for: rest, time: request.time, context: context)
        var options = requested.options
        // What the policy allows is the normalised source: it is what is fetched, and what the result is keyed by.
        let url = try policy.check(ImagePath.sourceURL(requested.source))
        // So are the images the options name (a watermark's, a frame's): checked as sources, keyed normalised.
        try options.mapImageSources { try policy.check(ImagePath.sourceURL($0)).absoluteString }
        var format: ImageFormat?
        var bestFormats: [ImageFormat]?
        switch options.format {
        case .format(let named): format = named
        case .auto: format = ContentNegotiation.format(accept: request.accept, preferred: settings.autoFormats)
        case .best: bestFormats = settings.bestFormats(accept: request.accept)
        case nil: format = nil
        }
        let renderSettings = renderSettings(for: options, spellings: [:])
        let encoding = options.encodeOptions(for: format, settings: renderSettings)
        // q=auto's parts over serve.autoQuality, checked now: a bad target or range is a 400 before any work.
        let autoQuality = try options.autoQuality(
            settings: renderSettings, format: bestFormats.map { .best(among: $0) } ?? .format(format ?? .jpeg))
        let key = ResultKey(
            kind, options: options, encoding: encoding, format: format, source: url,
            detector: detectorIdentifier(for: options, kind: kind),
            choice: ResultKey.choice(autoQuality: autoQuality, bestFormats: bestFormats))
        return RenderJob(
            kind: kind, url: url, options: options, spellings: requested.spellings, skipped: requested.skipped,
            format: format, varies: options.format == .auto || options.format == .best, bestFormats: bestFormats,
            autoQuality: autoQuality, key: key)
    }

    /// Steps 7 to 11, within the request's deadline; the answer, or the failure's.
    private func respond(to job: RenderJob, _ context: RequestContext) async -> HTTPResponse {
        var timed = job
        timed.deadline = context.deadline
        let job = timed
        metrics.enter()
        defer { metrics.leave() }
        do {
            let (image, joined) = try await Deadline.run(
                by: context.deadline,
                error: { context.timeout(began: self.rendering.withLock { $0.contains(job.key) }) }
            ) {
                // 7 coalescing
                try await self.renders.value(for: job.key) {
                    try await self.produce(job)
                }
            }
            if joined { metrics.recordCoalesced() }
            return response(image, to: context.request, for: job, cache: image.sourceOrigin)
        } catch {
            if (error as? RequestError)?.kind == .overloaded { metrics.recordShed() }
            return HTTPResponse(failure: ServeFailure(answering: error))
        }
    }

    /// Steps 8 to 11 for `job`, once per process: from the fleet's result store when another process rendered it,
    /// else under the render lease (the holder renders and stores; the others wait and read the store). Without a
    /// result store (or a coordinator) this process renders, as a single server does.
    private func produce(_ job: RenderJob) async throws -> RenderedImage {
        guard let resultStore else {
            let image = try await admitted(job)
            keep(image, for: job)
            return image
        }
        let stored = { @Sendable [metrics, results] () async -> RenderedImage? in
            guard let image = await resultStore.image(for: job.key.text) else { return nil }
            metrics.recordStoreHit()
            results.store(image, for: job.key.text)
            return image
        }
        // 8 store tier
        if let image = await stored() { return image }
        // 9 fleet lease
        return try await fleet.once(job.key.leaseName, lookup: stored) { [self] in
            // A decision the fleet made before (the result itself expired or was evicted): one encode, no search.
            var job = job
            if job.kind == .image, job.autoQuality != nil || job.bestFormats != nil {
                job.known = await resultStore.decision(for: job.key.text)
            }
            let image = try await admitted(job)
            if keep(image, for: job) {
                let expires = Date().addingTimeInterval(Double(settings.cacheMaxAge))
                await resultStore.store(image, for: job.key.text, expires: expires)
                // The decision outlives the result: a search that ran to its end, for a later render of the key.
                if job.known == nil, let decision = image.quality, !decision.stoppedEarly, image.status == 200 {
                    await resultStore.store(decision, for: job.key.text)
                }
            }
            return image
        }
    }

    /// Keeps the source's own rendering in the result cache (a fallback image is not kept, nor the source's own
    /// bytes answered for `raw` or `skp`: the loader's data cache holds those already); whether it did.
    @discardableResult
    private func keep(_ image: RenderedImage, for job: RenderJob) -> Bool {
        guard image.maxAge == nil, !image.isSource else { return false }
        results.store(image, for: job.key.text)
        return true
    }

    /// Steps 10 and 11: a processing slot, then the render (or the fallback image).
    private func admitted(_ job: RenderJob) async throws -> RenderedImage {
        try await gate.withSlot {
            rendering.withLock { _ = $0.insert(job.key) }
            defer { rendering.withLock { _ = $0.remove(job.key) } }
            do {
                return try await render(job)
            } catch {
                // A fallback replaces a source that failed; it is not kept in the result cache.
                let failure = ServeFailure(answering: error)
                guard trusted.fallback != nil, ServeSettings.fallbackStatuses.contains(failure.status) else {
                    throw error
                }
                return try await renderFallback(job)
            }
        }
    }
}
