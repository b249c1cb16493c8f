import Imago
import ImagoServer

/// `imago config --print-default`: the embedded default configuration, in the JSON form `--config` reads.
enum ConfigCommand: Command {
    static let spec = CommandSpec(
        name: "config", synopsis: "--print-default",
        summary: "Prints the embedded default configuration as JSON, the format `imago load --config FILE` reads.",
        positionals: PositionalSpec(name: "", minimum: 0, maximum: 0),
        flags: [.toggle("print-default", "print the default configuration")])

    static func run(_ arguments: ParsedArguments) async throws -> ExitStatus {
        guard arguments.has("print-default") else { throw UsageError("nothing to do: give --print-default") }
        Console.print(defaultConfiguration.json.jsonText())
        return .success
    }

    /// The configuration the tool uses when none is given (with the `serve` section of `imago serve`).
    static var defaultConfiguration: ImagoConfiguration {
        PluginRegistry.standardFactories().standardConfiguration().withServeSection()
    }
}
