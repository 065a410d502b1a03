"""The GUI side of the soak test (scripts/soak.py): raw UCI over pipes, every `bestmove`
accounted for and checked with python-chess 1.11.2 (`Board.parse_uci`, `Board.uci`)."""

import time


class Stats:
    """Counters of the run; `events` keeps the first problems for the report."""

    def __init__(self):
        self.games = self.moves = self.zero_answers = self.unexplained_zero = 0
        self.retries_exhausted = self.lost = self.hangs = self.illegal = self.stray = 0
        self.exited_infos = self.leaked = 0
        self.fenguard_infos = {}  # `info string fenguard: <first words>` -> count
        self.events = []

    def problem(self, text):
        if len(self.events) < 20:
            self.events.append(text)


class Client:
    """The GUI side: one search at a time, every `bestmove` accounted for."""

    def __init__(self, proxy, killer, args, stats):
        self.proxy, self.killer, self.args, self.stats = proxy, killer, args, stats
        self.dead = False
        self.handshaken = False

    def note(self, line):
        """Accounts for a line that answers nothing the client waits for."""
        words = line.split()
        if line.startswith("info string fenguard: "):
            key = " ".join(words[3:5]).split("(")[0].rstrip(":")
            self.stats.fenguard_infos[key] = self.stats.fenguard_infos.get(key, 0) + 1
            if line.startswith("info string fenguard: engine exited"):
                self.stats.exited_infos += 1
        elif words and words[0] in ("readyok", "uciok", "id", "option") and (
                self.handshaken or words[0] == "readyok"):
            self.stats.leaked += 1
            self.stats.problem(f"unasked `{line}`")

    def drain(self, where):
        for line in self.proxy.drain():
            if line is None:
                self.dead = True
            elif line.startswith("bestmove"):
                self.stats.stray += 1
                self.stats.problem(f"stray `{line}` {where}")
            else:
                self.note(line)

    def wait_for(self, prefix, timeout, before=None, after_kills=False):
        """The first line starting with `prefix` (others noted); None at end, False at timeout.
        A line starting with `before` that arrives first is returned as ("before", line).
        With `after_kills`, the timeout counts from the last kill when that is later."""
        start = time.monotonic()
        while True:
            deadline = start + timeout
            if after_kills:
                deadline = max(deadline, self.killer.last_kill + timeout)
            line = self.proxy.next_line(deadline)
            if line is None:
                self.dead = True
                return None
            if line is False and after_kills and self.killer.last_kill + timeout > deadline:
                continue
            if line is False or line.startswith(prefix):
                return line
            if before and line.startswith(before):
                return ("before", line)
            self.note(line)

    def handshake(self):
        self.proxy.send("uci")
        if not self.wait_for("uciok", 60):
            return False
        self.handshaken = True
        for opt in ("Threads value 1", "Hash value 16"):
            self.proxy.send(f"setoption name {opt}")
        return self.ready(30)

    def ready(self, timeout):
        self.proxy.send("isready")
        answer = self.wait_for("readyok", timeout, before="bestmove")
        if isinstance(answer, tuple):
            self.stats.stray += 1
            self.stats.problem(f"stray `{answer[1]}` before readyok")
            answer = self.wait_for("readyok", timeout)
        return bool(answer)

    def search(self, position):
        """`bestmove` text for `position`, or None (lost, hang, or fenguard gone)."""
        go = f"go nodes {self.args.nodes}"
        for _ in range(self.args.retries + 1):
            self.drain(f"before `{go}`")
            self.proxy.send(position)
            self.proxy.send(go)
            line = self.wait_for("bestmove", self.args.timeout, after_kills=True)
            if line is None:
                self.stats.problem(f"fenguard ended during a search after `{position}`")
                return None
            if line is False:
                return self.timed_out(position)
            move = line.split()[1] if len(line.split()) > 1 else ""
            if move != "0000":
                return move
            self.stats.zero_answers += 1
            if self.stats.zero_answers - self.stats.unexplained_zero > self.killer.count():
                self.stats.unexplained_zero += 1
                self.stats.problem(f"`bestmove 0000` with no kill, after `{position}`")
        self.stats.retries_exhausted += 1
        self.stats.problem(f"{self.args.retries + 1} x `bestmove 0000` after `{position}`")
        return None

    def timed_out(self, position):
        """No `bestmove` in time: `stop` and `isready`; `readyok` may come first (UCI allows an
        engine to answer `isready` during a search). None when the `bestmove` never comes."""
        self.stats.hangs += 1
        self.proxy.send("stop")
        self.proxy.send("isready")
        ready = False
        while True:
            answer = self.wait_for("bestmove", self.args.timeout, before="readyok")
            if not isinstance(answer, tuple):
                break
            ready = True
        if not answer:
            self.stats.lost += 1
            what = "fenguard answered isready" if ready else "no readyok either"
            self.stats.problem(f"lost bestmove ({what}) after `{position}`")
            self.dead = self.dead or not ready
            return None
        self.stats.problem(f"`{answer}` only after `stop` after `{position}`")
        if not ready:
            self.wait_for("readyok", self.args.timeout)
        return answer.split()[1]

    def play(self, board, rng):
        """Plays one game; True when it reached its end with every move checked."""
        proxy, args = self.proxy, self.args
        proxy.send(f"setoption name UCI_Chess960 value {'true' if board.chess960 else 'false'}")
        proxy.send("ucinewgame")
        if not self.ready(args.timeout):
            self.stats.problem("no readyok after ucinewgame")
            self.dead = True
            return False
        if board.chess960:
            root = board.shredder_fen() if rng.random() < 0.5 else board.fen()
            head = f"position fen {root}"
        else:
            head = "position startpos"
        ucis = []
        for _ in range(args.random_plies):
            if board.is_game_over():
                break
            move = rng.choice(list(board.legal_moves))
            ucis.append(board.uci(move))
            board.push(move)
        for _ in range(args.max_plies):
            if board.is_game_over():
                break
            position = head + (" moves " + " ".join(ucis) if ucis else "")
            text = self.search(position)
            if text is None:
                return False
            try:
                move = board.parse_uci(text)
                ok = board.uci(move) == text
            except ValueError:
                ok = False
            if not ok:
                self.stats.illegal += 1
                self.stats.problem(f"illegal `bestmove {text}` after `{position}`")
                return False
            self.stats.moves += 1
            ucis.append(text)
            board.push(move)
        return True
