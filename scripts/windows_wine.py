"""The harness of scripts/windows_run.py: Wine, fenguard.exe under it with its pipes collected,
and finding Windows processes from Linux.

A Windows process under Wine is a Linux process whose /proc/PID/cmdline is its Windows command
line; every fake engine gets a unique marker argument. Windows process ids and the parent tree
come from `winedbg --command "info proc"`.
"""

import json
import os
import re
import signal
import subprocess
import threading
import time
import uuid


PATIENCE = 20.0  # seconds; Wine starts processes slowly


def log(msg):
    print(msg, flush=True)


class Failure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failure(msg)


def wait_until(probe, patience=PATIENCE, step=0.05):
    end = time.monotonic() + patience
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > end:
            return value
        time.sleep(step)


class Wine:
    """The Wine prefix and path translation."""

    def __init__(self, prefix):
        self.prefix = prefix
        self.env = dict(os.environ)
        for name in ("XDG_STATE_HOME", "RUST_LOG", "FENGUARD_CONFIG", "FAKE_ENGINE_RECORD"):
            self.env.pop(name, None)
        self.env.update(WINEPREFIX=prefix, WINEDEBUG="-all", WINEDLLOVERRIDES="mscoree,mshtml=")

    def run(self, args, **kw):
        return subprocess.run(["wine", *args], env=self.env, capture_output=True, timeout=120, **kw)

    def boot(self):
        subprocess.run(["wineboot", "--init"], env=self.env, capture_output=True, timeout=600)

    def win_path(self, unix):
        """Z:\\... for a Linux path (Wine maps / to Z:)."""
        return "Z:" + os.path.abspath(unix).replace("/", "\\")

    def unix_path(self, win):
        out = subprocess.run(["winepath", "-u", win], env=self.env, capture_output=True,
                             text=True, timeout=60)
        return out.stdout.strip()

    def env_var(self, name):
        out = self.run(["cmd", "/c", "echo", f"%{name}%"], text=True)
        return out.stdout.strip()

    def processes(self):
        """[(pid, parent pid or None, exe name)] from winedbg's process tree."""
        out = self.run(["winedbg", "--command", "info proc"], text=True).stdout
        procs, stack, column = [], [], None
        for line in out.splitlines():
            if column is None and "executable" in line:
                column = line.index("executable")  # where a root's name starts
                continue
            m = re.match(r"^[ =]([0-9a-f]{8}) +\d+ +(\\_ )?'(.*)'$", line)
            if not m or column is None:
                continue
            pid, branch, exe = int(m.group(1), 16), m.group(2), m.group(3)
            # A child is `\_ 'name'`, three columns further right per level.
            depth = (line.index("\\_") - column) // 3 + 1 if branch else 0
            del stack[depth:]
            parent = stack[-1] if stack else None
            stack.append(pid)
            procs.append((pid, parent, exe))
        return procs

    def kill_server(self):
        subprocess.run(["wineserver", "-k"], env=self.env, capture_output=True, timeout=60)


def linux_pids_with(marker, program_name=b"fake_engine.exe"):
    """Linux pids of live processes of `program_name` (fake engines by default) whose command
    line contains `marker` (fenguard's own command line names the engine and its marker too:
    the program must be the engine)."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                cmdline = fh.read()
            with open(f"/proc/{entry}/stat", "rb") as fh:
                state = fh.read().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        program = cmdline.replace(b"\0", b" ").split(b" ", 1)[0]
        if (program.lower().endswith(program_name) and marker.encode() in cmdline
                and state not in (b"Z", b"X")):
            pids.append(int(entry))
    return pids


class Proxy:
    """fenguard.exe under Wine with its stdout and stderr collected by threads."""

    def __init__(self, ctx, name, args=None, env=None, log_dir=True, engine=True, marker=None):
        self.ctx = ctx
        self.dir = os.path.join(ctx.work, name)
        os.makedirs(self.dir, exist_ok=True)
        self.marker = marker or f"fgmark-{name}-{uuid.uuid4().hex[:8]}"
        self.record = os.path.join(self.dir, "engine-input")
        self.log_dir = os.path.join(self.dir, "logs")
        cmd = ["wine", ctx.fenguard]
        if log_dir:
            cmd += ["--log-dir", ctx.wine.win_path(self.log_dir)]
        cmd += list(args or [])
        if engine:
            cmd += ["--", ctx.wine.win_path(ctx.engine), self.marker]
        full_env = dict(ctx.wine.env)
        full_env["FAKE_ENGINE_RECORD"] = ctx.wine.win_path(self.record)
        full_env.update(env or {})
        self.proc = subprocess.Popen(cmd, env=full_env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.out, self.err = bytearray(), bytearray()
        self.lock = threading.Lock()
        for pipe, buf in ((self.proc.stdout, self.out), (self.proc.stderr, self.err)):
            threading.Thread(target=self._collect, args=(pipe, buf), daemon=True).start()

    def _collect(self, pipe, buf):
        while True:
            chunk = pipe.read1(65536)
            if not chunk:
                return
            with self.lock:
                buf.extend(chunk)

    def send(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def close(self):
        self.proc.stdin.close()

    def stdout(self):
        with self.lock:
            return bytes(self.out)

    def stderr(self):
        with self.lock:
            return bytes(self.err).decode(errors="replace")

    def wait_stdout(self, done, patience=PATIENCE):
        out = wait_until(lambda: done(self.stdout()) and self.stdout(), patience)
        check(out, f"timed out; stdout so far: {self.stdout()[-600:]!r}; stderr: {self.stderr()[-600:]}")
        return out

    def wait_for(self, needle, patience=PATIENCE):
        return self.wait_stdout(lambda out: needle in out, patience)

    def wait_exit(self, patience=PATIENCE):
        try:
            code = self.proc.wait(patience)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise Failure(f"fenguard did not exit within {patience} s; stderr: {self.stderr()[-600:]}")
        time.sleep(0.1)
        return code

    def engine_pid(self):
        """The engine's Windows process id (the fake engine's `pid` command)."""
        before = self.stdout().count(b"info string pid ")
        self.send(b"pid\n")
        out = self.wait_stdout(lambda o: o.count(b"info string pid ") > before)
        return int(out.rsplit(b"info string pid ", 1)[1].split(b"\n", 1)[0].strip())

    def handshake(self):
        self.send(b"uci\nisready\n")
        self.wait_for(b"readyok\n")

    def engine_alive(self):
        return bool(linux_pids_with(self.marker))

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class Context:
    def __init__(self, args):
        self.wine = Wine(args.prefix)
        self.fenguard = args.fenguard
        self.engine = args.engine
        self.work = args.work


def engine_gone_after(proxy, what):
    gone = wait_until(lambda: not proxy.engine_alive(), 10)
    check(gone, f"engine ({proxy.marker}) still running 10 s after {what}: "
                f"Linux pids {linux_pids_with(proxy.marker)}")


def first_diff(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"byte {i}: {bytes(a[max(0, i - 20):i + 20])!r} vs {bytes(b[max(0, i - 20):i + 20])!r}"
    return f"byte {min(len(a), len(b))} (one is a prefix of the other)"


def fenguard_win_pid(ctx, engine_pid):
    """Windows pid of the process whose child is `engine_pid`, and its name."""
    for pid, parent, exe in ctx.wine.processes():
        if pid == engine_pid:
            check(parent is not None, f"winedbg shows engine {engine_pid} without a parent")
            names = {q: e for q, _, e in ctx.wine.processes()}
            return parent, names.get(parent)
    raise Failure(f"engine {engine_pid} not in winedbg's process list")


def taskkill(ctx, win_pid, _marker):
    out = ctx.wine.run(["taskkill", "/F", "/PID", str(win_pid)], text=True)
    check(out.returncode == 0, f"taskkill failed: {out.stdout} {out.stderr}")
    return f"taskkill /F /PID {win_pid}"


def sigkill_linux(_ctx, _win_pid, marker):
    """SIGKILL of the Linux process that runs the control's cmd.exe (`wine cmd` runs it under
    start.exe: the process `wine` started is not cmd.exe)."""
    targets = linux_pids_with(marker, b"cmd.exe")
    check(len(targets) == 1, f"Linux processes of the control's cmd.exe: {targets}")
    os.kill(targets[0], signal.SIGKILL)
    check(wait_until(lambda: not linux_pids_with(marker, b"cmd.exe"), 10), "cmd.exe survived SIGKILL")
    return f"SIGKILL of Linux pid {targets[0]}"


def json_record(line):
    try:
        return json.loads(line)
    except ValueError:
        return {}


def position_records(logs):
    """{file name: [(session, seq)]} of the position records in logs/positions.jsonl*."""
    found = {}
    for f in sorted(os.listdir(logs)):
        if not f.startswith("positions.jsonl"):
            continue
        with open(os.path.join(logs, f), encoding="utf-8", errors="replace") as fh:
            found[f] = [(r.get("session"), r.get("seq")) for r in map(json_record, fh)
                        if r.get("kind") == "position"]
    return found


def json_seq(line):
    """(kind, seq) of a JSON record line; (None, None) for a line cut off by the kill."""
    try:
        record = json.loads(line)
    except ValueError:
        return None, None
    return record.get("kind"), record.get("seq")
