import Foundation
import ImagoTestSupport
import Synchronization
import Testing

@testable import ImagoCore

/// A transport whose stream notes the executor its first event is asked for on (nil for the cooperative pool).
final class ExecutorNotingTransport: ImageTransport {
    let schemes: Set<String> = ["noting"]
    let cachePolicy: (any TransportCachePolicy)? = nil
    private let seen = Mutex<[String?]>([])
    var executors: [String?] { seen.withLock { $0 } }

    func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        // A 2x2 fake image (FakeDecoder): "FAKE", width, height, orientation, RGBA.
        let image = Data("FAKE".utf8) + Data([2, 2, 1, 10, 20, 30, 255])
        let events: [TransportEvent] = [.response(TransportMetadata(statusCode: 200)), .bytes(image)]
        let next = Mutex(0)
        return AsyncThrowingStream(unfolding: { [self] in
            let index = next.withLock { value in
                defer { value += 1 }
                return value
            }
            if index == 0 { seen.withLock { $0.append(WorkExecutor.currentName) } }
            return index < events.count ? events[index] : nil
        })
    }
}

/// `WorkExecutor` as a task executor: a task that prefers it runs on its threads, and its `run` calls from there
/// run inline, so a batch moves from stage to stage without a thread switch.
@Suite struct WorkExecutorTaskExecutorTests {
    @Test func aTaskThatPrefersItRunsOnItsThreads() async {
        let executor = WorkExecutor(name: "test.preferred", threadCount: 1)
        let inside = await withTaskExecutorPreference(executor) { WorkExecutor.currentName }
        #expect(inside == "test.preferred")
        #expect(WorkExecutor.currentName == nil)
    }

    /// With one thread, held by the task: a job submitted first can only run once the task lets the thread go, so
    /// the order in the log says whether `run` ran its body inline (before that job) or queued it (after).
    @Test func runFromItsOwnThreadRunsInline() async throws {
        let executor = WorkExecutor(name: "test.inline", threadCount: 1)
        let log = Mutex<[String]>([])
        let done = AsyncGate()
        try await withTaskExecutorPreference(executor) {
            executor.execute {
                log.withLock { $0.append("queued earlier") }
                done.open()
            }
            let name = try await executor.run {
                log.withLock { $0.append("run") }
                return WorkExecutor.currentName
            }
            #expect(name == "test.inline")
        }
        await done.wait()
        #expect(log.withLock { $0 } == ["run", "queued earlier"])
    }

    @Test func anInlineRunStillHonoursCancellation() async {
        let executor = WorkExecutor(name: "test.cancel", threadCount: 1)
        let ran = Atomic<Bool>(false)
        let task = Task(executorPreference: executor) {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await executor.run { ran.store(true, ordering: .relaxed) }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        let didRun = ran.load(ordering: .relaxed)
        #expect(!didRun)
    }

    /// The loader's shared work (fetch, decode) is started in tasks of its own: they run where the load runs.
    @Test func aLoadThatPrefersItKeepsItsSharedWorkThere() async throws {
        let executor = WorkExecutor(name: "test.loads", threadCount: 2)
        let transport = ExecutorNotingTransport()
        var builder = PluginRegistry.Builder()
        builder.add(transport)
        builder.add(FakeDecoder())
        let registry = builder.build()
        let loader = ImageLoader(registry: registry)
        let first = ImageRequest(url: URL(string: "noting://host/a")!, cachePolicy: .none)
        let second = ImageRequest(url: URL(string: "noting://host/b")!, cachePolicy: .none)
        _ = try await withTaskExecutorPreference(executor) { try await loader.image(for: first) }
        _ = try await loader.image(for: second)
        #expect(transport.executors == ["test.loads", nil])
    }
}
