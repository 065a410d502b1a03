"""Processes for the soak test (scripts/soak.py): fenguard over pipes, /proc readers, the killer.

Linux only: children and memory are read from /proc (proc(5)).
"""

import os
import queue
import signal
import subprocess
import threading
import time


class Proxy:
    """fenguard as a child process; its stdout lines go to a queue as (monotonic time, line)."""

    def __init__(self, cmd, stderr_path):
        self.stderr = open(stderr_path, "wb")
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.stderr, bufsize=0)
        self.lines = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for raw in self.proc.stdout:
            self.lines.put((time.monotonic(), raw.decode("utf-8", "replace").rstrip("\r\n")))
        self.lines.put((time.monotonic(), None))

    def send(self, line):
        try:
            self.proc.stdin.write((line + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def next_line(self, deadline):
        """The next line, None at end of output, or False when the deadline passes first."""
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        try:
            return self.lines.get(timeout=left)[1]
        except queue.Empty:
            return False

    def drain(self):
        """Lines already received (no waiting)."""
        out = []
        while True:
            try:
                out.append(self.lines.get_nowait()[1])
            except queue.Empty:
                return out


def children(pid):
    """Pids of the children of every thread of `pid` (Linux /proc)."""
    found = set()
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as f:
                found.update(int(p) for p in f.read().split())
        except OSError:
            pass
    return found


def proc_state(pid):
    """(state letter, start time in clock ticks) of a process, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return fields[0], int(fields[19])
    except (OSError, IndexError, ValueError):
        return None


def still_running(pid, start):
    """Whether the process `pid` that started at `start` still runs (not a zombie)."""
    now = proc_state(pid)
    return now is not None and now[1] == start and now[0] != "Z"


def status_kib(pid, key):
    """A `VmHWM`/`VmRSS`-like field of /proc/<pid>/status in KiB, or None."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


class Killer(threading.Thread):
    """SIGKILLs fenguard's engine child after exponential intervals of mean `rate` seconds,
    `limit` times at most (0: no limit).

    After a kill, with probability `early_share`, the next kill instead waits for the new engine
    and hits it within `early_window` seconds of its start (during fenguard's replay)."""

    def __init__(self, fenguard_pid, rate, rng, early_share=0.0, early_window=0.06, limit=0):
        super().__init__(daemon=True)
        self.pid, self.rate, self.rng, self.limit = fenguard_pid, rate, rng, limit
        self.early_share, self.early_window = early_share, early_window
        self.stop_event = threading.Event()
        self.lock = threading.Lock()
        self.kills = []  # (wall-clock time, pid, early)
        self.last_kill = 0.0  # monotonic time of the last kill
        self.seen = set()  # (pid, start time) of every process killed

    def run(self):
        early = False
        while self.rate > 0 and not (self.limit and self.count() >= self.limit):
            if early:
                child = self.wait_for_new_child()
                if child is None or self.stop_event.wait(self.rng.uniform(0, self.early_window)):
                    return
            elif self.stop_event.wait(self.rng.expovariate(1.0 / self.rate)):
                return
            killed = any([self.kill(child, early) for child in sorted(children(self.pid))])
            early = killed and self.rng.random() < self.early_share

    def wait_for_new_child(self):
        """Polls every 2 ms for a child not killed yet; None when stopped."""
        while not self.stop_event.wait(0.002):
            for child in children(self.pid):
                state = proc_state(child)
                if state is not None and (child, state[1]) not in self.seen:
                    return child
        return None

    def kill(self, child, early):
        state = proc_state(child)
        if state is None or state[0] == "Z" or (child, state[1]) in self.seen:
            return False
        self.seen.add((child, state[1]))
        with self.lock:  # counted first: its `bestmove 0000` may come at once
            self.kills.append((time.time(), child, early))
            self.last_kill = time.monotonic()
            try:
                os.kill(child, signal.SIGKILL)
            except OSError:
                self.kills.pop()
                return False
        return True

    def count(self):
        with self.lock:
            return len(self.kills)
