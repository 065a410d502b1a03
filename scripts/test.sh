#!/usr/bin/env bash
# Runs every test of fenguard: unit tests, doc tests, and the process-level tests that drive the
# built binary through pipes (fake engine and real Stockfish).
# Stockfish tests: they fail when Stockfish is missing and CI=true, else they say so and pass.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --locked --all-targets
cargo test --locked --doc
# Differential test of `fenguard check` against python-chess 1.11.2 (SPEC 7), fixed seed.
python3 scripts/oracle_diff.py --fenguard target/debug/fenguard --seed 20261129 --count 3000
