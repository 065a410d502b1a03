#!/usr/bin/env bash
# Runs every test of fenguard: unit tests, doc tests, and the process-level tests that drive the
# built binary through pipes (fake engine and real Stockfish).
# Stockfish tests: they fail when Stockfish is missing and CI=true, else they are skipped: each
# prints `SKIP(no stockfish): CRATE::MODULE::TEST` and appends it to $FENGUARD_SKIP_LOG; the
# skips are counted at the end, with a summary line of every check's count.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="$(mktemp -d "${TMPDIR:-/tmp}/fenguard-test-sh.XXXXXX")"
trap 'rm -rf "$OUT"' EXIT
export FENGUARD_SKIP_LOG="$OUT/skips"
: > "$FENGUARD_SKIP_LOG"
# run LABEL COMMAND...: runs COMMAND, its output (stdout and stderr) shown and kept in $OUT/LABEL.
run() {
    local label=$1
    shift
    "$@" 2>&1 | tee "$OUT/$label"
}
# passed LABEL: the count of the last `N passed, M failed` line of $OUT/LABEL.
passed() {
    { grep -E '^[0-9]+ passed, 0 failed' "$OUT/$1" || true; } | tail -n 1 | cut -d' ' -f1
}
skip() {  # skip WHAT WHICH: a check not run here (outside CI), counted like a cargo test's skip
    echo "SKIP(no $1): $2" >> "$FENGUARD_SKIP_LOG"
}
# python-chess 1.11.2 is the reference the differential and client tests compare against.
if ! python3 -c 'import chess, sys; sys.exit(chess.__version__ != "1.11.2")' 2>/dev/null; then
    echo "installing python-chess 1.11.2 (pip install chess==1.11.2)" >&2
    python3 -m pip install --quiet chess==1.11.2 \
        || python3 -m pip install --quiet --break-system-packages chess==1.11.2
fi
# pyffish 0.0.90 (Fairy-Stockfish's binding) is the oracle and referee of the 10x8 variants.
if ! python3 -c 'import pyffish' 2>/dev/null; then
    echo "installing pyffish 0.0.90 (pip install pyffish==0.0.90)" >&2
    python3 -m pip install --quiet pyffish==0.0.90 \
        || python3 -m pip install --quiet --break-system-packages pyffish==0.0.90
fi
# The rules seam (issue 17): a test-only 10x8 variant, one table entry behind the
# `test-variants` feature, checked by `fenguard check` and played through the proxy. Run first:
# the next build puts the featureless binary back in target/debug for the scripts below.
run cargo-seam cargo test --locked --features test-variants --test variants variant10_seam::
run cargo-tests cargo test --locked --all-targets
run cargo-doc cargo test --locked --doc
# Differential test of `fenguard check` against python-chess 1.11.2 (SPEC 7), fixed seed.
run oracle python3 scripts/oracle_diff.py --fenguard target/debug/fenguard \
    --seed 20261129 --count 3000
# The same for the 8x8 variants against python-chess's chess.variant (SPEC 10), fixed seed.
run variant8-oracle python3 scripts/variant8_oracle.py --fenguard target/debug/fenguard \
    --seed 20261201 --per-variant 300
# 10x8 variants (issue 10): differential test against pyffish (Fairy-Stockfish's binding), fixed seed.
run variant10-oracle python3 scripts/variant10_oracle.py --fenguard target/debug/fenguard \
    --seed 20261201 --count 1000
# The mock of lila and lichess's work broker that tests/provide runs against (issue 18): its own
# self-test (grammar, sanitize, emit, HTTP), then a short load run of `fenguard provide` (2
# processes x 2 workers, the fake engine): exit 1 on any lost job.
run mock-lichess python3 scripts/test_mock_lichess.py
run load-provide python3 scripts/load-provide.py --fenguard target/debug/fenguard --jobs 100 \
    --procs 2 --workers 2 --poll-s 1 --engine target/debug/fake_engine
# Relay delay (issue 21), smoke run: 40 bestmoves through fenguard, none lost (the numbers:
# scripts/relay-delay without --check).
run relay-delay python3 scripts/relay-delay --check --fenguard target/debug/fenguard
# Real-client test (issue 4): python-chess plays 20 standard and 20 Chess960 games through
# fenguard in front of Stockfish (2000 nodes a move, fixed seed) and checks every bestmove and
# every positions.jsonl record; prints `N passed, M failed`.
# Soak test (issue 5), quick mode: 20 games while the engine is SIGKILLed 8 times; every search
# answered (bestmove 0000 after a kill), no hang, restarts = kills, clean quit (about 15 s).
STOCKFISH=/usr/games/stockfish
[ -x "$STOCKFISH" ] || STOCKFISH="$(command -v stockfish || true)"
if [ -n "$STOCKFISH" ]; then
    run client-games python3 scripts/client_games.py --fenguard target/debug/fenguard \
        --engine "$STOCKFISH" --seed 20261129 --games 20 --games960 20 --nodes 2000
    if [ "$(uname -s)" = Linux ]; then  # the killer reads /proc
        run soak python3 scripts/soak.py --quick --fenguard target/debug/fenguard \
            --engine "$STOCKFISH" --seed 20261129
    fi
elif [ "${CI:-}" = true ]; then
    echo "Stockfish is missing under CI: install it (apt-get install -y stockfish)" >&2
    exit 1
else
    echo "stockfish not installed: not running scripts/client_games.py, scripts/soak.py" >&2
    skip stockfish scripts/client_games.py
    skip stockfish scripts/soak.py
fi
# Variants (issues 9, 10): python-chess plays each chess.variant variant (and chess) through
# fenguard against Fairy-Stockfish, 1 game each, fixed seed, 300 nodes a move; every game ends,
# no bestmove 0000, every position valid and logged with its variant; prints `N passed, M failed`.
# Then the 10x8 variants, pyffish as referee, both castling notations and detect mode.
FAIRY=/usr/games/fairy-stockfish
if [ -x "$FAIRY" ]; then
    run variant-games python3 scripts/variant_games.py --fenguard target/debug/fenguard \
        --engine "$FAIRY" --seed 20261201 --games 1 --nodes 300
    run variant10-games python3 scripts/variant10_games.py --fenguard target/debug/fenguard \
        --engine "$FAIRY" --seed 20261201 --games 1 --nodes 200 --max-plies 40
elif [ "${CI:-}" = true ]; then
    echo "Fairy-Stockfish is missing under CI: install it (apt-get install -y fairy-stockfish)" >&2
    exit 1
else
    echo "fairy-stockfish not installed: not running scripts/variant_games.py, scripts/variant10_games.py" >&2
    skip fairy-stockfish scripts/variant_games.py
    skip fairy-stockfish scripts/variant10_games.py
fi
# The summary: skips by what was missing (a test that skips twice counts once), then every count.
sort -u "$FENGUARD_SKIP_LOG" > "$OUT/skips-unique"
skipped=$(wc -l < "$OUT/skips-unique")
sed -E 's/^SKIP\(no (.*)\): .*/\1/' "$OUT/skips-unique" > "$OUT/skips-what"
for what in stockfish fairy-stockfish $(sort -u "$OUT/skips-what"); do
    case " ${shown:-} " in *" $what "*) continue ;; esac
    shown="${shown:-} $what"
    echo "$(grep -cxF "$what" "$OUT/skips-what" || true) tests skipped: $what missing"
done
script_skips=$( (cat "$OUT"/*games* 2>/dev/null || true) | grep -c '^SKIP ' || true)
cargo_tests=$(cat "$OUT/cargo-seam" "$OUT/cargo-tests" "$OUT/cargo-doc" | grep -E '^test result: ok\.' \
    | awk '{ n += $4 } END { print n + 0 }')
summary="all passed: $cargo_tests cargo tests, oracle $(passed oracle)"
summary+=", variant8 oracle $(passed variant8-oracle), variant10 oracle $(passed variant10-oracle)"
summary+=", mock-lichess $(grep -oE 'all [0-9]+ checks' "$OUT/mock-lichess" | cut -d' ' -f2)"
summary+=", load-provide $(grep -oE 'lost jobs +[0-9]+' "$OUT/load-provide" | awk '{print $3}') lost"
for label in client-games soak variant-games variant10-games; do
    if [ -f "$OUT/$label" ]; then
        summary+=", $label $(passed "$label")"
    fi
done
echo "$summary; skipped $skipped (and $script_skips script cases, their SKIP lines above)"
