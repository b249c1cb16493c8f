import Foundation

// Names of 0.1.0 that changed in 0.2.0, kept so code written for 0.1.0 builds with a warning that names the
// replacement (CHANGELOG.md lists each with its migration).

extension SourcePolicy {
    /// 0.1.0's check, which threw a 403 `ServeFailure`; it throws the `ImagoError` `check(_:)` throws.
    @available(*, deprecated, message: "use check(_:), which returns the normalised URL to fetch (fetch that one)")
    public func check(_ url: URL, source: String) throws { _ = try check(url) }
}
