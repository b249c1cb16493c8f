#!/usr/bin/env bash
# The test command: builds everything (debug, warnings as errors) and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests -Xswiftc -warnings-as-errors
# Swift Testing starts every test at once on the cooperative pool (two threads here): 800 tests then wait behind each
# other, and a test that needs an answer within a minute (a connection kept alive, a transfer's deadline) can wait
# longer than that. Six at a time keeps the pool responsive; the run is shorter too (153 s against 208 s with a busy
# core). A suite may still ask for less (`.serialized`).
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-6}
swift test --skip-build --parallel --num-workers 2
