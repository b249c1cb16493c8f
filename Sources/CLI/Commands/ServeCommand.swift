import Dispatch
import Foundation
import Imago
import ImagoServer
import Synchronization

/// `imago serve`: the image service of `ImagoServer`, configured by the `serve` section; this command only starts
/// it, prints the ready line, writes the access log and drains on SIGTERM or SIGINT.
enum ServeCommand: Command {
    static let spec = CommandSpec(
        name: "serve", synopsis: "[--listen HOST:PORT] [--config FILE] [--quiet]",
        summary: "Serves resized images over HTTP: GET /{signature}/{options}/{source} (see Docs/Server.md).",
        positionals: PositionalSpec(name: "", minimum: 0, maximum: 0),
        flags: [
            .option("listen", "HOST:PORT", "address and port (overrides serve.listen; port 0 picks a free one)"),
            .option("config", "FILE", "a configuration file, as `imago config --print-default` prints"),
            .toggle("quiet", "no access log on standard output"),
        ])

    static func run(_ arguments: ParsedArguments) async throws -> ExitStatus {
        // A bad flag value is a usage error (exit 2 with the usage), as for every command; a bad serve.listen in a
        // configuration file stays a configuration error (exit 1).
        let listen: ListenAddress?
        do {
            listen = try arguments.string("listen").map { try ListenAddress(parsing: $0, path: "--listen") }
        } catch let error as ImagoError {
            throw UsageError(error.reason)
        }
        let file = arguments.string("config")
        let configuration = try ConfigCommand.configuration(file: file, factories: PluginRegistry.standardFactories())
        let settings: ServeSettings
        do {
            settings = try ServeSettings(configuration: configuration)
        } catch let error as ImagoError {
            throw file.map(error.naming) ?? error
        }
        var accessLog: (@Sendable (AccessLogEntry) -> Void)?
        if !arguments.has("quiet") {
            let writer = AccessLogWriter()
            accessLog = { writer.write($0) }
        }
        let signals = ShutdownSignals()
        let address = try listen ?? ListenAddress(parsing: settings.listen, path: "serve.listen")
        let server = try ImageServer(
            configuration: configuration, settings: settings, listen: address, accessLog: accessLog)
        let host = address.host
        let shown = host.contains(":") ? "[\(host)]" : host
        Console.printError("imago serve: listening on http://\(shown):\(server.port)")
        let name = await signals.next()
        if !arguments.has("quiet") { Console.printError("imago serve: \(name), draining") }
        await server.shutdown()
        return .success
    }
}

/// The access log on standard output, one JSON line per request, written whole under a lock.
private final class AccessLogWriter: Sendable {
    private let lock = Mutex(())

    func write(_ entry: AccessLogEntry) {
        let line = entry.jsonLine + "\n"
        lock.withLock { _ in Console.write(line) }
    }
}

/// SIGTERM and SIGINT, delivered once as the name of the first that arrives.
private final class ShutdownSignals: @unchecked Sendable {  // the sources are only kept alive, never touched again
    private var sources: [any DispatchSourceSignal] = []
    private let stream: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: String.self)
        // A child started by a test runner inherits its blocked signals: unblock the two we wait for.
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGTERM)
        sigaddset(&mask, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
        for (number, name) in [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [continuation] in continuation.yield(name) }
            source.resume()
            sources.append(source)
        }
    }

    /// Waits for the first signal.
    func next() async -> String {
        for await name in stream { return name }
        return "SIGTERM"
    }
}
