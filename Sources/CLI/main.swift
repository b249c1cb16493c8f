import Foundation

// The `imago` command-line tool: see Docs/CLI.md.
let status = await CommandTable.run(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
