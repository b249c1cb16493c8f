/// The outcome of one check.
public struct ContractResult: Sendable, CustomStringConvertible {
    /// The check's name.
    public let name: String
    /// Why it failed; `nil` when it passed.
    public let reason: String?

    /// Creates a result.
    public init(name: String, reason: String?) {
        self.name = name
        self.reason = reason
    }

    /// Whether the promise held.
    public var passed: Bool { reason == nil }

    public var description: String {
        if let reason { return "✗ \(name): \(reason)" }
        return "✓ \(name)"
    }
}

/// The outcome of a contract run: every check with its verdict.
public struct ContractReport: Sendable, CustomStringConvertible {
    /// The contract and the plugin it ran against, for example `"ImageDecoder contract (png)"`.
    public let title: String
    /// Every check run, in order.
    public let results: [ContractResult]

    /// Creates a report.
    public init(title: String, results: [ContractResult]) {
        self.title = title
        self.results = results
    }

    /// Whether every check passed.
    public var passed: Bool { results.allSatisfy(\.passed) }
    /// The checks that failed.
    public var failures: [ContractResult] { results.filter { !$0.passed } }
    /// The names of the checks that failed.
    public var failedCheckNames: Set<String> { Set(failures.map(\.name)) }

    /// A summary line and one line per check; a failure names the check and the reason.
    public var description: String {
        let summary =
            passed
            ? "\(title): all \(results.count) checks passed"
            : "\(title): \(failures.count) of \(results.count) checks failed"
        return ([summary] + results.map { "  \($0)" }).joined(separator: "\n")
    }
}

/// A list of named checks of one plugin protocol's promises.
public protocol PluginContract: Sendable {
    /// Names the contract and the plugin under test, for reports.
    var title: String { get }
    /// The checks, in the order they run.
    var checks: [ContractCheck] { get }
}

extension PluginContract {
    /// Runs every check (one after the other; some checks use concurrency inside) and reports each verdict.
    ///
    /// - Parameter skipping: names of checks not to run, for a plugin that documents it does not keep them.
    public func run(skipping: Set<String> = []) async -> ContractReport {
        var results: [ContractResult] = []
        for check in checks where !skipping.contains(check.name) {
            results.append(await check.run())
        }
        return ContractReport(title: title, results: results)
    }

    /// The names of every check, in order.
    public var checkNames: [String] { checks.map(\.name) }

    /// Runs every check (as `run(skipping:)`) and throws a `ContractFailure` whose reason is the report, naming each
    /// broken promise, unless every check passed: `try await contract.verify()` is a whole test, in Swift Testing
    /// as in XCTest.
    public func verify(skipping: Set<String> = []) async throws {
        let report = await run(skipping: skipping)
        if !report.passed { throw ContractFailure(report.description) }
    }
}
