import Imago

/// `--ops OPTIONS` (`imago convert`, `imago load`): serve's options grammar (`ProcessingOptions`), checked as a
/// usage error. `wm`, `pr` and `exp` belong to a server (its watermark, its presets, signed URLs) and are refused, as
/// are the options that shape a server's answer (`fn`, `att`, the URL's limits, `skp`, `raw`, `maxage`, `autojpg`).
enum OperationsOption {
    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> ProcessingOptions? {
        guard let text = arguments.string("ops") else { return nil }
        let options: ProcessingOptions
        do {
            options = try ProcessingOptions(parsing: text)
        } catch let error as OptionError {
            throw UsageError("--ops: \(error.message)")
        } catch {
            throw UsageError("--ops: \(error)")
        }
        if options.watermark != nil || !options.presets.isEmpty || options.expires != nil {
            throw UsageError("--ops: wm, pr and exp are serve options (use --preset for a configuration's preset)")
        }
        // What shapes a server's answer (its headers, its limits per URL, the source passed on) has no file to act on.
        if options.filename != nil || options.attachment || !options.limits.isEmpty || !options.skipProcessing.isEmpty
            || options.raw || options.maxAge != nil || options.autoJPEG
        {
            throw UsageError(
                "--ops: fn, att, msr, msfs, maf, mafr, mrd, skp, raw, maxage and autojpg are serve options")
        }
        if options.format == .auto { throw UsageError("--ops: f=auto needs a client's Accept header; name a format") }
        return options
    }

    /// The processors, in the fixed order of operations.
    static func processors(_ options: ProcessingOptions) throws(UsageError) -> [any ImageProcessor] {
        do {
            return try options.processors()
        } catch {
            throw UsageError("--ops: \(error)")
        }
    }
}

extension ProcessingOptions {
    /// The format `f` names, if any.
    var namedFormat: ImageFormat? {
        if case .format(let format) = format { return format }
        return nil
    }
}
