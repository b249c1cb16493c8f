import Testing

/// The suites that start `imago serve` and an origin run one test at a time: many servers at once on a small machine
/// starve the timing-sensitive tests of other suites running alongside.
@Suite(.serialized) struct ServerIntegrationTests {}
