import Foundation
import ImagoContracts
import ImagoCore
import Testing

/// The contracts can fail: each deliberately broken plugin fails exactly the checks of the promise it breaks.
@Suite struct BrokenPluginTests {
    typealias Decoder = ImageDecoderContract.Check
    typealias Encoder = ImageEncoderContract.Check
    typealias Transport = ImageTransportContract.Check
    typealias ImageCacheCheck = ImageCacheContract.Check
    typealias Processor = ImageProcessorContract.Check

    static func decoderReport(_ decoder: any ImageDecoder) async -> ContractReport {
        await ImageDecoderContract(
            makeDecoder: { decoder }, fixtures: PAMFixtures.all, sniffSamples: PAMFixtures.foreignHeaders,
            hugeHeaders: PAMFixtures.hugeHeaders
        ).run()
    }

    @Test func decoderClaimingEveryFormatFailsTheSniffingCheck() async {
        let report = await Self.decoderReport(BrokenCodecs.ClaimsEverything())
        #expect(report.failedCheckNames == [Decoder.claimsNoOtherFormat.rawValue], "\(report)")
        #expect(report.failures.first?.reason?.contains("\"png\"") == true, "\(report)")
    }

    @Test func decoderReturningTheWrongSizeFailsTheSizeChecks() async {
        let report = await Self.decoderReport(BrokenCodecs.WrongSize())
        let expected = [Decoder.decodesSamples, .honoursTargetSize, .honoursFirstFrameOnly].map(\.rawValue)
        #expect(report.failedCheckNames == Set(expected), "\(report)")
        #expect(report.description.contains("decoded 4x2, expected 3x2"), "\(report)")
    }

    @Test func decoderIgnoringLimitsFailsTheLimitChecks() async {
        let report = await Self.decoderReport(BrokenCodecs.IgnoresLimits())
        let expected = [Decoder.refusesOverPixelLimit, .refusesOverByteLimit, .refusesHugeHeaders].map(\.rawValue)
        #expect(report.failedCheckNames == Set(expected), "\(report)")
    }

    @Test func decoderThrowingForeignErrorsFailsTheBadInputChecks() async {
        let report = await Self.decoderReport(BrokenCodecs.ForeignErrors())
        let expected = [
            Decoder.refusesTruncated, .refusesCorrupt, .refusesOverPixelLimit, .refusesOverByteLimit,
            .refusesHugeHeaders,
        ].map(\.rawValue)
        #expect(report.failedCheckNames == Set(expected), "\(report)")
        #expect(report.description.contains("not an ImagoError"), "\(report)")
    }

    @Test func encoderThatDoesNotRoundTripFailsThePixelChecks() async {
        let report = await ImageEncoderContract(makeEncoder: { BrokenCodecs.FlipsRows() }, makeDecoder: { PAMCodec() })
            .run()
        let expected = [Encoder.roundTrips, .keepsAlpha, .honoursLossless].map(\.rawValue)
        #expect(report.failedCheckNames == Set(expected), "\(report)")
    }

    @Test func encoderIgnoringQualityFailsTheQualityCheck() async {
        let contract = ImageEncoderContract(
            makeEncoder: { PAMCodec() }, makeDecoder: { PAMCodec() }, qualityChangesOutput: true)
        let report = await contract.run()
        #expect(report.failedCheckNames == [Encoder.honoursQuality.rawValue], "\(report)")
    }

    static func transportReport(
        _ transport: any ImageTransport, store: MemoryTransport, cancellationDeadline: Double = 10
    ) async -> ContractReport {
        await ImageTransportContract(
            transport: transport, serve: { store.put($0) }, missingSource: URL(string: "mem://store/missing")!,
            cancellationPayloadSize: 16 << 20, cancellationDeadline: cancellationDeadline
        ).run()
    }

    @Test func transportSendingBytesBeforeTheResponseFailsTheOrderingChecks() async {
        let store = MemoryTransport()
        let report = await Self.transportReport(BrokenTransports.BytesBeforeResponse(store: store), store: store)
        #expect(
            report.failedCheckNames == Set([Transport.sendsResponseFirst, .reportsProgress].map(\.rawValue)),
            "\(report)")
    }

    @Test func transportIgnoringCancellationFailsTheCancellationCheck() async {
        let store = MemoryTransport()
        // The rest of the 16 MB body would take 16 s to arrive; a cancelled fetch must not wait for it.
        let report = await Self.transportReport(
            BrokenTransports.IgnoresCancellation(store: store), store: store, cancellationDeadline: 5)
        #expect(report.failedCheckNames == [Transport.stopsWhenCancelled.rawValue], "\(report)")
        #expect(report.description.contains("still going"), "\(report)")
    }

    @Test func transportWhoseProducerRunsOnFailsTheCancellationCheckWhenWatched() async {
        let store = MemoryTransport()
        let transport = BrokenTransports.KeepsProducing(store: store)
        let watched = await ImageTransportContract(
            transport: transport, serve: { store.put($0) }, missingSource: URL(string: "mem://store/missing")!,
            producedBytes: { transport.producedBytes($0) }
        ).run()
        #expect(watched.failedCheckNames == [Transport.stopsWhenCancelled.rawValue], "\(watched)")
        #expect(watched.description.contains("kept producing after the consumer left"), "\(watched)")
    }

    @Test func transportWithAnonymousErrorsFailsTheErrorChecks() async {
        let store = MemoryTransport()
        let report = await Self.transportReport(BrokenTransports.AnonymousErrors(store: store), store: store)
        let expected = [Transport.refusesOtherSchemes, .failsForMissingSource].map(\.rawValue)
        #expect(report.failedCheckNames == Set(expected), "\(report)")
    }

    @Test func cacheThatNeverEvictsFailsTheLimitChecks() async {
        let contract = ImageCacheContract(makeCache: { DictionaryImageCache(countLimit: 10_000) }, countLimit: 8)
        let report = await contract.run()
        #expect(
            report.failedCheckNames == Set([ImageCacheCheck.holdsCountLimit, .evictsInOrder].map(\.rawValue)),
            "\(report)")
    }

    @Test func cacheThatForgetsFailsTheEvictionCheck() async {
        let report = await ImageCacheContract(makeCache: { BrokenCaches.Forgetful() }, countLimit: 8).run()
        #expect(report.failedCheckNames == [ImageCacheCheck.evictsInOrder.rawValue], "\(report)")
        #expect(report.description.contains("before reaching its limits"), "\(report)")
    }

    @Test func cacheEvictingInTheWrongOrderFailsTheEvictionCheck() async {
        let lru = await ImageCacheContract(makeCache: { BrokenCaches.FirstInFirstOut(countLimit: 8) }, countLimit: 8)
            .run()
        #expect(lru.failedCheckNames == [ImageCacheCheck.evictsInOrder.rawValue], "\(lru)")
        // Documented as first-in-first-out, the same cache keeps its contract.
        let fifo = await ImageCacheContract(
            makeCache: { BrokenCaches.FirstInFirstOut(countLimit: 8) }, countLimit: 8, evictionOrder: .firstInFirstOut
        ).run()
        #expect(fifo.passed, "\(fifo)")
    }

    @Test func dataCacheServingDamagedEntriesFailsTheDamageCheck() async {
        let contract = DataCacheContract(
            makeCache: { BrokenCaches.ServesDamage() },
            damage: { cache, key in (cache as? BrokenCaches.ServesDamage)?.damageEntry(for: key) })
        let report = await contract.run()
        #expect(report.failedCheckNames == [DataCacheContract.Check.readsDamageAsMiss.rawValue], "\(report)")
    }

    @Test func processorWhoseIdentifierIgnoresParametersFailsTheIdentifierCheck() async {
        let contract = ImageProcessorContract(makeVariants: {
            [
                BrokenProcessors.IdentifierIgnoresParameters(intensity: 1),
                BrokenProcessors.IdentifierIgnoresParameters(intensity: 0.5),
            ]
        })
        let report = await contract.run()
        #expect(report.failedCheckNames == [Processor.identifierNamesParameters.rawValue], "\(report)")
    }

    @Test func nondeterministicProcessorFailsTheDeterminismChecks() async {
        let contract = ImageProcessorContract(makeVariants: {
            [BrokenProcessors.Nondeterministic(seed: 1), BrokenProcessors.Nondeterministic(seed: 2)]
        })
        let report = await contract.run()
        #expect(
            report.failedCheckNames == Set([Processor.isDeterministic, .processesConcurrently].map(\.rawValue)),
            "\(report)")
    }

    @Test func processorDroppingFramesFailsTheAnimationCheck() async {
        let contract = ImageProcessorContract(makeVariants: {
            [BrokenProcessors.DropsFrames(intensity: 1), BrokenProcessors.DropsFrames(intensity: 0.5)]
        })
        let report = await contract.run()
        #expect(report.failedCheckNames == [Processor.handlesAnimations.rawValue], "\(report)")
    }
}
