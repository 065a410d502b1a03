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
echo "   (GUI> is what the GUI sends, GUI< what it receives through fenguard: the engine's lines
   and fenguard's own)"
coproc FG { exec "$FENGUARD" --log-dir "$LOG_DIR" -v -- "$STOCKFISH"; }
FG_IN=${FG[1]}
FG_OUT=${FG[0]}

send() {
    printf '%s\n' "$1" >&"$FG_IN"
    printf 'GUI>    %s\n' "$1"
}

# Prints engine lines until one starts with $1 (30 s at most); the last line read is in $LAST.
expect() {
    local line
    while IFS= read -r -t 30 line <&"$FG_OUT"; do
        printf 'GUI<    %s\n' "$line"
        LAST=$line
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

# 5. fenguard's main job on real input: malformed and stale positions, and Chess960 castling.
# Prints the records of a positions.jsonl, one pretty JSON object each (jq, else python3).
show_records() {
    if command -v jq >/dev/null 2>&1; then
        jq . "$1"
    else
        while IFS= read -r record; do printf '%s\n' "$record" | python3 -m json.tool; done <"$1"
    fi
}

# Starts fenguard (log dir $1, further fenguard arguments after it) as the coprocess FG.
start_fenguard() {
    local log_dir=$1
    shift
    echo "== $FENGUARD --log-dir $log_dir${*:+ $*} -- $STOCKFISH"
    coproc FG { exec "$FENGUARD" --log-dir "$log_dir" "$@" -- "$STOCKFISH"; }
    FG_IN=${FG[1]}
    FG_OUT=${FG[0]}
    FG_PID_SAVED=$FG_PID
}

# Ends the GUI's input and waits for fenguard.
stop_fenguard() {
    send "quit"
    exec {FG_IN}>&-
    status=0
    wait "$FG_PID_SAVED" || status=$?
    echo "== fenguard exited with status $status"
}

echo
echo "== 5a. A FEN without a white king (Stockfish 15.1 and 18 die on it with SIGSEGV):"
echo "   fenguard rejects it, answers the next 'go' itself, and the engine stays usable."
echo "   Then a board editor's stale castling right is repaired."
LOG_DIR2="$(mktemp -d "${TMPDIR:-/tmp}/fenguard-demo.XXXXXX")"
start_fenguard "$LOG_DIR2"
send "uci";                                   expect "uciok"
send "isready";                               expect "readyok"
send "position fen 4k3/8/8/8/8/8/8/8 w - - 0 1"
send "go depth 1";                            expect "bestmove"
send "isready";                               expect "readyok"
send "position fen 4rkr1/4p1p1/8/8/8/8/8/5K1R w K - 0 1"
send "go depth 5";                            expect "bestmove"
stop_fenguard
echo "== $LOG_DIR2/positions.jsonl"
show_records "$LOG_DIR2/positions.jsonl"

echo
echo "== 5b. A Chess960 game from a GUI that writes standard notation and never sets"
echo "   UCI_Chess960 (config: chess960 = \"detect\"). The GUI's O-O-O is f1c1; Stockfish"
echo "   in Chess960 mode needs king-takes-rook, f1e1. The transcript (-v) shows both sides."
LOG_DIR3="$(mktemp -d "${TMPDIR:-/tmp}/fenguard-demo.XXXXXX")"
CONFIG3="$LOG_DIR3/fenguard.toml"
printf '[positions]\nchess960 = "detect"\n' >"$CONFIG3"
START960="bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w KQkq - 0 1"
MOVES="c1d3 f7f6 d1c3 h7h6"
start_fenguard "$LOG_DIR3" --config "$CONFIG3" -v
send "uci";                                   expect "uciok"
send "isready";                               expect "readyok"
send "ucinewgame"
send "position fen $START960 moves $MOVES"
send "go nodes 2000 searchmoves f1c1";        expect "bestmove"
MOVES="$MOVES $(echo "$LAST" | cut -d' ' -f2)"
for _ in 1 2 3 4; do
    send "position fen $START960 moves $MOVES"
    send "go nodes 20000";                    expect "bestmove"
    MOVES="$MOVES $(echo "$LAST" | cut -d' ' -f2)"
done
stop_fenguard
echo "== $LOG_DIR3/fenguard.log: what the GUI sent (gui>) and what Stockfish got (>engine)"
grep -E '(gui>|>engine|engine>) *(setoption|position|go|bestmove)' "$LOG_DIR3/fenguard.log" || true
echo "== $LOG_DIR3/positions.jsonl"
show_records "$LOG_DIR3/positions.jsonl"
