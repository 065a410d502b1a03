#!/usr/bin/env bash
# Runs every test of fenguard: unit tests, doc tests, and the process-level tests that drive the
# built binary through pipes (fake engine and real Stockfish).
# Stockfish tests: they fail when Stockfish is missing and CI=true, else they say so and pass.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --locked --all-targets
cargo test --locked --doc
