import ImagoRendering

/// The three grammars read with the suite's `context`: how the grammar suites write their cases.
protocol GrammarReading {
    var context: ProcessingOptions.Context { get }
}

extension GrammarReading {
    /// Imago's own options (`w=300,fit=cover`).
    func imago(_ text: String) throws -> ProcessingOptions { try ProcessingOptions(parsing: text, context: context) }

    /// imgproxy's option segments (`rs:fit:300:200/q:80`), with the source's extension when given.
    func imgproxy(_ segments: String, extension: Substring? = nil) throws -> ProcessingOptions {
        try ImgproxyGrammar.options(segments.split(separator: "/"), extension: `extension`, context: context).options
    }

    /// thumbor's path (`300x200/filters:…/IMAGE`), with what its grammar noted.
    func thumbor(_ path: String) throws -> OptionsReading<ThumborGrammar.Scratch> {
        try ThumborGrammar.options(Substring(path), context: context).reading
    }
}
