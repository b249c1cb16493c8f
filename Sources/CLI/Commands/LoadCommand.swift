import Foundation
import Imago
import Synchronization

/// `imago load SRC… …`: the batch main job through the loader.
enum LoadCommand: Command {
    static let spec = CommandSpec(
        name: "load",
        synopsis: "SRC… [--out DIR] [--max-size N] [--format F] [--concurrency N] [--retries N] [--timeout S] "
            + "[--config FILE] [--preset NAME] [--ops OPTIONS] [--no-cache] [--cache-dir DIR] [--header \"NAME: VALUE\"]… "
            + "[--json [--previews]]",
        summary: "Loads every source through the full pipeline (transports, caches, codecs, processors), writes the "
            + "results into DIR when given, shows a progress bar on a terminal and prints a summary.",
        positionals: PositionalSpec(name: "SRC", minimum: 1, maximum: nil),
        flags: [
            .option("out", "DIR", "write each image into DIR (atomically)"),
            .option("max-size", "N", "shrink each image to fit within NxN"),
            .option(
                "format", "F",
                "format of the files written to DIR: \(OutputFormatNames.summary) (default: the source's)"),
            .option("concurrency", "N", "most loads at once (default: the configuration's, 8)"),
            .option("retries", "N", "retries of a failed fetch (default: the configuration's, 2)"),
            .option("timeout", "S", "seconds each source may take in all"),
            .option("config", "FILE", "a configuration file, as `imago config --print-default` prints"),
            .option("preset", "NAME", "run the configuration's processing preset NAME on each image"),
            .option(
                "ops", "OPTIONS",
                "serve's processing options (\"w=300,h=300,fit=cover,g=sm,blur=2\"), after --preset; f sets the format"),
            .toggle("no-cache", "use neither the memory nor the disk cache"),
            .option("cache-dir", "DIR", "the disk cache folder (default: $IMAGO_CACHE_DIR, else ~/.cache/imago)"),
            .toggle("json", "print one JSON line per source"),
            HeaderOption.flag,
            .toggle("previews", "with --json: also a line per progressive preview, before the source's line"),
        ])

    static func run(_ arguments: ParsedArguments) async throws -> ExitStatus {
        let options = try LoadOptions(arguments)
        let setup = try LoadSetup(options)
        var writer: OutputWriter?
        if let directory = options.outputDirectory {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw ImagoError(.cacheFailed, "cannot create the output folder", source: directory.path)
            }
            writer = OutputWriter(directory: directory, format: options.format, registry: setup.registry)
        }
        let job = LoadJob(setup: setup, options: options, writer: writer)
        let work = Task { await runAll(job, options: options, concurrency: setup.concurrency) }
        let interrupt = Interrupt { work.cancel() }
        let summary = await work.value
        // Cache writes run beside the decodes: the process must not exit while one is in flight.
        await setup.loader.waitForPendingWrites()
        interrupt.stop()
        if interrupt.happened {
            AtomicFile.removeTemporaries()
            Console.printError(
                "imago load: interrupted; " + summary.line(total: options.sources.count, interrupted: true))
            return .interrupted
        }
        // A cache stepped aside (a file where its folder should be, a full disk): say so once.
        setup.cacheFailures.warnOnce(command: "imago load")
        let line = summary.line(total: options.sources.count, interrupted: false)
        if !options.json {
            Console.print(line)
        } else if Console.standardErrorIsTerminal {
            Console.printError(line)
        }
        return ExitStatus(failures: summary.failed)
    }

    /// Loads every distinct source, `concurrency` at a time; a source given again waits for its first load and is
    /// then served again (from the memory cache). Reports each outcome as it arrives.
    ///
    /// `concurrency` workers each take the next source as soon as their last one is done, on the compute executor's
    /// threads: no load waits for this loop to be scheduled before it starts, and a batch being all throughput, a
    /// load's stages follow each other on one thread instead of hopping between the cooperative pool and the
    /// executor.
    static func runAll(_ job: LoadJob, options: LoadOptions, concurrency: Int) async -> LoadSummary {
        var unique: [String] = []
        var repeats: [String: Int] = [:]
        for source in options.sources {
            if repeats[source] == nil {
                unique.append(source)
                repeats[source] = 0
            } else {
                repeats[source, default: 0] += 1
            }
        }
        let names = OutputWriter.names(for: unique)
        let progress = ProgressBar(total: options.sources.count, enabled: Console.standardErrorIsTerminal)
        var summary = LoadSummary()
        let ticker = Task { await progress.tick() }
        let queue = SourceQueue(sources: unique, names: names, repeats: repeats)
        let workerCount = min(max(1, concurrency), unique.count)
        queue.readSizesAhead()
        let (arrivals, arrival) = AsyncStream.makeStream(of: [LoadOutcome].self)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await withTaskGroup(of: Void.self) { workers in
                    for _ in 0..<workerCount {
                        workers.addTask(executorPreference: WorkExecutor.compute) {
                            while !Task.isCancelled, let (source, name, count, size) = queue.next() {
                                let first = await job.run(source, outputName: name, fileSize: size)
                                var outcomes = [first]
                                for _ in 0..<count { outcomes.append(await job.repeatOf(first)) }
                                arrival.yield(outcomes)
                            }
                        }
                    }
                }
                arrival.finish()
            }
            for await outcomes in arrivals {
                for outcome in outcomes {
                    // Loads cut short by Ctrl-C are not failures of their source.
                    if Task.isCancelled, outcome.error?.kind == .cancelled { continue }
                    report(outcome, options: options, progress: progress)
                    summary.add(outcome)
                }
            }
        }
        ticker.cancel()
        await ticker.value
        progress.clear()
        return summary
    }

    static func report(_ outcome: LoadOutcome, options: LoadOptions, progress: ProgressBar) {
        if let error = outcome.error { progress.printAbove { Console.report(error, source: outcome.source) } }
        if options.json {
            // When standard output is the same terminal as the bar, the line goes above the bar too.
            let line = json(outcome).text
            if Console.standardOutputIsTerminal {
                progress.printAbove { Console.print(line) }
            } else {
                Console.print(line)
            }
        }
        progress.advance(failed: outcome.error != nil)
    }

    /// The JSON line of one source.
    static func json(_ outcome: LoadOutcome) -> JSONOutput {
        var fields: [(String, JSONOutput)] = [("source", .string(outcome.source)), ("ok", .bool(outcome.error == nil))]
        switch outcome.result {
        case .success(let response):
            fields += [
                ("format", .string(response.image.format.rawValue)), ("width", .int(response.image.width)),
                ("height", .int(response.image.height)), ("frames", .int(response.image.frames.count)),
            ]
        case .failure:
            fields += [("format", .null), ("width", .null), ("height", .null), ("frames", .null)]
        }
        fields += [
            ("cache", .string(outcome.cache)), ("attempts", .int(outcome.attempts)),
            ("ms", .rounded(outcome.milliseconds, digits: 3)),
        ]
        if let error = outcome.error {
            fields.append(("error", .object([("kind", .string(error.kind.name)), ("message", .string(error.reason))])))
        }
        return .object(fields)
    }
}

/// The distinct sources of a batch, handed out in order to the workers that load them. The sizes of local files
/// are read ahead on the I/O threads (a stat each), so a worker does not wait for one before its load starts.
private final class SourceQueue: Sendable {
    private let sources: [String]
    private let names: [String]
    private let repeats: [String: Int]
    private let taken = Atomic<Int>(0)
    /// Sizes read ahead so far (0 for sources that are not local files).
    private let sizes = Mutex<[Int]>([])

    init(sources: [String], names: [String], repeats: [String: Int]) {
        self.sources = sources
        self.names = names
        self.repeats = repeats
    }

    /// Starts reading the sizes ahead, in the order the sources are handed out.
    func readSizesAhead() {
        let sources = self.sources
        WorkExecutor.io.execute { [self] in
            var batch: [Int] = []
            for (index, source) in sources.enumerated() {
                let url = source.hasPrefix("data:") ? nil : try? ImageRequest.url(from: source)
                batch.append(url.map(LoadJob.fileSize(of:)) ?? 0)
                // Published in small batches: the first workers need their sizes soon.
                if batch.count == 16 || index == sources.count - 1 {
                    sizes.withLock { $0 += batch }
                    batch.removeAll(keepingCapacity: true)
                }
                // Every source handed out (each worker's last `next()` goes past the end): no size is needed.
                if taken.load(ordering: .relaxed) > sources.count { return }
            }
        }
    }

    /// The next source, its output name, how many times it was given again and its size when read ahead; nil
    /// when all are taken.
    func next() -> (source: String, name: String, repeats: Int, size: Int?)? {
        let index = taken.wrappingAdd(1, ordering: .relaxed).oldValue
        guard index < sources.count else { return nil }
        let size = sizes.withLock { index < $0.count ? $0[index] : nil }
        return (sources[index], names[index], repeats[sources[index]] ?? 0, size)
    }
}
