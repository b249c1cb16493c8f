import Foundation
import Imago

/// `GET /info/{signature}/{options}/{source}`: the image's facts and placeholders as JSON (`ImageInfo`), signed
/// and checked like an image path, computed on the decoded (and, with options, processed) image, never encoded.
extension ImageServer {
    func answerInfo(_ request: HTTPRequest) -> HTTPAnswer {
        do {
            var job = try imageJob(for: request, target: request.target.dropFirst("/info".count))
            job.key = "info|" + job.key
            if let hit = results.image(for: job.key) {
                metrics.recordResultHit()
                return .now(imageResponse(hit, to: request, varies: false, cache: "result"))
            }
            let frozen = job
            return .later { await self.renderInfo(frozen, for: request) }
        } catch {
            return .now(HTTPResponse(failure: ServeFailure(answering: error)))
        }
    }

    private func renderInfo(_ job: ImageJob, for request: HTTPRequest) async -> HTTPResponse {
        metrics.enter()
        defer { metrics.leave() }
        do {
            let (info, _) = try await inflight.value(for: job.key) { [self] in
                let rendered = try await gate.withSlot {
                    let processors = try await renderer.processors(for: job)
                    var decode = DecodeOptions()
                    if !job.options.strip { decode.colorProfiles = .keep }
                    let info = try await ImageInfo.load(
                        ImageRequest(url: job.url, decodeOptions: decode), processors: processors, loader: loader)
                    let body = Data(info.json.jsonText(pretty: false).utf8)
                    return RenderedImage(
                        body: body, contentType: "application/json", etag: RenderedImage.etag(for: body),
                        sourceOrigin: "network", lastModified: info.sourceLastModified)
                }
                results.store(rendered, for: job.key)
                return rendered
            }
            return imageResponse(info, to: request, varies: false, cache: info.sourceOrigin)
        } catch {
            let failure = ServeFailure(answering: error)
            if failure.status == 503 { metrics.recordShed() }
            return HTTPResponse(failure: failure)
        }
    }
}
