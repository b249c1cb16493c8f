import Foundation
import ImagoCore

extension ImageDecoderContract {
    func refusesOverPixelLimit(_ decoder: any ImageDecoder) throws {
        for fixture in fixtures {
            let pixels = fixture.width * fixture.height
            var cases: [(String, DecodeLimits)] = []
            if pixels > 1 { cases.append(("maxPixels \(pixels - 1)", DecodeLimits(maxPixels: pixels - 1))) }
            if fixture.frameCount > 1 {
                cases.append(("maxFrames \(fixture.frameCount - 1)", DecodeLimits(maxFrames: fixture.frameCount - 1)))
                let total = pixels * fixture.frameCount - 1
                cases.append(("maxTotalPixels \(total)", DecodeLimits(maxTotalPixels: total)))
            }
            for (limit, limits) in cases {
                try expectError(
                    decoder, fixture.data, DecodeOptions(limits: limits), kinds: [.limitExceeded],
                    "fixture \"\(fixture.name)\" (\(Self.describe(fixture))) with \(limit)")
            }
        }
    }

    func refusesOverByteLimit(_ decoder: any ImageDecoder) throws {
        for fixture in fixtures where fixture.data.count > 1 {
            let limits = DecodeLimits(maxBytes: fixture.data.count - 1)
            try expectError(
                decoder, fixture.data, DecodeOptions(limits: limits), kinds: [.tooLarge, .limitExceeded],
                "fixture \"\(fixture.name)\" (\(fixture.data.count) bytes) with maxBytes \(fixture.data.count - 1)")
        }
    }

    func refusesHugeHeaders(_ decoder: any ImageDecoder) throws {
        for (index, data) in hugeHeaders.enumerated() {
            try expectError(
                decoder, data, .default, kinds: [.limitExceeded], "huge header #\(index) with the default limits")
        }
    }

    func honoursTargetSize(_ decoder: any ImageDecoder) throws {
        for fixture in fixtures {
            let (width, height) = (fixture.width, fixture.height)
            let targets: [(PixelSize, ContentMode)] = [
                (PixelSize(width: max(width / 2, 1), height: max(height / 2, 1)), .fit),
                (PixelSize(width: max(width / 3, 1), height: max(height / 5, 1)), .fill),
                (PixelSize(width: 1, height: 1), .fit),
                (PixelSize(width: width * 2, height: height * 2), .fit),
            ]
            for (target, mode) in targets {
                let what = "fixture \"\(fixture.name)\" (\(width)x\(height)) with target \(target) \(mode.rawValue)"
                let image = try decode(
                    decoder, fixture.data, DecodeOptions(targetSize: target, contentMode: mode), what)
                let scale = min(1, Self.scale(width: width, height: height, target: target, mode: mode))
                let needed = (Int((Double(width) * scale).rounded(.down)), Int((Double(height) * scale).rounded(.down)))
                try contractRequire(
                    image.width >= needed.0 && image.height >= needed.1,
                    "\(what): decoded \(Describe.size(image)), smaller than the \(needed.0)x\(needed.1) needed")
                try contractRequire(
                    image.width <= width && image.height <= height,
                    "\(what): decoded \(Describe.size(image)), larger than the full size")
                try contractRequire(
                    abs(image.width * height - image.height * width) <= width + height,
                    "\(what): decoded \(Describe.size(image)), which changes the aspect ratio")
                try contractRequire(
                    image.frames.count == fixture.frameCount,
                    "\(what): decoded \(image.frames.count) frames, expected \(fixture.frameCount)")
            }
        }
    }

    func honoursFirstFrameOnly(_ decoder: any ImageDecoder) throws {
        for fixture in fixtures {
            let what = "fixture \"\(fixture.name)\" with frames: .first"
            let image = try decode(decoder, fixture.data, DecodeOptions(frames: .first), what)
            try contractRequire(image.frames.count == 1, "\(what): decoded \(image.frames.count) frames, expected 1")
            try contractRequire(
                image.width == fixture.width && image.height == fixture.height,
                "\(what): decoded \(Describe.size(image)), expected \(fixture.width)x\(fixture.height)")
        }
    }

    func decodesConcurrently(_ decoder: any ImageDecoder) async throws {
        let fixtures = self.fixtures
        let expected = try await Blocking.run {
            try fixtures.map { try self.decode(decoder, $0.data, .default, "fixture \"\($0.name)\"") }
        }
        // Eight rounds of every fixture.
        let mismatches = await Blocking.concurrently(8 * fixtures.count) { job -> String? in
            let (round, index) = job.quotientAndRemainder(dividingBy: fixtures.count)
            let fixture = fixtures[index]
            do {
                let image = try decoder.decode(fixture.data, options: .default)
                return image == expected[index]
                    ? nil : "fixture \"\(fixture.name)\" decoded differently (round \(round))"
            } catch {
                return "fixture \"\(fixture.name)\" failed (round \(round)): \(Describe.error(error))"
            }
        }.compactMap { $0 }
        try contractRequire(
            mismatches.isEmpty,
            "concurrent decodes disagree with a lone decode: \(mismatches.prefix(3).joined(separator: "; "))")
    }

    private func expectError(
        _ decoder: any ImageDecoder, _ data: Data, _ options: DecodeOptions, kinds: [ImagoError.Kind], _ what: String
    ) throws {
        let names = kinds.map(\.name).joined(separator: " or ")
        do {
            let image = try decoder.decode(data, options: options)
            throw ContractFailure("\(what): decoded \(Describe.size(image)) instead of throwing \(names)")
        } catch let failure as ContractFailure {
            throw failure
        } catch let error as ImagoError where kinds.contains(error.kind) {
            return
        } catch {
            throw ContractFailure("\(what): threw \(Describe.error(error)), expected \(names)")
        }
    }

    private static func scale(width: Int, height: Int, target: PixelSize, mode: ContentMode) -> Double {
        let sx = Double(target.width) / Double(width)
        let sy = Double(target.height) / Double(height)
        return mode == .fit ? min(sx, sy) : max(sx, sy)
    }

    private static func describe(_ fixture: DecoderFixture) -> String {
        "\(fixture.width)x\(fixture.height)" + (fixture.frameCount > 1 ? "x\(fixture.frameCount) frames" : "")
    }
}
