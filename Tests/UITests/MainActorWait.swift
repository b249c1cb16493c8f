import Foundation

/// Waits on the main actor until `condition` holds, letting the load's tasks run; gives up after `seconds` of clock
/// time (not a count of sleeps: under the full suite's load a millisecond's sleep can last far longer).
@MainActor
func waitUntil(seconds: Double = 60, _ condition: () -> Bool) async {
    let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
    while !condition(), ContinuousClock.now < deadline {
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
}
