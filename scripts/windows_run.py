#!/usr/bin/env python3
"""Runs the Windows build of fenguard under Wine against the Windows build of the fake engine.

    scripts/windows_run.py --fenguard target/.../fenguard.exe --engine target/.../fake_engine.exe

Called by `scripts/check-windows --run`, which builds both executables first. A developer check,
not CI. Every check prints `PASS name: detail` or `FAIL name: reason`; the exit status is 1 when
any check failed. Checks (each with its own fenguard and log directory):

- relay-gui-to-engine / relay-engine-to-gui: a few hundred lines (CRLF, tabs, non-UTF-8 bytes,
  bursts) sent in uneven pieces arrive byte for byte, in order, at the engine (its
  FAKE_ENGINE_RECORD file) and at the GUI (fenguard's stdout).
- quit / end-of-input: `quit`, and the GUI closing stdin, end fenguard with status 0, and the
  engine process is gone.
- quit-hung-engine: an engine that ignores `quit` is killed after engine.quit_grace_ms.
- crash-restart: the engine aborting is reported, the engine restarted (a new process id),
  and the GUI's session goes on (`isready` answered); then `quit` exits 0.
- job-object-taskkill / job-object-sigkill: fenguard killed by `taskkill /F /PID` (Windows'
  TerminateProcess) or by SIGKILL of its Wine process takes the engine with it (Job Object).
  job-object-after-restart: the same for an engine restarted after a crash.
  The control checks `no-job-control-taskkill` / `-sigkill` show that an engine started by a
  process (`cmd /c`) that is then killed the same way survives it under this Wine when no Job
  Object ties them (so the Job Object checks can fail).
- config-and-logs: `FENGUARD_CONFIG` naming `%APPDATA%\\fenguard\\fenguard.toml` (a Windows path)
  whose `engine.command` is a bare name found on `%PATH%` with `.exe` added, and the logs in the
  default directory `%LOCALAPPDATA%\\fenguard`.
- rotation-and-log: with log.max_bytes = 4096 and log.keep = 2, positions.jsonl and
  fenguard.log rotate (renames of open files) and keep the cap and the count, `fenguard log -f`
  follows positions.jsonl across the rotations (every record once), `fenguard log --pgn` reads.
- two-writers: two fenguards share a log directory (a GUI's engine match); after one rotates
  positions.jsonl, the other's next record goes to the new file, not the renamed one.
- check-crlf: `fenguard check` reads CRLF input (as Windows editors write it).

Processes are found from Linux: a Windows process under Wine is a Linux process whose
/proc/PID/cmdline is its Windows command line; every fake engine gets a unique marker argument.
Windows process ids and the parent tree come from `winedbg --command "info proc"`.
"""

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid

PATIENCE = 20.0  # seconds; Wine starts processes slowly
RESULTS = []


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


def run_check(name, ctx, fn):
    start = time.monotonic()
    try:
        detail = fn(ctx)
        RESULTS.append((name, True))
        log(f"PASS {name}: {detail} ({time.monotonic() - start:.1f} s)")
    except Failure as err:
        RESULTS.append((name, False))
        log(f"FAIL {name}: {err}")
    except Exception as err:  # a broken check is a failure too, with its cause
        RESULTS.append((name, False))
        log(f"FAIL {name}: {type(err).__name__}: {err}")


def engine_gone_after(proxy, what):
    gone = wait_until(lambda: not proxy.engine_alive(), 10)
    check(gone, f"engine ({proxy.marker}) still running 10 s after {what}: "
                f"Linux pids {linux_pids_with(proxy.marker)}")


# --- the checks ---------------------------------------------------------------------------

def relay_gui_to_engine(ctx):
    p = Proxy(ctx, "relay-in")
    try:
        sent = bytearray()
        for i in range(300):
            kind = i % 6
            if kind == 0:
                sent += f"setoption name Hash value {i} \t \r\n".encode()
            elif kind == 1:
                sent += f"  debug on\t{i}\n".encode()
            elif kind == 2:
                sent += b"info \xff\xfe caf\xe9 " + str(i).encode() + b"\r\n"
            elif kind == 3:
                sent += b"\n"
            elif kind == 4:
                sent += f"register later {i} \u00e9t\u00e9\r\n".encode()
            else:
                sent += f"ucinewgame{' ' * (i % 4)}\n".encode()
        sent += b"isready\n"
        for k in range(0, len(sent), 777):
            p.send(sent[k:k + 777])
        p.wait_for(b"readyok\n")

        def recorded():
            try:
                with open(p.record, "rb") as fh:
                    data = fh.read()
            except OSError:
                return None
            return data if len(data) >= len(sent) else None
        got = wait_until(recorded, 10) or b""
        check(got == bytes(sent), f"engine received {len(got)} bytes, expected {len(sent)}; "
                                  f"first difference at {first_diff(got, sent)}")
        p.send(b"quit\n")
        check(p.wait_exit() == 0, "quit did not exit 0")
        return f"{len(sent)} bytes in 301 lines, identical at the engine"
    finally:
        p.kill()


def relay_engine_to_gui(ctx):
    p = Proxy(ctx, "relay-out")
    try:
        script, expected = bytearray(), bytearray()
        for i in range(300):
            if i % 3 == 0:
                line = f"line {i} \u00e9t\u00e9 \t ".encode() + b"\xff\r\n"
            else:
                line = f"info string line {i}\n".encode()
            script += b"echo " + line
            expected += line
            if i % 10 == 0:
                script += b"burst 40\n"
                for j in range(40):
                    expected += f"info depth 1 seq {j} pv e2e4\n".encode()
        script += b"isready\n"
        expected += b"readyok\n"
        for k in range(0, len(script), 777):
            p.send(script[k:k + 777])
        out = p.wait_stdout(lambda o: o.endswith(b"readyok\n"))
        lines = expected.count(b"\n")
        check(out == bytes(expected), f"GUI got {len(out)} bytes, expected {len(expected)}; "
                                      f"first difference at {first_diff(out, expected)}")
        p.send(b"quit\n")
        check(p.wait_exit() == 0, "quit did not exit 0")
        return f"{len(expected)} bytes in {lines} lines, identical at the GUI"
    finally:
        p.kill()


def first_diff(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"byte {i}: {bytes(a[max(0, i - 20):i + 20])!r} vs {bytes(b[max(0, i - 20):i + 20])!r}"
    return f"byte {min(len(a), len(b))} (one is a prefix of the other)"


def quit_exits(ctx):
    p = Proxy(ctx, "quit")
    try:
        p.handshake()
        check(p.engine_alive(), f"no Linux process with {p.marker} while the engine runs")
        p.send(b"quit\n")
        code = p.wait_exit()
        check(code == 0, f"exit status {code}; stderr: {p.stderr()[-400:]}")
        engine_gone_after(p, "quit")
        return "exit 0, engine gone"
    finally:
        p.kill()


def end_of_input_exits(ctx):
    p = Proxy(ctx, "eof")
    try:
        p.handshake()
        check(p.engine_alive(), f"no Linux process with {p.marker} while the engine runs")
        p.close()
        code = p.wait_exit()
        check(code == 0, f"exit status {code}; stderr: {p.stderr()[-400:]}")
        engine_gone_after(p, "end of input")
        return "exit 0, engine gone"
    finally:
        p.kill()


def quit_hung_engine(ctx):
    """An engine that ignores `quit` is killed (TerminateProcess) after engine.quit_grace_ms."""
    p = Proxy(ctx, "quit-hung")
    try:
        p.handshake()
        p.send(b"hang\n")
        time.sleep(0.3)
        check(p.engine_alive(), "the engine died at `hang`")
        start = time.monotonic()
        p.send(b"quit\n")
        code = p.wait_exit()
        took = time.monotonic() - start
        check(code == 0, f"exit status {code}; stderr: {p.stderr()[-400:]}")
        engine_gone_after(p, "quit with a hung engine")
        return f"exit 0 after {took:.1f} s (quit_grace_ms 1000), hung engine gone"
    finally:
        p.kill()


def crash_restart(ctx):
    p = Proxy(ctx, "crash")
    try:
        p.handshake()
        old = p.engine_pid()
        p.send(b"crash\n")
        p.wait_for(b"info string fenguard: engine restarted (restart 1)")
        new = p.engine_pid()
        check(new != old, f"same engine pid {old} after the restart")
        before = p.stdout().count(b"readyok\n")
        p.send(b"isready\n")
        p.wait_stdout(lambda o: o.count(b"readyok\n") > before)
        p.send(b"position startpos moves e2e4\ngo movetime 10\n")
        p.wait_for(b"bestmove e2e4\n")
        exit_lines = [l for l in p.stdout().split(b"\n") if b"fenguard: engine" in l]
        p.send(b"quit\n")
        code = p.wait_exit()
        check(code == 0, f"quit after the restart: exit status {code}")
        engine_gone_after(p, "quit")
        return (f"engine {old} aborted, restarted as {new}; GUI saw "
                + "; ".join(l.decode(errors="replace").strip() for l in exit_lines))
    finally:
        p.kill()


def fenguard_win_pid(ctx, engine_pid):
    """Windows pid of the process whose child is `engine_pid`, and its name."""
    for pid, parent, exe in ctx.wine.processes():
        if pid == engine_pid:
            check(parent is not None, f"winedbg shows engine {engine_pid} without a parent")
            names = {q: e for q, _, e in ctx.wine.processes()}
            return parent, names.get(parent)
    raise Failure(f"engine {engine_pid} not in winedbg's process list")


def job_object_taskkill(ctx):
    p = Proxy(ctx, "job-taskkill")
    try:
        p.handshake()
        engine = p.engine_pid()
        parent, name = fenguard_win_pid(ctx, engine)
        check(name == "fenguard.exe", f"engine's parent is {name!r}, not fenguard.exe")
        out = ctx.wine.run(["taskkill", "/F", "/PID", str(parent)], text=True)
        check(out.returncode == 0, f"taskkill failed: {out.stdout} {out.stderr}")
        code = p.wait_exit()
        engine_gone_after(p, f"taskkill /F of fenguard (exit {code})")
        return f"taskkill /F /PID {parent} (fenguard, exit {code}): engine {engine} gone"
    finally:
        p.kill()


def job_object_after_restart(ctx):
    """The restarted engine is in a Job Object too."""
    p = Proxy(ctx, "job-restart")
    try:
        p.handshake()
        p.send(b"crash\n")
        p.wait_for(b"info string fenguard: engine restarted (restart 1)")
        engine = p.engine_pid()
        parent, name = fenguard_win_pid(ctx, engine)
        check(name == "fenguard.exe", f"engine's parent is {name!r}, not fenguard.exe")
        out = ctx.wine.run(["taskkill", "/F", "/PID", str(parent)], text=True)
        check(out.returncode == 0, f"taskkill failed: {out.stdout} {out.stderr}")
        p.wait_exit()
        engine_gone_after(p, "taskkill /F of fenguard")
        return f"restarted engine {engine} gone after taskkill /F /PID {parent}"
    finally:
        p.kill()


def job_object_sigkill(ctx):
    p = Proxy(ctx, "job-sigkill")
    try:
        p.handshake()
        engine = p.engine_pid()
        with open(f"/proc/{p.proc.pid}/cmdline", "rb") as fh:
            program = fh.read().replace(b"\0", b" ").split(b" ", 1)[0]
        check(program.endswith(b"fenguard.exe"), f"Linux pid {p.proc.pid} runs {program!r}")
        os.kill(p.proc.pid, signal.SIGKILL)
        p.proc.wait()
        engine_gone_after(p, "SIGKILL of fenguard's Wine process")
        return f"SIGKILL of Linux pid {p.proc.pid}: engine {engine} gone"
    finally:
        p.kill()


def no_job_control(ctx, kill):
    """An engine started through `cmd /c` outlives cmd killed by `kill`: no Job Object."""
    marker = f"fgmark-control-{uuid.uuid4().hex[:8]}"
    cmd = subprocess.Popen(["wine", "cmd", "/c", ctx.wine.win_path(ctx.engine), marker],
                           env=ctx.wine.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL)
    try:
        check(wait_until(lambda: linux_pids_with(marker)), "control engine never started")
        procs = ctx.wine.processes()
        cmd_pids = [pid for pid, _, exe in procs if exe == "cmd.exe"
                    and any(par == pid and e == "fake_engine.exe" for _, par, e in procs)]
        check(len(cmd_pids) == 1, f"cannot tell the control's cmd.exe: {procs}")
        how = kill(ctx, cmd_pids[0], marker)
        time.sleep(3)
        check(linux_pids_with(marker),
              "the control engine died with its parent: the Job Object checks prove nothing here")
        return f"engine started by cmd.exe {cmd_pids[0]} survived {how} of cmd.exe (as expected)"
    finally:
        for pid in linux_pids_with(marker):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        if cmd.poll() is None:
            cmd.kill()
        cmd.wait()


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


def config_and_logs(ctx):
    appdata = ctx.wine.env_var("APPDATA")
    local = ctx.wine.env_var("LOCALAPPDATA")
    check(re.match(r"^[A-Z]:\\", appdata) and re.match(r"^[A-Z]:\\", local),
          f"APPDATA={appdata!r} LOCALAPPDATA={local!r}")
    config_win = appdata + "\\fenguard\\fenguard.toml"
    config_unix = ctx.wine.unix_path(config_win)
    log_unix = ctx.wine.unix_path(local + "\\fenguard")
    shutil.rmtree(log_unix, ignore_errors=True)
    os.makedirs(os.path.dirname(config_unix), exist_ok=True)
    marker = f"fgmark-config-{uuid.uuid4().hex[:8]}"
    with open(config_unix, "w", newline="\r\n") as fh:
        # A bare name: found on %PATH% with `.exe` added; the marker through engine.args.
        fh.write(f"# written by scripts/windows_run.py\n[engine]\ncommand = \"fake_engine\"\n"
                 f"args = ['{marker}']\n")
    engine_dir = ctx.wine.win_path(os.path.dirname(ctx.engine))
    p = Proxy(ctx, "config", log_dir=False, engine=False, marker=marker,
              env={"FENGUARD_CONFIG": config_win, "WINEPATH": engine_dir})
    try:
        p.handshake()
        check(p.engine_alive(), f"no engine with the config's argument {p.marker}")
        p.send(b"args\n")
        out = p.wait_for(b"info string args ")
        check(f"info string args {p.marker}\n".encode() in out.replace(b"\r\n", b"\n"),
              f"engine args: {out[-200:]!r}")
        p.send(b"position startpos moves e2e4\nisready\n")
        p.wait_stdout(lambda o: o.count(b"readyok\n") >= 2)
        p.send(b"quit\n")
        check(p.wait_exit() == 0, "quit did not exit 0")
        files = sorted(os.listdir(log_unix)) if os.path.isdir(log_unix) else []
        check("fenguard.log" in files and "positions.jsonl" in files,
              f"{local}\\fenguard holds {files}")
        with open(os.path.join(log_unix, "positions.jsonl"), encoding="utf-8") as fh:
            records = fh.read()
        check('"position startpos moves e2e4"' in records, "position record missing")
        # `fenguard log` without a file reads the same default directory.
        shown = subprocess.run(["wine", ctx.fenguard, "log", "--format", "json"],
                               env=ctx.wine.env, capture_output=True, timeout=120)
        check(shown.returncode == 0 and b"position startpos moves e2e4" in shown.stdout,
              f"`fenguard log`: exit {shown.returncode}, {shown.stdout[-300:]!r} "
              f"{shown.stderr[-300:]!r}")
        return (f"config {config_win} read (engine `fake_engine` found on PATH), "
                f"logs in {local}\\fenguard: {', '.join(files)}; `fenguard log` reads them")
    finally:
        p.kill()


def rotation_and_log(ctx):
    """log.max_bytes / log.keep rotate positions.jsonl and fenguard.log on Windows (renames of
    files fenguard holds open), while `fenguard log -f` follows positions.jsonl across the
    rotations; then `fenguard log --pgn` reads the current file."""
    d = os.path.join(ctx.work, "rotation")
    os.makedirs(d, exist_ok=True)
    config = os.path.join(d, "fenguard.toml")
    with open(config, "w", newline="\r\n") as fh:
        fh.write("[log]\nmax_bytes = 4096\nkeep = 2\ntranscript = true\n")
    p = Proxy(ctx, "rotation", args=["--config", ctx.wine.win_path(config)])
    follower = None
    try:
        p.handshake()
        game = ["g1f3", "g8f6", "f3g1", "f6g8"] * 10
        p.send(b"ucinewgame\nposition startpos\nisready\n")
        p.wait_stdout(lambda o: o.count(b"readyok\n") >= 2)
        positions = os.path.join(p.log_dir, "positions.jsonl")
        follower = subprocess.Popen(
            ["wine", ctx.fenguard, "log", "-f", "--format", "json", ctx.wine.win_path(positions)],
            env=ctx.wine.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        # Drained as it goes: a full pipe would stall the follower.
        followed = []
        drain = threading.Thread(target=lambda: followed.append(follower.stdout.read()), daemon=True)
        drain.start()
        time.sleep(2)  # the follower is reading before the rotations start
        sent = 1
        for rounds in range(3):
            for ply in range(1, len(game) + 1):
                p.send(f"position startpos moves {' '.join(game[:ply])}\n".encode())
                sent += 1
                time.sleep(0.05)  # a rotation every ~0.7 s: the follower polls every 0.1 s
            p.send(b"ucinewgame\nisready\n")
            p.wait_stdout(lambda o, r=rounds: o.count(b"readyok\n") >= 3 + r)
        p.send(b"quit\n")
        check(p.wait_exit() == 0, "quit did not exit 0")
        files = sorted(os.listdir(p.log_dir))
        for name in ("positions.jsonl", "fenguard.log"):
            for suffix in ("", ".1", ".2"):
                check(name + suffix in files, f"no {name}{suffix}: {files}")
            check(name + ".3" not in files, f"keep = 2 but {name}.3 exists")
        sizes = {f: os.path.getsize(os.path.join(p.log_dir, f)) for f in files}
        big = {f: n for f, n in sizes.items() if n > 4096 + 1024}
        check(not big, f"files past the cap (4096 + one record): {big}")
        time.sleep(1.5)  # the follower polls every 100 ms
        follower.kill()
        follower.wait()
        drain.join(30)
        out, err = followed[0] if followed else b"", follower.stderr.read()
        seqs = [json_seq(line) for line in out.decode(errors="replace").splitlines() if line.strip()]
        pos_seqs = sorted(q for kind, q in seqs if kind == "position")
        check(len(pos_seqs) == sent and pos_seqs == sorted(set(pos_seqs)),
              f"follower saw {len(pos_seqs)} position records ({pos_seqs[:3]}..{pos_seqs[-3:]}), "
              f"{sent} sent; stderr {err[-300:]!r}")
        pgn = subprocess.run(["wine", ctx.fenguard, "log", "--pgn", ctx.wine.win_path(positions)],
                             env=ctx.wine.env, capture_output=True, timeout=120)
        text = pgn.stdout.decode(errors="replace")
        check(pgn.returncode == 0 and "1. Nf3 Nf6" in text,
              f"log --pgn: exit {pgn.returncode}, {text[:300]!r} {pgn.stderr[-300:]!r}")
        return (f"{sent} position records; {', '.join(f'{f} {n}' for f, n in sizes.items())} "
                f"bytes; `log -f` saw all {len(pos_seqs)} across the rotations; `log --pgn` read")
    finally:
        if follower and follower.poll() is None:
            follower.kill()
            follower.wait()
        p.kill()


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


def json_record(line):
    try:
        return json.loads(line)
    except ValueError:
        return {}


def two_writers(ctx):
    """Two fenguards (a GUI's engine match) share one log directory: after A rotates
    positions.jsonl, B's next record goes to the new positions.jsonl, not to the file A renamed
    (B notices by file identity). Writes are one at a time: Wine 8's appends from two processes
    to one file are not atomic (two `FILE_APPEND_DATA` writers lose lines under Wine, not
    under Windows), so concurrent writing is not a test of fenguard here."""
    d = os.path.join(ctx.work, "two-writers")
    logs = os.path.join(d, "logs")
    os.makedirs(d, exist_ok=True)
    config = os.path.join(d, "fenguard.toml")
    with open(config, "w", newline="\r\n") as fh:
        fh.write("[log]\nmax_bytes = 4096\nkeep = 100\n")
    args = ["--config", ctx.wine.win_path(config), "--log-dir", ctx.wine.win_path(logs)]
    a = Proxy(ctx, "writer-a", args=args, log_dir=False)
    b = Proxy(ctx, "writer-b", args=args, log_dir=False)

    def count():
        return sum(len(v) for v in position_records(logs).values()) if os.path.isdir(logs) else 0

    try:
        for p in (a, b):
            p.handshake()
        b.send(b"position startpos moves e2e4\n")
        check(wait_until(lambda: count() == 1, 10), "B's first record never written")
        game = ["g1f3", "g8f6", "f3g1", "f6g8"] * 10
        for ply in range(1, len(game) + 1):
            a.send(f"position startpos moves {' '.join(game[:ply])}\n".encode())
        check(wait_until(lambda: count() == 1 + len(game), 10), f"A's records: {count() - 1}")
        before = position_records(logs)
        check(len(before) >= 3, f"A did not rotate: {sorted(before)}")
        b.send(b"position startpos moves e2e4 e7e5\n")
        check(wait_until(lambda: count() == 2 + len(game), 10), "B's second record never written")
        after = position_records(logs)
        newest = after.get("positions.jsonl", [])
        sessions = {s for s, _ in newest}
        for p in (a, b):
            p.send(b"quit\n")
            check(p.wait_exit() == 0, "quit did not exit 0")
        check(len(sessions) == 2,
              f"positions.jsonl holds the records of {len(sessions)} session(s) after B's write "
              f"({len(newest)} records): B wrote to a rotated file; files "
              f"{ {f: len(v) for f, v in after.items()} }")
        return (f"A rotated {len(before) - 1} times; B's next record is in the new "
                f"positions.jsonl with A's latest ({len(newest)} records there)")
    finally:
        a.kill()
        b.kill()


def json_seq(line):
    """(kind, seq) of a JSON record line; (None, None) for a line cut off by the kill."""
    try:
        record = json.loads(line)
    except ValueError:
        return None, None
    return record.get("kind"), record.get("seq")


def check_crlf(ctx):
    fens = (b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\r\n"
            b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1\r\n")
    out = subprocess.run(["wine", ctx.fenguard, "check", "--format", "fen"], input=fens,
                         env=ctx.wine.env, capture_output=True, timeout=120)
    lines = out.stdout.replace(b"\r\n", b"\n").decode(errors="replace").splitlines()
    check(len(lines) == 2, f"exit {out.returncode}, stdout {out.stdout!r}, stderr {out.stderr[-300:]!r}")
    check(lines[0].startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
          f"first line {lines[0]!r}")
    check(lines[1] == "invalid" or "e9" not in lines[1], f"second line {lines[1]!r}")
    return f"exit {out.returncode}: {lines!r}"


CHECKS = [
    ("relay-gui-to-engine", relay_gui_to_engine),
    ("relay-engine-to-gui", relay_engine_to_gui),
    ("quit", quit_exits),
    ("quit-hung-engine", quit_hung_engine),
    ("end-of-input", end_of_input_exits),
    ("crash-restart", crash_restart),
    ("job-object-taskkill", job_object_taskkill),
    ("job-object-sigkill", job_object_sigkill),
    ("job-object-after-restart", job_object_after_restart),
    ("no-job-control-taskkill", lambda ctx: no_job_control(ctx, taskkill)),
    ("no-job-control-sigkill", lambda ctx: no_job_control(ctx, sigkill_linux)),
    ("config-and-logs", config_and_logs),
    ("rotation-and-log", rotation_and_log),
    ("two-writers", two_writers),
    ("check-crlf", check_crlf),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fenguard", required=True, help="fenguard.exe")
    ap.add_argument("--engine", required=True, help="fake_engine.exe")
    ap.add_argument("--prefix", default=os.path.expanduser(
        "~/.cache/fenguard-check-windows/wineprefix"), help="WINEPREFIX (created when missing)")
    ap.add_argument("--only", action="append", help="run only this check (repeatable)")
    args = ap.parse_args()
    for tool in ("wine", "wineserver", "winepath"):
        if not shutil.which(tool):
            sys.exit(f"windows_run: needs {tool} (as root: apt-get install wine64)")
    args.fenguard = os.path.abspath(args.fenguard)
    args.engine = os.path.abspath(args.engine)
    with tempfile.TemporaryDirectory(prefix="fenguard-wine-") as work:
        args.work = work
        ctx = Context(args)
        if not os.path.exists(os.path.join(args.prefix, "system.reg")):
            log(f"windows_run: creating the Wine prefix {args.prefix}")
        ctx.wine.boot()
        version = subprocess.run(["wine", "--version"], capture_output=True, text=True).stdout.strip()
        log(f"windows_run: {version}, prefix {args.prefix}")
        for name, fn in CHECKS:
            if args.only and name not in args.only:
                continue
            run_check(name, ctx, fn)
        ctx.wine.kill_server()
    failed = [name for name, ok in RESULTS if not ok]
    log(f"windows_run: {len(RESULTS) - len(failed)} of {len(RESULTS)} checks passed"
        + (f"; failed: {', '.join(failed)}" if failed else ""))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
