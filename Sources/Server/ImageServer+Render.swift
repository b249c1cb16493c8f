import Foundation
import Imago

/// Step 11 of the chain: a job rendered by the loader's one render path, and the responses.
extension ImageServer {
    /// What the render of `options` needs besides them: the loader's limits, the output side, the qualities of
    /// `serve.quality`, `serve.autoQuality`, the watermark, and how the user wrote each option.
    /// `images`: those the options name by URL (`ImageServer.images(for:)`).
    func renderSettings(
        for options: ProcessingOptions, spellings: [String: String],
        images: [String: ProcessingOptions.WatermarkImage] = [:]
    ) -> ProcessingOptions.RenderSettings {
        var render = ProcessingOptions.RenderSettings(
            limits: loader.settings.limits, maxOutputSide: settings.maxOutputSide,
            qualities: Dictionary(uniqueKeysWithValues: settings.quality.map { (ImageFormat($0.key), $0.value) }),
            defaultQuality: 85, watermark: trusted.watermark, spelling: { spellings[$0] ?? $0 })
        render.images = images
        render.faceDetector = faceDetector
        render.autoQuality = settings.autoQuality
        return render
    }

    /// The configuration's face detector (`detectors`), or nil.
    var faceDetector: (any ImageDetector)? { loader.registry.detector(finding: .face) }

    /// The identifier of the detector whose answer `options` depend on, for the result's key: nil when they need
    /// none (or none is configured); `/info` reports faces whenever a detector is configured.
    func detectorIdentifier(for options: ProcessingOptions, kind: RenderJob.Kind) -> String? {
        guard let detector = faceDetector, kind == .info || options.wantsFaces(smartFindsFaces: true) else {
            return nil
        }
        return detector.identifier
    }

    /// The render `job` asks for, of `url` (its source, or `sourceData` for the fallback image), with the images its
    /// options name (`images`).
    func renderRequest(
        _ job: RenderJob, sourceData: Data? = nil, deadline: ContinuousClock.Instant? = nil,
        images: [String: ProcessingOptions.WatermarkImage] = [:]
    ) throws -> RenderRequest {
        let format: RenderFormat
        if let known = job.known {
            format = .format(known.format)
        } else if let candidates = job.bestFormats {
            format = .best(among: candidates)
        } else if let named = job.format {
            format = .format(named)
        } else if job.autoQuality != nil {
            // q=auto keeps the source's format when it has a quality to search, else WebP (which keeps alpha).
            format = .source(among: ImageFormat.formatsWithQuality, otherwise: .webp)
        } else {
            format = .source(among: Self.ownFormats, otherwise: .jpeg)
        }
        var request = try job.options.renderRequest(
            url: job.url, format: format,
            settings: renderSettings(for: job.options, spellings: job.spellings, images: images))
        if let known = job.known, var auto = job.autoQuality {
            // The known quality, encoded once and measured, so the header still tells the output's DSSIM.
            (auto.minQuality, auto.maxQuality, auto.maxEncodes) = (known.quality ?? 1, known.quality ?? 1, 1)
            request.output.autoQuality = known.quality == nil ? nil : auto
        } else {
            request.output.autoQuality = job.autoQuality
        }
        request.output.deadline = deadline
        if job.kind == .info {
            let (searched, chosen) = (request.output.autoQuality, request.output.format)
            request.output = .decoded()
            // /info of q=auto or f=best reports the decision beside the image.
            if searched != nil || job.bestFormats != nil {
                (request.output.autoQuality, request.output.format, request.output.deadline) = (
                    searched, chosen, deadline
                )
            }
            // `/info` reports the faces a configured detector finds, whatever the options.
            if request.detection == nil, let detector = faceDetector {
                let processors = request.image.processors
                request.detection = RenderDetection(detector: detector) { _ in processors }
            }
        }
        request.sourceData = sourceData
        return request
    }

    /// The formats a source keeps when `f` is not given: those `f` can name.
    static let ownFormats = Set(OutputFormat.names.map { ImageFormat($0) })

    /// Renders `job`: the image encoded, or `/info`'s report as JSON.
    func render(_ job: RenderJob) async throws -> RenderedImage {
        if Self.dependsOnSourceFormat(job) { return try await renderFromSource(job) }
        return try await renderImage(job)
    }

    /// The loader's render of `job`, of its source or of `sourceData` (the source's bytes, already fetched).
    func renderImage(_ job: RenderJob, sourceData: Data? = nil) async throws -> RenderedImage {
        let result = try await loaderRender(job, sourceData: sourceData)
        metrics.recordRender()
        return try await rendered(result, kind: job.kind)
    }

    /// The fallback image processed with `job`'s options, served with `fallbackStatus` and a short max-age.
    func renderFallback(_ job: RenderJob) async throws -> RenderedImage {
        let result = try await loaderRender(job, sourceData: trusted.fallback)
        var image = try await rendered(result, kind: job.kind)
        image.status = settings.fallbackStatus
        image.maxAge = settings.fallbackMaxAge
        return image
    }

    /// The loader's render of `job` (of `sourceData` when given) with the images its options name; its encodes
    /// counted.
    private func loaderRender(_ job: RenderJob, sourceData: Data?) async throws -> RenderResult {
        let images = try await images(for: job)
        let result = try await loader.render(
            try renderRequest(job, sourceData: sourceData, deadline: job.deadline, images: images))
        metrics.recordEncodes(result.encodes)
        return result
    }

    /// A render's result as a response body.
    private func rendered(_ result: RenderResult, kind: RenderJob.Kind) async throws -> RenderedImage {
        let body: Data
        let contentType: String
        switch kind {
        case .image:
            (body, contentType) = (result.data, OutputFormat.contentType(of: result.format))
        case .info:
            // The placeholders are CPU-bound: on the compute threads, not the cooperative pool.
            let info = try await WorkExecutor.compute.run { try ImageInfo(rendered: result) }
            (body, contentType) = (Data(info.json.jsonText(pretty: false).utf8), "application/json")
        }
        var image = RenderedImage(
            body: body, contentType: contentType, etag: RenderedImage.etag(for: body),
            sourceOrigin: result.origin.rawValue, lastModified: result.sourceLastModified)
        image.quality = result.quality
        return image
    }

    /// 200 with the image (HEAD: the same head), or 304 when `If-None-Match` names its ETag or, without one,
    /// `If-Modified-Since` is not before the source's `Last-Modified`. The headers `job`'s options choose
    /// (`AnswerHeaders`) are computed here, for a cached result as for a new one.
    func response(_ image: RenderedImage, to request: HTTPRequest, for job: RenderJob, cache: String) -> HTTPResponse {
        var headers = [
            ("ETag", image.etag),
            (
                "Cache-Control",
                AnswerHeaders.cacheControl(image, options: job.options, serviceMaxAge: settings.cacheMaxAge)
            ),
        ]
        if let lastModified = image.lastModified { headers.append(("Last-Modified", lastModified)) }
        if job.varies { headers.append(("Vary", "Accept")) }
        if let skipped = AnswerHeaders.skippedFilters(job.skipped) {
            headers.append(("Imago-Skipped-Filters", skipped))
        }
        if let quality = image.quality, !quality.headerValue.isEmpty, image.contentType != "application/json" {
            headers.append(("Imago-Quality", quality.headerValue))
        }
        if image.status == 200, Self.notModified(image, request) {
            return HTTPResponse(status: 304, headers: headers, cache: cache)
        }
        headers.insert(("Content-Type", image.contentType), at: 0)
        if let disposition = AnswerHeaders.contentDisposition(
            for: job.options, source: job.url, contentType: image.contentType)
        {
            headers.append(("Content-Disposition", disposition))
        }
        return HTTPResponse(status: image.status, headers: headers, body: image.body, cache: cache)
    }

    /// `If-None-Match` when present (RFC 9110 §13.2.2), else `If-Modified-Since` against `Last-Modified`.
    static func notModified(_ image: RenderedImage, _ request: HTTPRequest) -> Bool {
        if let condition = request.ifNoneMatch { return matches(condition, etag: image.etag) }
        guard let since = request.ifModifiedSince.flatMap(HTTPDate.parse),
            let modified = image.lastModified.flatMap(HTTPDate.parse)
        else { return false }
        return modified <= since
    }

    /// `If-None-Match` (a list, `*`, weak tags compared weakly as RFC 9110 says) against `etag`.
    static func matches(_ condition: String, etag: String) -> Bool {
        condition.split(separator: ",").contains { item in
            var tag = item.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag
        }
    }
}
