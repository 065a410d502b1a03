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
- engine-path-with-spaces: an engine in `...\\Program Files\\Some Engine\\fake engine.exe`
  gets arguments with spaces, quotes, backslashes and an empty one intact.
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
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid

from windows_logs import check_crlf, config_and_logs, rotation_and_log, two_writers
from windows_wine import (
    Context, Failure, Proxy, check, engine_gone_after, fenguard_win_pid, first_diff,
    linux_pids_with, log, sigkill_linux, taskkill, wait_until,
)

RESULTS = []


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


def engine_path_with_spaces(ctx):
    """An engine under a path with spaces (C:\\Program Files\\...) gets its arguments intact
    (Windows passes one command line string: quoting is fenguard's job)."""
    d = os.path.join(ctx.work, "Program Files", "Some Engine")
    os.makedirs(d, exist_ok=True)
    engine = os.path.join(d, "fake engine.exe")
    shutil.copy(ctx.engine, engine)
    shim = os.path.join(os.path.dirname(ctx.engine), "bcryptprimitives.dll")
    if os.path.exists(shim):
        shutil.copy(shim, d)
    marker = f"fgmark-spaces-{uuid.uuid4().hex[:8]}"
    odd = ["two words", 'say "hi"', "back\\slash\\", ""]
    p = Proxy(ctx, "spaces", engine=False,
              args=["--", ctx.wine.win_path(engine), *odd, marker], marker=marker)
    try:
        p.send(b"args\n")
        out = p.wait_for(b"info string args ")
        got = out.split(b"info string args ", 1)[1].split(b"\n", 1)[0].decode()
        want = "|".join([*odd, marker])
        check(got == want, f"engine args {got!r}, expected {want!r}")
        p.send(b"quit\n")
        check(p.wait_exit() == 0, "quit did not exit 0")
        return f"engine `...\\Program Files\\Some Engine\\fake engine.exe` got {got!r}"
    finally:
        p.kill()


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
    ("engine-path-with-spaces", engine_path_with_spaces),
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
