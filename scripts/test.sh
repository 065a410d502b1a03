#!/usr/bin/env bash
# Runs every test of fenguard: unit tests, doc tests, and the process-level tests that drive the
# built binary through pipes (fake engine and real Stockfish).
# Each check prints one line (`ok LABEL: ...` or `FAILED LABEL` followed by its whole output);
# a passing check's own output (the clients' warnings included) is kept out of sight. The last
# line sums up: `all: N passed, M failed, K skipped`, the line before it each check's counts.
# Stockfish tests: they fail when Stockfish is missing and CI=true, else they are skipped: each
# prints `SKIP(no stockfish): CRATE::MODULE::TEST` and appends it to $FENGUARD_SKIP_LOG; the
# skips are counted at the end.
# Each check says `start LABEL` when it begins; the cargo checks also print each test binary as
# cargo starts it. Cargo runs with --no-fail-fast, and scripts/cargo_binaries.py then names every
# test binary of the package with its counts: one that failed, died or never ran fails the check.
# The tests' temporary files go to a directory of this run ($TMPDIR is set to it), removed at the
# end: nothing is left in /tmp (what the tests left behind is counted on the last lines).
#   scripts/test.sh            # everything (docs/testing.md has the times)
#   VERBOSE=1 scripts/test.sh  # every check's output as it runs
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="$(mktemp -d "${TMPDIR:-/tmp}/fenguard-test-sh.XXXXXX")"
trap 'rm -rf "$OUT"' EXIT
mkdir "$OUT/tmp"
export TMPDIR="$OUT/tmp"
export FENGUARD_SKIP_LOG="$OUT/skips"
: > "$FENGUARD_SKIP_LOG"
LABELS=()
FAILED=()
# run LABEL COMMAND...: runs COMMAND, its output (stdout and stderr) kept in $OUT/LABEL and
# shown only when it fails (or with VERBOSE=1); prints one line with its counts.
run() {
    local label=$1 status=0 start=$SECONDS
    shift
    LABELS+=("$label")
    echo "start  $label: $*"
    if [ -n "${VERBOSE:-}" ]; then
        "$@" 2>&1 | tee "$OUT/$label" || status=$?
    elif [[ $label == cargo-* ]]; then
        # Progress: each test binary as cargo starts it (the rest stays in the file).
        "$@" 2>&1 | tee "$OUT/$label" \
            | { grep --line-buffered -E '^ +Running ' | sed -u 's/^ */       /'; true; }
        status=${PIPESTATUS[0]}
    else
        "$@" >"$OUT/$label" 2>&1 || status=$?
    fi
    # A cargo check is green only when every test binary it should run ran to its end.
    if [ -n "${BINARIES:-}" ]; then
        # shellcheck disable=SC2086
        python3 scripts/cargo_binaries.py "$OUT/$label" $BINARIES > "$OUT/$label.binaries" 2>&1 \
            || { [ "$status" != 0 ] || status=1; }
        sed 's/^/       /' "$OUT/$label.binaries"
        cat "$OUT/$label.binaries" >> "$OUT/$label"
    fi
    if [ "$status" = 0 ]; then
        echo "ok     $label: $(counts "$label") ($((SECONDS - start)) s)"
    else
        FAILED+=("$label")
        echo "FAILED $label (exit status $status): $(counts "$label"); its output:"
        [ -n "${VERBOSE:-}" ] || sed 's/^/    /' "$OUT/$label"
    fi
}
# counts LABEL: `N passed, M failed` of the check's output (cargo's `test result:` lines
# added up; else the last `N passed, M failed` line; else the check's own summary).
counts() {
    local file="$OUT/$1"
    case "$1" in
    cargo-*)
        grep -E '^test result: ' "$file" \
            | awk '{ p += $4; f += $6 } END { printf "%d passed, %d failed", p, f }'
        ;;
    mock-lichess)
        grep -oE 'all [0-9]+ checks' "$file" | awk '{ printf "%d passed, 0 failed", $2 }'
        ;;
    load-provide)
        grep -oE 'lost jobs +[0-9]+' "$file" | awk '{ printf "%d lost jobs", $3 }'
        ;;
    *)
        { grep -oE '[0-9]+ passed, [0-9]+ failed' "$file" || echo "no counts"; } | tail -n 1
        ;;
    esac
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
BINARIES="--only variants" run cargo-seam cargo test --locked --no-fail-fast \
    --features test-variants --test variants variant10_seam::
BINARIES=" " run cargo-tests cargo test --locked --no-fail-fast --all-targets
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
# The HTML report in a real browser (issue 19): a Stockfish session and a capablanca session
# through fenguard, `fenguard log --html` and `check --html` rendered by headless Chromium, the
# DOM and html.parser checks; prints `N passed, M failed` (fails under CI without Chromium).
run html-report python3 scripts/html_report_check.py --fenguard target/debug/fenguard
# pychess's own engine probe (issue 21): pychess's modules (Debian's pychess package) run its
# "Add engine" checks and its discovery on `fenguard wrap` links started with no arguments
# (Stockfish, Fairy-Stockfish); prints `N passed, M failed` (fails under CI without pychess).
run pychess-probe python3 scripts/pychess_probe.py --fenguard target/debug/fenguard
# The summary: skips by what was missing (a test that skips twice counts once), then every
# check's counts, then the total.
sort -u "$FENGUARD_SKIP_LOG" > "$OUT/skips-unique"
skipped=$(wc -l < "$OUT/skips-unique")
script_skips=$( (cat "$OUT"/*games* 2>/dev/null || true) | grep -c '^SKIP ' || true)
sed -E 's/^SKIP\(no (.*)\): .*/\1/' "$OUT/skips-unique" | sort | uniq -c \
    | while read -r n what; do echo "skipped $n tests: $what missing"; done
passed=0
failed=0
details=""
for label in "${LABELS[@]}"; do
    c=$(counts "$label")
    details+="${details:+; }$label $c"
    if [[ $c =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
        passed=$((passed + BASH_REMATCH[1]))
        failed=$((failed + BASH_REMATCH[2]))
    fi
done
# A check that failed without counting a failure (a crash, a lost job) counts as one.
for label in "${FAILED[@]}"; do
    c=$(counts "$label")
    if ! [[ $c =~ ^[0-9]+\ passed,\ [1-9] ]]; then failed=$((failed + 1)); fi
done
echo "checks: $details; script cases skipped: $script_skips"
left=$(find "$TMPDIR" -mindepth 1 -maxdepth 1 -printf '%f\n' | sed -E 's/[0-9]{3,}/N/g' | sort | uniq -c \
    | awk '{ printf "%s%s x%d", (NR > 1 ? ", " : ""), $2, $1 }')
echo "temporary files the tests left behind (removed with this run's directory): ${left:-none}"
echo "all: $passed passed, $failed failed, $skipped skipped"
[ "${#FAILED[@]}" = 0 ]
