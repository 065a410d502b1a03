#!/usr/bin/env bash
# fenguard's main job in a minute: a GUI talks UCI to Stockfish through fenguard, and fenguard
# stops the positions that would crash or mislead the engine.
#   scripts/demo.sh          # three cases, each with one line of explanation and the board
#   scripts/demo.sh --full   # then a whole UCI session: both sides, the transcript, the logs
# GUI> is what the GUI sends, GUI< what it receives through fenguard (the engine's lines and
# fenguard's own), engine< what Stockfish got. The position records are shown by `fenguard log`,
# which rebuilds the compact records of positions.jsonl in full. Nothing is left behind: the
# log directories are temporary.
set -euo pipefail
cd "$(dirname "$0")/.."
FULL=""
case "${1:-}" in
--full) FULL=1 ;;
"") ;;
*) echo "usage: scripts/demo.sh [--full]" >&2; exit 2 ;;
esac

# Stockfish (Debian's package installs it as /usr/games/stockfish).
STOCKFISH=""
if [ -x /usr/games/stockfish ]; then
    STOCKFISH=/usr/games/stockfish
elif command -v stockfish >/dev/null 2>&1; then
    STOCKFISH="$(command -v stockfish)"
elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "== installing Stockfish (apt-get install -y stockfish)"
    apt-get update -qq
    apt-get install -y -qq stockfish >/dev/null
    STOCKFISH=/usr/games/stockfish
else
    echo "Stockfish is not installed. Install it with:  sudo apt-get install -y stockfish" >&2
    exit 1
fi

echo "== building fenguard (cargo build)"
cargo build --quiet --locked --bin fenguard
FENGUARD=target/debug/fenguard

WORK="$(mktemp -d "${TMPDIR:-/tmp}/fenguard-demo.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

# board FEN: the piece placement as 8 ranks (White's pieces upper case, empty squares dots).
board() {
    echo "${1%% *}" | tr '/' '\n' \
        | sed -e 's/8/......../g; s/7/......./g; s/6/....../g; s/5/...../g' \
            -e 's/4/..../g; s/3/.../g; s/2/../g; s/1/./g' -e 's/./& /g; s/^/        /'
}

# start_fenguard DIR ARGS...: fenguard (log directory DIR, ARGS before `--`) in front of
# Stockfish as the coprocess FG; its stderr goes to DIR/stderr (its warnings are in its log too).
start_fenguard() {
    local dir=$1
    shift
    mkdir -p "$dir"
    coproc FG { exec "$FENGUARD" --log-dir "$dir" "$@" -- "$STOCKFISH" 2>"$dir/stderr"; }
    FG_IN=${FG[1]}
    FG_OUT=${FG[0]}
    FG_PID_SAVED=$FG_PID
}

# send LINE [quiet]: one line to fenguard, echoed as GUI> unless quiet.
send() {
    printf '%s\n' "$1" >&"$FG_IN"
    [ -n "${2:-}" ] || printf 'GUI>    %s\n' "$1"
}

# expect PREFIX [FILTER]: reads fenguard's output until a line starts with PREFIX (30 s at
# most), printing the lines that match the regex FILTER (default: all; `none`: none); the last
# line is $LAST.
expect() {
    local line filter=${2:-}
    while IFS= read -r -t 30 line <&"$FG_OUT"; do
        if [ -z "$filter" ] || { [ "$filter" != none ] && [[ $line =~ $filter ]]; }; then
            printf 'GUI<    %s\n' "$line"
        fi
        LAST=$line
        if [[ $line == "$1"* ]]; then return 0; fi
    done
    echo "demo: no '$1' from the engine" >&2
    return 1
}

stop_fenguard() {
    send "quit" quiet
    exec {FG_IN}>&-
    status=0
    wait "$FG_PID_SAVED" || status=$?
    [ "$status" = 0 ] || { echo "demo: fenguard exited with status $status" >&2; exit 1; }
}

# engine_got DIR WORDS: the lines Stockfish got that start with one of WORDS (the transcript, -v).
engine_got() {
    grep -E ">engine +($2)" "$1/fenguard.log" | sed -E 's/.*>engine +/engine< /' | tail -n "${3:-2}"
}

MAIN="$WORK/main"
printf '[positions]\nchess960 = "detect"\n' >"$WORK/detect.toml"
start_fenguard "$MAIN" --config "$WORK/detect.toml" -v
send "uci" quiet;     expect "uciok" none
send "isready" quiet; expect "readyok" none

echo
echo "== 1. A position without a white king. Stockfish dies of it (SIGSEGV); fenguard rejects"
echo "   it, answers the GUI's go itself with bestmove 0000, and the engine never sees it."
KINGLESS="4k3/8/8/8/8/8/8/8 w - - 0 1"
board "$KINGLESS"
send "position fen $KINGLESS"
send "go depth 1";    expect "bestmove" 'fenguard|bestmove'
send "isready" quiet; expect "readyok" none

echo
echo "== 2. A board editor's stale castling rights: KQ with no white rook on the board."
echo "   fenguard drops them (one safe reading) and sends Stockfish the repaired position."
STALE="r3k2r/8/8/8/8/8/8/4K3 w KQkq - 0 1"
board "$STALE"
send "position fen $STALE"
send "go depth 8";    expect "bestmove" 'fenguard|bestmove'
engine_got "$MAIN" "position" 1

echo
echo "== 3. Chess960 from a GUI that writes standard notation and never sets UCI_Chess960."
echo "   Its queenside castle is f1c1 (king to c1); Stockfish in Chess960 mode needs"
echo "   king-takes-rook, f1e1. fenguard switches the engine to Chess960 and translates."
START960="bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w KQkq - 0 1"
board "$START960"
send "position fen $START960 moves c1d3 f7f6 d1c3 h7h6"
send "go nodes 2000 searchmoves f1c1"; expect "bestmove" 'fenguard|bestmove'
engine_got "$MAIN" "setoption|position|go" 3
stop_fenguard

echo
echo "== The position records (fenguard log --log-dir DIR --kind position):"
"$FENGUARD" log --log-dir "$MAIN" --kind position

if [ -z "$FULL" ]; then
    echo
    echo "== scripts/demo.sh --full shows a whole UCI session with both sides and the transcript."
    exit 0
fi

echo
echo "== --full: a whole scripted GUI session through fenguard and Stockfish, both sides"
FULLDIR="$WORK/full"
start_fenguard "$FULLDIR" -v
send "uci";                                   expect "uciok"
send "setoption name Threads value 1"
send "isready";                               expect "readyok"
send "ucinewgame"
send "position startpos moves e2e4 e7e5 g1f3"
send "go depth 10";                           expect "bestmove"
send "position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
send "go movetime 300";                       expect "bestmove"
send "quit"
stop_fenguard
echo "== fenguard exited with status 0"
echo "== fenguard.log (the transcript: -v)"
cat "$FULLDIR/fenguard.log"
echo "== fenguard log --log-dir DIR (every record of positions.jsonl, rebuilt in full)"
"$FENGUARD" log --log-dir "$FULLDIR"
echo "== the main job's transcript: what the GUI sent (gui>) and what Stockfish got (>engine)"
grep -E '(gui>|>engine|engine>) *(setoption|position|go|bestmove)' "$MAIN/fenguard.log" || true
