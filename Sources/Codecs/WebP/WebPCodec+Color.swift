import CWebP
import CWebPDemux
import CWebPMux
import Foundation
import ImagoCore

extension WebPCodec {
    /// The ICCP chunk's profile, nil when the file has none.
    static func iccProfile(_ bytes: UnsafeRawBufferPointer) -> Data? {
        var webpData = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        guard let demuxer = WebPDemux(&webpData) else { return nil }
        defer { WebPDemuxDelete(demuxer) }
        return iccProfile(in: demuxer)
    }

    /// The embedded ICC profile of the file `demuxer` reads, if any.
    static func iccProfile(in demuxer: OpaquePointer) -> Data? {
        guard WebPDemuxGetI(demuxer, WEBP_FF_FORMAT_FLAGS) & ICCP_FLAG.rawValue != 0 else { return nil }
        var iterator = WebPChunkIterator()
        guard WebPDemuxGetChunk(demuxer, "ICCP", 1, &iterator) != 0 else { return nil }
        defer { WebPDemuxReleaseChunkIterator(&iterator) }
        guard iterator.chunk.size > 0, let start = iterator.chunk.bytes else { return nil }
        return Data(bytes: start, count: iterator.chunk.size)
    }

    /// `webp` with `profile` added as its ICCP chunk (libwebpmux writes the VP8X header that announces it).
    static func embedding(_ profile: Data, in webp: Data) throws -> Data {
        try webp.withUnsafeBytes { image in
            try profile.withUnsafeBytes { icc in
                var imageData = WebPData(
                    bytes: image.baseAddress?.assumingMemoryBound(to: UInt8.self), size: image.count)
                guard let mux = WebPMuxCreate(&imageData, 0) else {
                    throw WebPErrors.encoding("cannot reopen the encoded image to add its ICC profile")
                }
                defer { WebPMuxDelete(mux) }
                var chunk = WebPData(bytes: icc.baseAddress?.assumingMemoryBound(to: UInt8.self), size: icc.count)
                var assembled = WebPData()
                guard WebPMuxSetChunk(mux, "ICCP", &chunk, 0) == WEBP_MUX_OK,
                    WebPMuxAssemble(mux, &assembled) == WEBP_MUX_OK
                else { throw WebPErrors.encoding("cannot add the ICC profile") }
                defer { WebPDataClear(&assembled) }
                return Data(bytes: assembled.bytes, count: assembled.size)
            }
        }
    }
}
