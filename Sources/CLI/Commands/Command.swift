/// How the process ends: 0 all sources succeeded, 1 one or more failed, 2 usage error, 130 interrupted.
enum ExitStatus: Int32, Sendable {
    case success = 0
    case failure = 1
    case usage = 2
    case interrupted = 130

    /// Success when nothing failed, failure otherwise.
    init(failures: Int) { self = failures == 0 ? .success : .failure }
}

/// One `imago` command: its spec (flags, positionals, usage) and what it does.
protocol Command: Sendable {
    static var spec: CommandSpec { get }
    /// Runs the command. A thrown `UsageError` prints the usage and exits 2; a thrown `ImagoError` prints one line
    /// and exits 1.
    static func run(_ arguments: ParsedArguments) async throws -> ExitStatus
}
