import ImagoCore

/// Finds the command a command line names and runs it, turning errors into exit statuses.
enum CommandTable {
    static let commands: [any Command.Type] = [
        InfoCommand.self, ConvertCommand.self, LoadCommand.self, ShowCommand.self, SheetCommand.self,
        CacheCommand.self, ConfigCommand.self, BenchDecodeCommand.self, BenchPlayCommand.self,
        BenchPipelineCommand.self, ServeCommand.self,
    ]

    /// Runs `arguments` (without the program name) and returns the exit status.
    static func run(_ arguments: [String]) async -> ExitStatus {
        guard let first = arguments.first, !["--help", "-h", "help"].contains(first) else {
            if arguments.isEmpty {
                Console.writeError(overview)
                return .usage
            }
            Console.write(overview)
            return .success
        }
        if first == "--version" {
            Console.print("imago 0.1.0")
            return .success
        }
        guard let (command, rest) = lookUp(arguments) else {
            Console.printError("imago: unknown command \"\(arguments.prefix(2).joined(separator: " "))\"")
            Console.writeError("\n" + overview)
            return .usage
        }
        let spec = command.spec
        do {
            let parsed = try ArgumentParser.parse(rest, spec: spec)
            if parsed.has("help") {
                Console.write(spec.usage)
                return .success
            }
            return try await command.run(parsed)
        } catch let error as UsageError {
            Console.printError("imago \(spec.name): \(error.message)")
            Console.writeError("\n" + spec.usage)
            return .usage
        } catch {
            Console.report(ImagoError.wrapping(error))
            return .failure
        }
    }

    /// The command named by the first one or two words, and the arguments after them.
    private static func lookUp(_ arguments: [String]) -> ((any Command.Type), [String])? {
        for command in commands {
            let words = command.spec.name.split(separator: " ").map(String.init)
            if arguments.starts(with: words) { return (command, Array(arguments.dropFirst(words.count))) }
        }
        // `imago bench` alone, or with an unknown subcommand, lists the bench commands.
        return nil
    }

    /// `imago --help`: every command's synopsis.
    static var overview: String {
        var text =
            "usage: imago COMMAND [options]\n\nImago loads, decodes, converts and previews images.\n\ncommands:\n"
        for command in commands {
            text += "  imago \(command.spec.name) \(command.spec.synopsis)\n"
        }
        text += """

            Sources are http(s):// URLs, file:// URLs or plain paths, and data: URIs.
            Exit status: 0 all sources succeeded, 1 one or more failed, 2 usage error.
            Environment: IMAGO_CACHE_DIR sets the disk cache folder; NO_COLOR turns colour off.
            Run `imago COMMAND --help` for a command's options.

            """
        return text
    }
}
