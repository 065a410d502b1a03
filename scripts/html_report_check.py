#!/usr/bin/env python3
"""The HTML report in a real browser (issue 19, SPEC section 14).

Runs a real session through fenguard and Stockfish (valid moves, a repaired FEN, a king-less
FEN rejected, an illegal move rejected) and a capablanca (10x8) session through fenguard and
Fairy-Stockfish, makes `fenguard log --html` of each and a `fenguard check --html` page, then
for each page:
- parses it with Python's html.parser: every tag closed, none mismatched;
- renders it in headless Chromium (`--dump-dom`) and checks that the boards, the verdicts, the
  diagnostics and the filter script's count are in the rendered DOM.
With --screenshot PATH, writes a screenshot of the Stockfish report (1200x1600) for a person.
Then the hostile and the large cases (issue 30):
- a log whose GUI and engine text is HTML and script (`</script>`, `<img onerror>`, in a
  session id, an option, a GUI line, a diagnostic, a verdict, a kind), and a `gap` record:
  nothing of it becomes an element or runs, it shows as text, the gap as a row;
- a game resent move by move 2,000 times (then 2,000 times rejected) and 10,000 positions of
  80-ply games (`scripts/bench-html`'s logs): the page at most a few times the log, only the
  records near the window in the DOM, a jump to the end (`#jump=1`) draws the last record.
With --measure, also builds a 300-ply game log (through Stockfish) and a 10,000-record log
(copies of it as separate sessions), and prints each report's size and Chromium's load time
(`scripts/bench-html` measures the 100,000-position logs).

Prints `N passed, M failed` last; exit 1 on a failure. A missing Chromium, Stockfish or
Fairy-Stockfish fails under CI=true, else the script says so and passes.
"""

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from html.parser import HTMLParser

from check_results import Results  # scripts/check_results.py, beside this file

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "source", "track", "wbr"}
# SVG elements written self-closing (`<use .../>`): html.parser reports them as startendtag.


class TagChecker(HTMLParser):
    """Records unclosed and mismatched tags."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.errors = []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1][0] != tag:
            self.errors.append(f"</{tag}> at {self.getpos()} closes {self.stack[-1:]}")
            return
        self.stack.pop()

    def close(self):
        super().close()
        for tag, pos in self.stack:
            self.errors.append(f"<{tag}> at {pos} never closed")


def need(what, path, ci):
    if path and (os.path.exists(path) or shutil.which(path)):
        return True
    if ci:
        sys.exit(f"{what} is missing under CI=true (apt-get install -y {what})")
    print(f"SKIP(no {what}): scripts/html_report_check.py")
    return False


def chromium_cmd(chromium, profile):
    return [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", f"--user-data-dir={profile}"]


def dump_dom(chromium, page, profile, fragment=""):
    """The rendered DOM of `page` (`#fragment` added) and the seconds Chromium took."""
    start = time.monotonic()
    out = subprocess.run(chromium_cmd(chromium, profile)
                         + ["--window-size=1200,1600", "--dump-dom", f"file://{page}{fragment}"],
                         capture_output=True, text=True, timeout=180)
    return out.stdout, time.monotonic() - start


def session(fenguard, engine, log_dir, lines, timeout=120):
    """Runs the GUI lines through fenguard in front of `engine`; returns its stdout."""
    os.makedirs(log_dir, exist_ok=True)
    proc = subprocess.Popen([fenguard, "--log-dir", log_dir, "--", engine],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    out = []
    for line in lines:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        if line.startswith("go") or line == "isready" or line == "uci":
            want = {"go": "bestmove", "isready": "readyok", "uci": "uciok"}[line.split()[0]]
            while True:
                got = proc.stdout.readline()
                if not got:
                    break
                out.append(got)
                if got.startswith(want):
                    break
    proc.stdin.write("quit\n")
    proc.stdin.close()
    out.append(proc.stdout.read())
    proc.wait(timeout=timeout)
    time.sleep(0.1)
    return "".join(out)


def report(fenguard, log_file, page):
    with open(page, "w") as f:
        subprocess.run([fenguard, "log", "--html", log_file], stdout=f, check=True, timeout=300)
    return open(page, encoding="utf-8").read()


def tags_ok(r, name, html):
    p = TagChecker()
    p.feed(html)
    p.close()
    r.check(f"{name}: html.parser finds every tag closed", not p.errors, str(p.errors[:3]))


def stockfish_lines():
    # The faults first: the top of the screenshot shows them.
    return ["uci", "isready",
            "position fen 4k3/8/8/8/8/8/8/4K2R w KQ - 0 1", "go nodes 1000",
            "position fen 8/8/8/8/8/8/8/4K3 w - - 0 1", "go nodes 1000",
            "position startpos moves e2e4 e7e5 e2e5", "go nodes 1000",
            "position startpos moves e2e4 e7e5", "go nodes 2000",
            "position startpos moves e2e4 e7e5 g1f3", "go nodes 2000",
            "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1", "go nodes 1000",
            "isready"]


def capablanca_lines():
    return ["uci", "setoption name UCI_Variant value capablanca", "isready",
            "position startpos moves e2e4", "go nodes 2000",
            "position startpos moves e2e4 e7e5 c1d3", "go nodes 2000",
            "position fen rnabqkbcnr/pppppppppp/11/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
            "go nodes 1000", "isready"]


def check_dom(r, name, dom, wants, boards_at_least):
    r.check(f"{name}: rendered ({len(dom)} bytes of DOM)", "<main id=\"timeline\"" in dom)
    n = dom.count('<svg class="board"')
    r.check(f"{name}: {n} boards in the DOM (at least {boards_at_least})", n >= boards_at_least)
    for want in wants:
        r.check(f"{name}: DOM has {want!r}", want in dom)
    r.check(f"{name}: the filter script ran", " shown</span>" in dom, dom[:0])
    lazy, drawn = dom.count('class="lazy'), dom.count('class="drawn"')
    r.check(f"{name}: the script drew the valid positions near the top ({drawn} drawn, "
            f"{lazy} left for scrolling)", drawn > 0 or lazy == 0)


def game_lines(plies, seed):
    """A random game of `plies` plies (python-chess), sent move by move with a search each."""
    import chess
    rng = random.Random(seed)
    while True:
        board = chess.Board()
        moves = []
        while len(moves) < plies and not board.is_game_over(claim_draw=False):
            mv = rng.choice(list(board.legal_moves))
            board.push(mv)
            moves.append(mv.uci())
        if len(moves) == plies:
            break
    lines = ["uci", "isready", "ucinewgame"]
    for i in range(1, plies + 1):
        lines.append("position startpos moves " + " ".join(moves[:i]))
        lines.append("go nodes 30")
    lines.append("isready")
    return lines


def measure(r, args, tmp, profile):
    log_dir = os.path.join(tmp, "game300")
    session(args.fenguard, args.stockfish, log_dir, game_lines(300, 20261202), timeout=600)
    game_log = os.path.join(log_dir, "positions.jsonl")
    records = open(game_log).read().splitlines()
    big = os.path.join(tmp, "big.jsonl")
    count = 0
    with open(big, "w") as f:
        copy = 0
        while count < 10000:
            copy += 1
            for line in records:
                rec = json.loads(line)
                rec["session"] = f"{rec['session']}-copy{copy}"
                f.write(json.dumps(rec, separators=(",", ":")) + "\n")
                count += 1
                if count == 10000:
                    break
    blank = os.path.join(tmp, "blank.html")
    open(blank, "w").write("<!DOCTYPE html><html><body></body></html>")
    _, base = dump_dom(args.chromium, blank, profile)
    for name, log, limit in [("300-ply game", game_log, 2 << 20),
                             ("10,000 records", big, 8 << 20)]:
        page = os.path.join(tmp, name.replace(" ", "_").replace(",", "") + ".html")
        start = time.monotonic()
        html = report(args.fenguard, log, page)
        made = time.monotonic() - start
        dom, secs = dump_dom(args.chromium, page, profile)
        n_records = sum(1 for _ in open(log))
        boards = dom.count('<svg class="board"')
        lazy = dom.count('class="lazy')
        print(f"MEASURE {name}: {n_records} records, {len(html.encode())} bytes of HTML "
              f"(made in {made:.2f} s), Chromium --dump-dom {secs:.2f} s "
              f"(blank page {base:.2f} s), {boards} boards drawn, {lazy} drawn on scrolling")
        r.check(f"{name}: report under {limit >> 20} MB", len(html.encode()) < limit)
        tags_ok(r, name, html)


XSS = "<img src=x onerror=\"document.title='XSS'\">"


def hostile_log(path):
    """Records whose text is HTML and script, and a gap."""
    end = "</script><script>document.title='XSS'</script><!--"
    raw = f"position startpos moves e2e4 {XSS}{end}"
    records = [
        {"ts": "2026-12-03T10:00:00.000001Z", "session": f"s{XSS}", "seq": 1,
         "kind": "engine-start", "command": XSS, "args": [end], "pid": 1, "restart": 0},
        {"ts": "2026-12-03T10:00:00.000002Z", "session": f"s{XSS}", "seq": 9, "kind": "gap",
         "lost": 7, "first_seq": 2, "last_seq": 8},
        {"ts": "2026-12-03T10:00:00.000003Z", "session": f"s{XSS}", "seq": 10,
         "kind": "option", "name": XSS, "value": end},
        {"ts": f"2026-12-03T10:00:00.000004Z{XSS}", "session": f"s{XSS}", "seq": 11,
         "kind": "position", "raw": raw, "verdict": f"rejected{XSS}",
         "diagnostics": [{"code": f"illegal-move{XSS}", "severity": f"error{XSS}",
                          "message": f"move 2 `{XSS}` is illegal", "span": [29, 40],
                          "fix": end}],
         "fen_in": "startpos", "fen_out": None, "moves_in": ["e2e4", XSS], "moves_out": [],
         "chess960": False, "final_fen": None, "sent": None},
        {"ts": "2026-12-03T10:00:00.000005Z", "session": f"s{XSS}", "seq": 12,
         "kind": f"kind{XSS}", "note": end},
        {"ts": "2026-12-03T10:00:00.000006Z", "session": "t", "seq": 1, "kind": "position",
         "raw": "position startpos moves e2e4", "verdict": "valid", "diagnostics": [],
         "fen_in": "startpos", "fen_out": "startpos", "moves_in": ["e2e4"],
         "moves_out": ["e2e4"], "chess960": False,
         "final_fen": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
         "sent": "position startpos moves e2e4"},
        {"ts": "2026-12-03T10:00:00.000007Z", "session": "t", "seq": 2, "kind": "search",
         "position_seq": 1, "go": f"go {XSS}", "bestmove": f"e7e5{XSS}",
         "ponder": end, "elapsed_ms": 1, "diagnostics": []},
    ]
    with open(path, "w") as f:
        for rec in records:
            f.write(json.dumps(rec) + "\n")


def check_hostile(r, args, tmp, profile):
    log = os.path.join(tmp, "hostile.jsonl")
    hostile_log(log)
    page = os.path.join(tmp, "hostile.html")
    html = report(args.fenguard, log, page)
    tags_ok(r, "hostile report", html)
    r.check("hostile report: only the page's 3 scripts", html.count("<script") == 3
            and html.count("</script>") == 3, str(html.count("<script")))
    dom, _ = dump_dom(args.chromium, page, profile)
    r.check("hostile report: drawn", 'data-open-ms="' in dom, dom[-500:])
    r.check("hostile report: no script of the log ran", "<title>fenguard session report</title>"
            in dom and "XSS</title>" not in dom)
    r.check("hostile report: no element from the log", "<img" not in dom, dom[:0])
    r.check("hostile report: the text shown as text",
            "&lt;img src=x onerror=\"document.title='XSS'\"&gt;" in dom
            and "&lt;/script&gt;&lt;script&gt;" in dom)
    r.check("hostile report: the gap as a row", "7 records lost (seq 2–8)" in dom)
    r.check("hostile report: the GUI's line rebuilt, its span marked",
            "gui:  position startpos moves e2e4 &lt;img" in dom and "<mark class=" in dom)


def check_large(r, args, tmp, profile):
    """The logs of scripts/bench-html, smaller: growing lines and 10,000 positions."""
    from importlib.machinery import SourceFileLoader
    bench = SourceFileLoader("bench_html", os.path.join(os.path.dirname(
        os.path.abspath(__file__)), "bench-html")).load_module()
    logs = [("growing", lambda p: bench.growing(p, 2000, False), 1),
            ("growing-rejected", lambda p: bench.growing(p, 2000, True), 4),
            ("10,000 positions", lambda p: bench.games(p, 10000, 80, 10, 20261203), 1)]
    for name, make, ratio in logs:
        log = os.path.join(tmp, name.replace(",", "").replace(" ", "-") + ".jsonl")
        make(log)
        page = log[:-len(".jsonl")] + ".html"
        start = time.monotonic()
        html = report(args.fenguard, log, page)
        made = time.monotonic() - start
        size, page_size = os.path.getsize(log), len(html.encode())
        r.check(f"{name}: page {page_size} bytes for a log of {size} (at most {ratio}x)",
                page_size <= ratio * size)
        tags_ok(r, name, html)
        last_seq = json.loads(open(log).read().splitlines()[-1])["seq"]
        for fragment in ["", "#jump=1"]:
            dom, secs = dump_dom(args.chromium, page, profile, fragment)
            sections = dom.count("<section ")
            opened = (m := re.search(r'data-open-ms="([0-9.]+)"', dom)) and m.group(1)
            jumped = (m := re.search(r'data-jump-ms="([0-9.]+)"', dom)) and m.group(1)
            print(f"MEASURE {name}{fragment}: made in {made:.2f} s, opened in {opened} ms"
                  f"{f', jumped in {jumped} ms' if jumped else ''}, {sections} records in the "
                  f"DOM, Chromium {secs:.2f} s")
            r.check(f"{name}{fragment}: drawn, {sections} records in the DOM (at most 200)",
                    opened is not None and 0 < sections <= 200)
            if fragment:
                r.check(f"{name}{fragment}: the last record (seq {last_seq}) drawn",
                        jumped is not None and f"seq {last_seq} " in dom)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fenguard", default="target/debug/fenguard")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--fairy", default="/usr/games/fairy-stockfish")
    ap.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    ap.add_argument("--screenshot", help="write a screenshot of the Stockfish report here")
    ap.add_argument("--measure", action="store_true", help="size and load time of big logs")
    args = ap.parse_args()
    ci = os.environ.get("CI") == "true"
    have = [need("chromium", args.chromium, ci), need("stockfish", args.stockfish, ci),
            need("fairy-stockfish", args.fairy, ci)]
    if not all(have):
        print("0 passed, 0 failed")
        return 0
    args.fenguard = os.path.abspath(args.fenguard)
    r = Results()
    tmp = tempfile.mkdtemp(prefix="fenguard-html-")
    profile = tempfile.mkdtemp(prefix="fenguard-chromium-")
    try:
        # Stockfish.
        sf_dir = os.path.join(tmp, "sf")
        out = session(args.fenguard, args.stockfish, sf_dir, stockfish_lines())
        r.check("stockfish session: bestmoves", out.count("bestmove") == 6, out[-300:])
        page = os.path.join(tmp, "stockfish.html")
        html = report(args.fenguard, os.path.join(sf_dir, "positions.jsonl"), page)
        tags_ok(r, "stockfish report", html)
        dom, _ = dump_dom(args.chromium, page, profile)
        check_dom(r, "stockfish report", dom,
                  ["data-verdict=\"valid\"", "data-verdict=\"repaired\"",
                   "data-verdict=\"rejected\"", "error[missing-king]",
                   "error[illegal-move]", "castling-without-rook", "engine got (repaired)",
                   "GUI's position before move 3 (e2e5)", "<line class=\"ar\"",
                   "data-kind=\"engine-start\"", "data-kind=\"engine-exit\"",
                   "data-kind=\"search\""], 6)
        if args.screenshot:
            shot = os.path.abspath(args.screenshot)
            subprocess.run(chromium_cmd(args.chromium, profile)
                           + [f"--screenshot={shot}", "--window-size=1200,1600",
                              f"file://{page}"], capture_output=True, timeout=180)
            r.check(f"screenshot written: {shot}", os.path.getsize(shot) > 10000)
        # Fairy-Stockfish, capablanca.
        fs_dir = os.path.join(tmp, "fairy")
        out = session(args.fenguard, args.fairy, fs_dir, capablanca_lines())
        r.check("capablanca session: bestmoves", out.count("bestmove") == 3, out[-300:])
        page = os.path.join(tmp, "capablanca.html")
        html = report(args.fenguard, os.path.join(fs_dir, "positions.jsonl"), page)
        tags_ok(r, "capablanca report", html)
        dom, _ = dump_dom(args.chromium, page, profile)
        check_dom(r, "capablanca report", dom,
                  ["viewBox=\"0 0 10 8\"", "(capablanca)", "data-verdict=\"rejected\"",
                   "error[bad-digit]", "<line class=\"ar\""], 2)
        # fenguard check --html, crazyhouse pockets.
        page = os.path.join(tmp, "check.html")
        fens = "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nn] w KQkq - 0 1\n" \
               "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR[Nn] w KQkq - 0 1 x\n"
        with open(page, "w") as f:
            subprocess.run([args.fenguard, "check", "--html", "--variant", "crazyhouse", "-"],
                           input=fens, text=True, stdout=f, timeout=60)
        html = open(page, encoding="utf-8").read()
        tags_ok(r, "check report", html)
        dom, _ = dump_dom(args.chromium, page, profile)
        check_dom(r, "check report", dom, ["in hand: white N · black n",
                                           "data-verdict=\"valid\""], 2)
        check_hostile(r, args, tmp, profile)
        check_large(r, args, tmp, profile)
        if args.measure:
            measure(r, args, tmp, profile)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(profile, ignore_errors=True)
    print(f"{r.passed} passed, {r.failed} failed")
    return 1 if r.failed else 0


if __name__ == "__main__":
    sys.exit(main())
