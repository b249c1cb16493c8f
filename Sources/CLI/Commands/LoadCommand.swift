import Foundation
import Imago

/// `imago load SRC… …`: the batch main job through the loader.
enum LoadCommand: Command {
    static let spec = CommandSpec(
        name: "load",
        synopsis: "SRC… [--out DIR] [--max-size N] [--format F] [--concurrency N] [--retries N] [--timeout S] "
            + "[--config FILE] [--preset NAME] [--no-cache] [--cache-dir DIR] [--header \"NAME: VALUE\"]… "
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
        await withTaskGroup(of: [LoadOutcome].self) { group in
            var next = 0
            func startNext() {
                guard next < unique.count, !Task.isCancelled else { return }
                let (source, name, count) = (unique[next], names[next], repeats[unique[next]] ?? 0)
                next += 1
                group.addTask {
                    let first = await job.run(source, outputName: name)
                    var outcomes = [first]
                    for _ in 0..<count { outcomes.append(await job.repeatOf(first)) }
                    return outcomes
                }
            }
            for _ in 0..<concurrency { startNext() }
            for await outcomes in group {
                for outcome in outcomes {
                    // Loads cut short by Ctrl-C are not failures of their source.
                    if Task.isCancelled, outcome.error?.kind == .cancelled { continue }
                    report(outcome, options: options, progress: progress)
                    summary.add(outcome)
                }
                startNext()
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
