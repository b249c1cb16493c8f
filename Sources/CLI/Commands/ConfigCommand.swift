import Foundation
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
        defaults(of: PluginRegistry.standardFactories())
    }

    /// The defaults of `factories` with every section `--print-default` prints, so each command reading a file
    /// accepts the whole default configuration, sections it does not use included.
    static func defaults(of factories: PluginRegistry) -> ImagoConfiguration {
        factories.standardConfiguration().withServeSection()
    }

    /// What a command's `--config FILE` gives: the file over `defaults(of: factories)`, or those alone without one.
    /// Every command taking `--config` reads it here.
    static func configuration(file: String?, factories: PluginRegistry) throws -> ImagoConfiguration {
        let defaults = defaults(of: factories)
        guard let file else { return defaults }
        return try ImagoConfiguration(contentsOf: URL(fileURLWithPath: file), defaults: defaults)
    }
}
