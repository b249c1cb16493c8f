import Foundation
import ImagoCore
import ImagoTransports
import Testing

@Suite struct FileTransportTests {
    /// A fresh directory with the files of one test, removed afterwards.
    final class Sandbox {
        let directory: URL

        init() throws {
            directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("imago-file-tests-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        @discardableResult
        func file(_ name: String, size: Int) throws -> URL {
            let url = directory.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try expectedBody(size).write(to: url)
            return url
        }

        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    }

    @Test func readsAFileInChunksAfterItsSize() async throws {
        let sandbox = try Sandbox()
        let url = try sandbox.file("big.bin", size: 3_500_000)
        let transport = FileTransport(configuration: .init(chunkSize: 1_000_000))
        let recording = await TransportRecording.record(transport.fetch(TransportRequest(url: url)))

        #expect(recording.error == nil)
        #expect(recording.followsEventContract)
        #expect(recording.chunks.map(\.count) == [1_000_000, 1_000_000, 1_000_000, 500_000])
        #expect(recording.body == expectedBody(3_500_000))
        #expect(recording.metadata.first?.expectedLength == 3_500_000)
        #expect(recording.metadata.first?.statusCode == nil)
    }

    @Test func reportsTheFilesModificationTimeAsLastModified() async throws {
        let sandbox = try Sandbox()
        let url = try sandbox.file("dated.bin", size: 10)
        let date = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: url.path)
        let fetched = try await FileTransport().fetchAll(TransportRequest(url: url))
        #expect(fetched.metadata.lastModified == "Wed, 21 Oct 2015 07:28:00 GMT")
    }

    @Test func reportsProgressAgainstTheFileSize() async throws {
        let sandbox = try Sandbox()
        let url = try sandbox.file("progress.bin", size: 10_000)
        let progress = ProgressLog()
        let transport = FileTransport(configuration: .init(chunkSize: 3000))
        let fetched = try await transport.fetchAll(TransportRequest(url: url)) { progress.append($0) }

        #expect(fetched.data == expectedBody(10_000))
        #expect(progress.steps.map(\.received) == [0, 3000, 6000, 9000, 10_000])
        #expect(progress.steps.allSatisfy { $0.expected == 10_000 })
    }

    @Test func readsPlainPathsTurnedIntoFileURLs() async throws {
        let sandbox = try Sandbox()
        try sandbox.file("with space/é.png", size: 100)
        let url = try ImageRequest.url(from: sandbox.path("with space/é.png"))
        let fetched = try await FileTransport().fetchAll(TransportRequest(url: url))
        #expect(fetched.data == expectedBody(100))
    }

    @Test func readsAnEmptyFile() async throws {
        let sandbox = try Sandbox()
        let url = try sandbox.file("empty", size: 0)
        let recording = await TransportRecording.record(FileTransport().fetch(TransportRequest(url: url)))
        #expect(recording.error == nil)
        #expect(recording.events == ["response"])
        #expect(recording.metadata.first?.expectedLength == 0)
    }

    @Test func refusesAMissingFileNamingItsPath() async throws {
        let sandbox = try Sandbox()
        let path = sandbox.path("missing.png")
        let url = URL(fileURLWithPath: path)
        let recording = await TransportRecording.record(FileTransport().fetch(TransportRequest(url: url)))
        let error = try #require(recording.imagoError)
        #expect(error.kind == .invalidSource)
        #expect(error.reason == "no such file: \(path)")
        #expect(error.source == url.absoluteString)
        #expect(recording.events.isEmpty)
    }

    @Test func refusesADirectory() async throws {
        let sandbox = try Sandbox()
        let url = URL(fileURLWithPath: sandbox.directory.path)
        let recording = await TransportRecording.record(FileTransport().fetch(TransportRequest(url: url)))
        #expect(recording.imagoError?.kind == .invalidSource)
        #expect(recording.imagoError?.reason == "\(sandbox.directory.path) is a directory")
    }

    @Test func refusesWhatIsNotARegularFile() async throws {
        let sandbox = try Sandbox()
        let path = sandbox.path("pipe")
        #expect(mkfifo(path, 0o600) == 0)
        // Opening a FIFO would block until a writer came; the transport must refuse it at once.
        let recording = await TransportRecording.record(
            FileTransport().fetch(TransportRequest(url: URL(fileURLWithPath: path))))
        #expect(recording.imagoError?.kind == .invalidSource)
        #expect(recording.imagoError?.reason == "\(path) is not a regular file")
    }

    @Test func refusesAFileOverTheCapBeforeReading() async throws {
        let sandbox = try Sandbox()
        let url = try sandbox.file("large.bin", size: 2000)
        let transport = FileTransport(configuration: .init(maxBytes: 1000))
        let recording = await TransportRecording.record(transport.fetch(TransportRequest(url: url)))
        let error = try #require(recording.imagoError)
        #expect(error.kind == .tooLarge)
        #expect(error.reason == "too large: \(url.path) has 2000 bytes, over the limit of 1000 bytes")
        #expect(recording.events.isEmpty)
    }

    @Test func readsInsideTheRoot() async throws {
        let sandbox = try Sandbox()
        let url = try sandbox.file("root/images/a.png", size: 10)
        let transport = FileTransport(configuration: .init(root: sandbox.path("root")))
        let fetched = try await transport.fetchAll(TransportRequest(url: url))
        #expect(fetched.data == expectedBody(10))
    }

    @Test func refusesDotDotOutOfTheRoot() async throws {
        let sandbox = try Sandbox()
        try sandbox.file("root/a.png", size: 10)
        try sandbox.file("secret.txt", size: 10)
        let root = sandbox.path("root")
        let escaping = root + "/../secret.txt"
        let transport = FileTransport(configuration: .init(root: root))
        let recording = await TransportRecording.record(
            transport.fetch(TransportRequest(url: URL(fileURLWithPath: escaping))))
        let error = try #require(recording.imagoError)
        #expect(error.kind == .invalidSource)
        #expect(error.reason == "\(escaping) is outside the allowed root \(root)")
        #expect(recording.events.isEmpty)
    }

    @Test func refusesASymbolicLinkOutOfTheRoot() async throws {
        let sandbox = try Sandbox()
        try sandbox.file("root/a.png", size: 10)
        let secret = try sandbox.file("secret.txt", size: 10)
        let root = sandbox.path("root")
        let link = sandbox.path("root/link.png")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: secret.path)
        let transport = FileTransport(configuration: .init(root: root))
        let recording = await TransportRecording.record(
            transport.fetch(TransportRequest(url: URL(fileURLWithPath: link))))
        let error = try #require(recording.imagoError)
        #expect(error.kind == .invalidSource)
        #expect(error.reason.hasPrefix("\(link) resolves to "))
        #expect(error.reason.hasSuffix("secret.txt, outside the allowed root \(root)"))
    }

    @Test func followsASymbolicLinkThatStaysInsideTheRoot() async throws {
        let sandbox = try Sandbox()
        let target = try sandbox.file("root/real/a.png", size: 50)
        let link = sandbox.path("root/alias.png")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target.path)
        // A root written through a symbolic link is resolved too.
        let rootLink = sandbox.path("root-link")
        try FileManager.default.createSymbolicLink(atPath: rootLink, withDestinationPath: sandbox.path("root"))
        let transport = FileTransport(configuration: .init(root: rootLink))
        let fetched = try await transport.fetchAll(
            TransportRequest(url: URL(fileURLWithPath: rootLink + "/alias.png")))
        #expect(fetched.data == expectedBody(50))
    }

    @Test func cancellationStopsReadingBetweenChunks() async throws {
        let sandbox = try Sandbox()
        let url = try sandbox.file("large.bin", size: 1_000_000)
        let transport = FileTransport(configuration: .init(chunkSize: 1000))
        let firstChunk = AsyncStream.makeStream(of: Void.self)
        let proceed = AsyncStream.makeStream(of: Void.self)
        let consumer = Task {
            var chunks = 0
            for try await event in transport.fetch(TransportRequest(url: url)) {
                guard case .bytes = event else { continue }
                chunks += 1
                firstChunk.continuation.yield()
                // Waits until the test has cancelled this task.
                for await _ in proceed.stream { break }
            }
            return chunks
        }
        for await _ in firstChunk.stream { break }
        consumer.cancel()
        proceed.continuation.yield()
        #expect(try await consumer.value == 1)
    }

    @Test func acceptsLocalhostAndRefusesOtherHosts() async throws {
        let sandbox = try Sandbox()
        let url = try sandbox.file("a.png", size: 10)
        let local = try #require(URL(string: "file://localhost" + url.path))
        #expect(try await FileTransport().fetchAll(TransportRequest(url: local)).data == expectedBody(10))

        let remote = try #require(URL(string: "file://fileserver" + url.path))
        let recording = await TransportRecording.record(FileTransport().fetch(TransportRequest(url: remote)))
        #expect(recording.imagoError?.kind == .invalidSource)
        #expect(recording.imagoError?.reason == "file URLs naming another host (fileserver) are not supported")
    }

    @Test func refusesOtherSchemes() async throws {
        let url = URL(string: "http://127.0.0.1/a.png")!
        let recording = await TransportRecording.record(FileTransport().fetch(TransportRequest(url: url)))
        #expect(recording.imagoError?.kind == .unsupportedScheme)
        #expect(FileTransport().schemes == ["file"])
    }
}
