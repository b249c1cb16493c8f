import Foundation
import Imago
import ImagoContracts
import ImagoVideo
import Testing

/// The video decoder over FFmpeg, on clips made by Debian's `ffmpeg`.
@Suite(.serialized) struct VideoCodecTests {
    let codec = VideoCodec()

    /// The mean luma of a raster (BT.601 weights).
    static func meanLuma(_ raster: Raster) -> Double {
        let pixels = raster.pixels
        var sum = 0.0
        for index in stride(from: 0, to: pixels.count, by: 4) {
            sum += 0.299 * Double(pixels[index]) + 0.587 * Double(pixels[index + 1]) + 0.114 * Double(pixels[index + 2])
        }
        return sum / Double(pixels.count / 4)
    }

    @Test func sniffsVideosAndNoImages() throws {
        #expect(codec.canDecode(try VideoClips.testPattern().prefix(32)))
        #expect(codec.canDecode(try VideoClips.webm().prefix(32)))
        for sample in SniffSample.builtIn {
            #expect(!codec.canDecode(sample.header), "\(sample.format)")
        }
    }

    @Test func reportsTheContainersFacts() throws {
        let info = try codec.videoInfo(try VideoClips.testPattern())
        #expect(info.container.contains("mp4") && info.codec == "h264")
        #expect(info.width == 160 && info.height == 120 && info.rotation == 0)
        #expect(abs(info.duration - 3) < 0.15 && abs(info.frameRate - 10) < 0.01 && info.frameCount == 30)
        let webm = try codec.videoInfo(try VideoClips.webm())
        #expect(webm.container.contains("webm") && webm.codec == "vp9" && webm.width == 160)
        let animation = try codec.animationInfo(try VideoClips.testPattern(), limits: .default)
        #expect(animation.frameCount == 30 && animation.canvasSize == PixelSize(width: 160, height: 120))
    }

    @Test func thePosterAtATimeIsThatFrame() throws {
        let data = try VideoClips.testPattern()
        var options = DecodeOptions()
        options.timeline.posterTime = 2
        let image = try codec.decode(data, options: options)
        #expect(image.frames.count == 1 && image.width == 160 && image.height == 120 && image.format == .video)
        let reference = try VideoClips.referenceFrame("pattern.mp4", at: 2, width: 160, height: 120)
        let pixels = image.raster.pixels
        var total = 0
        for index in pixels.indices where index % 4 != 3 { total += abs(Int(pixels[index]) - Int(reference[index])) }
        let mean = Double(total) / Double(pixels.count * 3 / 4)
        // Another scaler's rounding, not another frame (the pattern's counter and moving stripe differ a lot).
        #expect(mean < 4, "mean channel difference \(mean)")
        var other = options
        other.timeline.posterTime = 0.5
        let early = try codec.decode(data, options: other)
        #expect(early.raster != image.raster)
    }

    @Test func aKeyframePosterIsTheKeyframeBeforeTheTime() throws {
        // The pattern's only keyframe is its first frame (x264's keyframe interval is 250 frames).
        let data = try VideoClips.testPattern()
        var keyframe = DecodeOptions()
        keyframe.timeline.posterTime = 2
        keyframe.timeline.posterAtKeyframe = true
        var first = DecodeOptions()
        first.timeline.posterTime = 0
        #expect(try codec.decode(data, options: keyframe).raster == (try codec.decode(data, options: first).raster))
        #expect(keyframe.cacheKeyComponent.contains("timeline=t=2.0;keyframe"))
    }

    @Test func theDefaultPosterSkipsABlackLeadIn() throws {
        let data = try VideoClips.blackLeadIn()
        let poster = try codec.decode(data, options: DecodeOptions(frames: .first))
        #expect(Self.meanLuma(poster.raster) > 40)
        var first = DecodeOptions()
        first.timeline.posterTime = 0
        #expect(Self.meanLuma(try codec.decode(data, options: first).raster) < 20)
    }

    @Test func aRotationIsTheOrientationTheLoaderApplies() async throws {
        // `rotate=90` written by FFmpeg 5.1's muxer is a display matrix its own player turns 90° anticlockwise.
        let data = try VideoClips.rotated()
        let image = try codec.decode(data)
        #expect(image.orientation == .left && image.width == 160 && image.height == 120)
        #expect(try codec.videoInfo(data).rotation == 270)
        var builder = PluginRegistry.Builder()
        builder.add(codec)
        builder.add(FileTransport())
        let loader = ImageLoader(registry: builder.build())
        var request = ImageRequest(url: VideoClips.folder.appendingPathComponent("rotated.mp4"))
        request.decodeOptions.timeline.posterTime = 0
        let upright = try await loader.image(for: request).image
        #expect(upright.width == 120 && upright.height == 160)
        // The same pixels as FFmpeg's own player shows (it turns the frame by the matrix).
        let reference = try VideoClips.referenceFrame("rotated.mp4", at: 0, width: 120, height: 160)
        let pixels = try upright.raster.oriented(upright.orientation).pixels
        var total = 0
        for index in pixels.indices where index % 4 != 3 { total += abs(Int(pixels[index]) - Int(reference[index])) }
        #expect(Double(total) / Double(pixels.count * 3 / 4) < 4)
    }

    @Test func aTargetSizeScalesInFFmpeg() throws {
        let image = try codec.decode(
            try VideoClips.testPattern(), options: DecodeOptions(targetSize: PixelSize(width: 40, height: 40)))
        #expect(image.width == 40 && image.height == 30)
    }

    @Test func framesAreSampledAsAsked() throws {
        let data = try VideoClips.testPattern()
        var options = DecodeOptions(targetSize: PixelSize(width: 80, height: 60))
        options.timeline.maxFrameRate = 5
        options.timeline.maxFrames = 6
        let image = try codec.decode(data, options: options)
        #expect(image.frames.count == 6)
        #expect(image.durations.allSatisfy { abs($0 - 0.2) < 1e-9 })
        #expect(image.frames.allSatisfy { $0.raster.width == 80 && $0.raster.height == 60 })
        #expect(Set(image.frames.map(\.raster.pixels)).count == 6)
        let source = try codec.makeFrameSource(data, options: options)
        var count = 0
        while let frame = try source.nextFrame() {
            #expect(frame.raster == image.frames[count].raster)
            count += 1
        }
        #expect(count == 6)
        try source.rewind()
        #expect(try source.nextFrame()?.raster == image.frames[0].raster)
        var span = DecodeOptions()
        span.timeline.start = 1
        span.timeline.duration = 1
        #expect(try codec.decode(data, options: span).frames.count == 10)
    }

    @Test func limitsAreCheckedFromTheHeader() throws {
        let data = try VideoClips.testPattern()
        func kind(_ body: () throws -> Void) -> ImagoError.Kind? {
            do { try body() } catch let error as ImagoError { return error.kind } catch { return nil }
            return nil
        }
        #expect(
            kind { _ = try codec.decode(data, options: DecodeOptions(limits: DecodeLimits(maxPixels: 160 * 120 - 1))) }
                == .limitExceeded)
        #expect(kind { _ = try VideoCodec(maxDuration: 1).decode(data) } == .limitExceeded)
        #expect(
            kind { _ = try codec.decode(data, options: DecodeOptions(limits: DecodeLimits(maxBytes: data.count - 1))) }
                == .tooLarge)
        // A sample entry claiming 65535x65535 (4.3 gigapixels) is refused before anything is decoded.
        let hostile = VideoClips.claimingHugeSize(data)
        #expect(kind { _ = try codec.decode(hostile) } == .limitExceeded)
        #expect(kind { _ = try codec.videoInfo(hostile) } == .limitExceeded)
    }

    @Test func truncatedAndDamagedClipsFailWithAnError() throws {
        let data = try VideoClips.testPattern()
        for cut in [0, 16, 100, data.count / 2, data.count - 10] {
            do {
                let image = try codec.decode(data.prefix(cut))
                #expect(image.width == 160, "a clip cut at \(cut) gave \(image.width)")
            } catch let error as ImagoError {
                #expect(error.kind == .decodingFailed(format: .video), "cut at \(cut): \(error)")
            }
        }
        let moovLast = try VideoClips.clip(
            "moov-last.mp4",
            ["-f", "lavfi", "-i", "testsrc=size=160x120:rate=10:duration=1", "-c:v", "libx264", "-preset", "ultrafast"])
        #expect(throws: ImagoError.self) { try codec.decode(moovLast.prefix(moovLast.count / 2)) }
    }

    @Test func keepsTheDecoderContract() async throws {
        let data = try VideoClips.testPattern()
        let fixture = DecoderFixture(name: "pattern.mp4", data: data, width: 160, height: 120, pixels: .sizeOnly)
        let report = await ImageDecoderContract(
            makeDecoder: { VideoCodec() }, fixtures: [fixture],
            hugeHeaders: [VideoClips.claimingHugeSize(data)], allowsPartialImages: true
        ).run()
        #expect(report.passed, "\(report)")
    }

    @Test func theFactoryNamesItAndFFmpegLoads() throws {
        #expect(throws: Never.self) { try VideoCodec.availability.get() }
        let json = try JSONValue.parse(
            Data(#"{"codecs": ["png", {"name": "video", "settings": {"maxDuration": 60}}]}"#.utf8))
        let registry = try PluginRegistry.standardFactories().configured(by: try ImagoConfiguration(json: json))
        #expect(registry.decoder(for: try VideoClips.testPattern())?.format == .video)
    }
}
