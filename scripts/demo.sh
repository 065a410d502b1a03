#!/usr/bin/env bash
# fenguard's main job, end to end: a scripted chess GUI talks UCI to Stockfish through fenguard.
# Shows the conversation (GUI lines and engine lines), fenguard's exit status and its logs.
set -euo pipefail
cd "$(dirname "$0")/.."

# 1. Stockfish (Debian's package installs it as /usr/games/stockfish).
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

# 2. Build.
echo "== building fenguard"
cargo build --quiet --locked --bin fenguard
FENGUARD=target/debug/fenguard

# 3. A scripted GUI session through fenguard.
LOG_DIR="$(mktemp -d "${TMPDIR:-/tmp}/fenguard-demo.XXXXXX")"
echo "== $FENGUARD --log-dir $LOG_DIR -v -- $STOCKFISH"
echo "   (GUI> is what the GUI sends, ENGINE< what it receives through fenguard)"
coproc FG { exec "$FENGUARD" --log-dir "$LOG_DIR" -v -- "$STOCKFISH"; }
FG_IN=${FG[1]}
FG_OUT=${FG[0]}

send() {
    printf '%s\n' "$1" >&"$FG_IN"
    printf 'GUI>    %s\n' "$1"
}

# Prints engine lines until one starts with $1 (30 s at most).
expect() {
    local line
    while IFS= read -r -t 30 line <&"$FG_OUT"; do
        printf 'ENGINE< %s\n' "$line"
        if [[ $line == "$1"* ]]; then return 0; fi
    done
    echo "demo: no '$1' from the engine" >&2
    return 1
}

send "uci";                                   expect "uciok"
send "setoption name Threads value 1"
send "isready";                               expect "readyok"
send "ucinewgame"
send "position startpos moves e2e4 e7e5 g1f3"
send "go depth 10";                           expect "bestmove"
send "position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
send "go movetime 300";                       expect "bestmove"
send "quit"
FG_PID_SAVED=$FG_PID
exec {FG_IN}>&-
status=0
wait "$FG_PID_SAVED" || status=$?
echo "== fenguard exited with status $status"

# 4. The logs.
echo "== $LOG_DIR/fenguard.log (the transcript: -v)"
cat "$LOG_DIR/fenguard.log"
echo "== $LOG_DIR/positions.jsonl"
cat "$LOG_DIR/positions.jsonl"
