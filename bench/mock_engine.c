/* mock_engine: a minimal UCI engine for scripts/bench-relay (SPEC section 9).
 *
 * Answers `uci` with id, one option (UCI_Chess960) and `uciok`; `isready` with `readyok`;
 * `position`, `setoption`, `ucinewgame`, `stop` silently; `go` with a burst of N lines
 * `info depth D seldepth D multipv 1 score cp X nodes N nps N time T pv e2e4 e7e5 ...`
 * (a pv legal from the start position) then `bestmove e2e4 ponder e7e5`; `quit` exits.
 *
 * Usage: mock_engine [BURST_LINES]   (default: $MOCK_BURST, else 100000)
 * With MOCK_PV="m1 m2 ..." the burst's pv is that text instead (scripts/bench-relay's castling
 * translation case: a pv starting with a castle in king-takes-rook form, after a Chess960
 * `position fen`); the bestmove is then its first move.
 * Output is flushed after every line, as real engines do (Stockfish writes std::endl);
 * MOCK_FLUSH=burst buffers a whole burst instead. Build: gcc -O2 -o mock_engine mock_engine.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int flush_per_line = 1;
static const char *mock_pv = NULL;

static void put(const char *line, size_t len) {
    fwrite(line, 1, len, stdout);
    if (flush_per_line) fflush(stdout);
}

static void say(const char *line) { put(line, strlen(line)); }

static void burst(long lines) {
    char buf[1024];
    if (mock_pv) {
        for (long i = 0; i < lines; i++) {
            long depth = 1 + i % 40;
            int len = snprintf(buf, sizeof buf,
                               "info depth %ld seldepth %ld multipv 1 score cp %ld nodes %ld nps %ld "
                               "time %ld pv %s\n",
                               depth, depth + 4, 20 + i % 13, 1000 * (i + 1), 1500000L, i / 10,
                               mock_pv);
            put(buf, (size_t)len);
        }
        size_t first = strcspn(mock_pv, " ");
        int len = snprintf(buf, sizeof buf, "bestmove %.*s\n", (int)first, mock_pv);
        put(buf, (size_t)len);
        fflush(stdout);
        return;
    }
    for (long i = 0; i < lines; i++) {
        long depth = 1 + i % 40;
        int len = snprintf(buf, sizeof buf,
                           "info depth %ld seldepth %ld multipv 1 score cp %ld nodes %ld nps %ld "
                           "time %ld pv e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7\n",
                           depth, depth + 4, 20 + i % 13, 1000 * (i + 1), 1500000L, i / 10);
        put(buf, (size_t)len);
    }
    say("bestmove e2e4 ponder e7e5\n");
    fflush(stdout);
}

static int is_cmd(const char *line, const char *cmd) {
    size_t n = strlen(cmd);
    return strncmp(line, cmd, n) == 0 && (line[n] == '\0' || line[n] == ' ' || line[n] == '\n' ||
                                          line[n] == '\r');
}

int main(int argc, char **argv) {
    const char *env = getenv("MOCK_BURST");
    long lines = argc > 1 ? atol(argv[1]) : env ? atol(env) : 100000;
    const char *flush = getenv("MOCK_FLUSH");
    mock_pv = getenv("MOCK_PV");
    if (mock_pv && (strlen(mock_pv) == 0 || strlen(mock_pv) > 700)) mock_pv = NULL;
    flush_per_line = !(flush && strcmp(flush, "burst") == 0);
    static char outbuf[1 << 16];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    char line[1 << 16];
    while (fgets(line, sizeof line, stdin)) {
        if (is_cmd(line, "uci")) {
            say("id name mock_engine\n");
            say("id author fenguard bench\n");
            say("option name UCI_Chess960 type check default false\n");
            say("option name Hash type spin default 16 min 1 max 1024\n");
            say("uciok\n");
            fflush(stdout);
        } else if (is_cmd(line, "isready")) {
            say("readyok\n");
            fflush(stdout);
        } else if (is_cmd(line, "go")) {
            burst(lines);
        } else if (is_cmd(line, "quit")) {
            break;
        }
    }
    fflush(stdout);
    return 0;
}
