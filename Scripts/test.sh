#!/usr/bin/env bash
# The test command: builds everything (debug, warnings as errors) and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests -Xswiftc -warnings-as-errors
swift test --skip-build --parallel --num-workers 2
