#!/usr/bin/env python3
"""Load test of `fenguard provide` against scripts/mock_lichess.py.

    python3 scripts/load-provide.py --jobs N [--procs 2] [--workers 2] [--engine CMD...]

Starts the mock (lila and the broker on two ports unless --one-port), writes one fenguard config
per provider process (the `[provider]` section pointing at the mock, a token file, a shared provider-secret file, `[log] dir`), starts the
first `target/release/fenguard provide --config FILE -- ENGINE`, waits for its registration,
starts the others (same secret: they share one queue), waits until every process long-polls,
then feeds N jobs (movetime and depth searches on varied positions, MultiPV 1 to 3) through
/_mock/enqueue, at most --window of them in flight at once (or all at once with --burst), and
waits for every job to settle. It reports, from the mock's records (times of acquire, of each
streamed line, of bestmove):

- throughput, jobs/s (jobs served / first queued to last ended);
- time in the queue (queued -> acquired);
- acquire -> first `info` line, and acquire -> `bestmove`, p50 / p99;
- the provider's overhead against the engine's own time: the job's total (acquire -> the
  broker's answer) minus the engine's span (first info -> bestmove), p50 / p99;
- lost jobs, which must be 0: a job not acquired exactly once, not submitted exactly once, not
  answered 200 at its `bestmove`, with a refused (400) line, or submits to unknown ids;
- jobs per provider process, and the broker requests by endpoint and status.

The default engine is the in-tree fake engine (`target/release/fake_engine`, built by
`cargo build --release --features fake-engine`; run with
FAKE_ENGINE_ECHO_OPTIONS=1 so that each `go` is answered with `info string` lines before its
`bestmove`): the throughput of the provider itself. `--engine stockfish` measures a real
search. Exit status 0 when no job was lost and every provider ran to the end, 1 otherwise,
2 when something could not be started.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import http.client

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# Varied chess positions (initial FEN, moves): openings, a mate in one, Kiwipete, endgames, a
# Chess960 start (lichess sends Chess960 as variant "chess", castling as king takes rook).
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
POSITIONS = [
    (START, []),
    (START, ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]),
    (START, ["d2d4", "g8f6", "c2c4", "e7e6", "b1c3", "f8b4", "e2e3", "e8h8"]),
    ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", []),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", ["e1h1"]),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", ["e2e4"]),
    ("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", []),
    ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", ["e1f3"]),
    ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", []),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", ["d7c8q"]),
]


class Mock:
    """The mock; lila on `url`, the broker on `broker_url` (its own port unless one_port)."""

    def __init__(self, tmp: str, poll_s: float, token: str, one_port: bool):
        self.err = open(os.path.join(tmp, "mock.err"), "w")
        split = [] if one_port else ["--broker-port", "0"]
        self.proc = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "mock_lichess.py"), "--port", "0", *split,
             "--poll-s", str(poll_s), "--token", token, "--track-pids"],
            stdout=subprocess.PIPE, stderr=self.err, text=True)
        line = self.proc.stdout.readline()
        if not line.startswith("listening http://127.0.0.1:"):
            raise SystemExit(f"load-provide: the mock did not start ({line!r}); see {self.err.name}")
        self.url = line.split()[1]
        self.port = int(self.url.rsplit(":", 1)[1])
        self.broker_url = self.url if one_port else self.proc.stdout.readline().split()[1]

    def call(self, method: str, path: str, body=None, timeout: float = 60):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        data = json.dumps(body).encode() if body is not None else None
        c.request(method, path, body=data, headers={"Content-Type": "application/json"})
        r = c.getresponse()
        text = r.read()
        c.close()
        return r.status, json.loads(text) if text else None

    def hook(self, method: str, name: str, body=None, timeout: float = 60):
        return self.call(method, "/_mock/" + name, body, timeout)[1]

    def stop(self):
        self.proc.kill()
        self.proc.wait()
        self.err.close()


def toml_str(s: str) -> str:
    return json.dumps(s)  # a TOML basic string: JSON's escapes are TOML's


def write_config(tmp: str, i: int, mock: Mock, args, token_file: str, secret_file: str) -> str:
    log_dir = os.path.join(tmp, f"log-{i}")
    os.makedirs(log_dir, exist_ok=True)
    path = os.path.join(tmp, f"fenguard-{i}.toml")
    with open(path, "w") as f:
        f.write(f"""# written by scripts/load-provide.py
[provider]
lila_url = {toml_str(mock.url)}
broker_url = {toml_str(mock.broker_url)}
token_file = {toml_str(token_file)}
secret_file = {toml_str(secret_file)}
name = {toml_str(args.name)}
max_threads = {args.threads}
max_hash_mb = {args.hash_mb}
variants = ["chess"]
workers = {args.workers}
keep_alive_s = 300

[log]
dir = {toml_str(log_dir)}
""")
    return path


def start_provider(args, config: str, i: int, tmp: str, engine: list[str]) -> subprocess.Popen:
    env = dict(os.environ)
    if args.default_engine:
        env["FAKE_ENGINE_ECHO_OPTIONS"] = "1"
    out = open(os.path.join(tmp, f"provider-{i}.err"), "w")
    proc = subprocess.Popen([args.fenguard, "provide", "--config", config, "--", *engine],
                            stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                            env=env)
    proc.log = out  # type: ignore[attr-defined]
    return proc


def wait_for(what: str, fn, timeout: float, procs=()) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if fn():
            return True
        for p in procs:
            if p.poll() is not None:
                print(f"load-provide: a provider exited ({p.returncode}) while waiting for {what}")
                return False
        time.sleep(0.05)
    print(f"load-provide: timed out waiting for {what}")
    return False


def make_work(i: int, args) -> dict:
    fen, moves = POSITIONS[i % len(POSITIONS)]
    work = {"sessionId": f"load-{i // 7}", "threads": 1, "hash": 16}
    if i % 2 == 0:
        work["movetime"] = args.movetime
    else:
        work["depth"] = args.depth
    work.update({"multiPv": 1 + i % 3, "variant": "chess", "initialFen": fen, "moves": moves})
    return work


def pct(values: list[float], p: float) -> float | None:
    """Nearest-rank percentile."""
    if not values:
        return None
    values = sorted(values)
    k = max(0, min(len(values) - 1, int(round(p / 100 * len(values) + 0.5)) - 1))
    return values[k]


def ms(v: float | None) -> str:
    return "-" if v is None else f"{v * 1000:.1f} ms"


TIME_RE = re.compile(r"(?:^|[ \t])time[ \t]+(\d+)")


def analyse(jobs: list[dict], unknown: list[dict], requests: list[dict], n: int) -> dict:
    lost: dict[str, list] = {}
    queue_wait, first_info, to_best, span, total, engine_ms = [], [], [], [], [], []
    overhead, total_with_info, overhead_reported = [], [], []
    per_pid: dict[str, int] = {}
    ok = 0
    for j in jobs:
        t = j["times"]
        reasons = {
            "queued": ["never acquired"],
            "acquired": ["acquired, never submitted"],
            "streaming": ["submit still streaming"],
            "expired": ["expired (requester left before the submit)"],
            "dropped": [f"dropped ({j['note']})"],
        }.get(j["state"], [])
        if j["acquire_count"] > 1:
            reasons.append("acquired more than once")
        if len(j["submits"]) > 1:
            reasons.append(f"submitted {len(j['submits'])} times "
                           f"({[a['status'] for a in j['submits']]})")
        if j["state"] == "ended" and j["submit_status"] == 400:
            reasons.append("refused line (400)")
        elif j["state"] == "ended" and j["end"] != "bestmove":
            reasons.append(f"ended without bestmove ({j['end']}, {j['submit_status']})")
        for reason in reasons:
            lost.setdefault(reason, []).append(j["job"])
        if reasons:
            continue
        ok += 1
        pid = str((j["acquired_by"] or {}).get("pid"))
        per_pid[pid] = per_pid.get(pid, 0) + 1
        queue_wait.append(t["acquired"] - t["queued"])
        to_best.append(t["bestmove"] - t["acquired"])
        total.append(t["ended"] - t["acquired"])
        if "first_info" in t:
            first_info.append(t["first_info"] - t["acquired"])
            span.append(t["bestmove"] - t["first_info"])
            overhead.append((t["ended"] - t["acquired"]) - (t["bestmove"] - t["first_info"]))
            total_with_info.append(t["ended"] - t["acquired"])
        times = [int(m.group(1)) for ln in j.get("lines", []) if ln["kind"] == "info"
                 for m in [TIME_RE.search(ln["line"])] if m]
        if times:
            engine_ms.append(max(times) / 1000)
            overhead_reported.append((t["ended"] - t["acquired"]) - max(times) / 1000)
    served = [j for j in jobs if j["state"] == "ended"]
    t0 = min((j["times"]["queued"] for j in jobs), default=0)
    t1 = max((j["times"]["ended"] for j in served), default=t0)
    by_endpoint: dict[str, int] = {}
    for r in requests:
        path = re.sub(r"/work/[^/?]+", "/work/{id}", r["path"].split("?")[0])
        path = re.sub(r"/external-engine/eei_[^/?]+", "/external-engine/{engine}", path)
        k = f"{r['method']} {path} {r['status'] or '(no answer: pending or reset)'}"
        by_endpoint[k] = by_endpoint.get(k, 0) + 1
    lost_jobs = sorted({key for v in lost.values() for key in v})
    if len(jobs) < n:
        lost["not enqueued"] = [f"{n - len(jobs)} jobs"]
    return {
        "jobs": n, "served": ok, "lost": len(lost_jobs) + max(0, n - len(jobs)),
        "lost_by_reason": lost, "unknown_submits": len(unknown),
        "jobs_per_s": ok / (t1 - t0) if t1 > t0 else None, "wall_s": t1 - t0,
        "queue_wait": {"p50": pct(queue_wait, 50), "p99": pct(queue_wait, 99)},
        "acquire_to_first_info": {"p50": pct(first_info, 50), "p99": pct(first_info, 99),
                                  "jobs": len(first_info)},
        "acquire_to_bestmove": {"p50": pct(to_best, 50), "p99": pct(to_best, 99)},
        "job_total": {"p50": pct(total, 50), "p99": pct(total, 99)},
        "engine_span": {"p50": pct(span, 50), "p99": pct(span, 99)},
        "engine_reported_time": {"p50": pct(engine_ms, 50), "jobs": len(engine_ms)},
        "overhead": {"p50": pct(overhead, 50), "p99": pct(overhead, 99),
                     "share_of_total": sum(overhead) / sum(total_with_info)
                     if overhead and sum(total_with_info) > 0 else None},
        "overhead_vs_reported_time": {"p50": pct(overhead_reported, 50),
                                      "p99": pct(overhead_reported, 99)},
        "jobs_per_provider_pid": per_pid,
        "requests": dict(sorted(by_endpoint.items())),
    }


def report(r: dict, args, engine: list[str]) -> None:
    print(f"fenguard provide load: {r['jobs']} jobs, {args.procs} process(es) x "
          f"{args.workers} worker(s), engine {' '.join(engine)}")
    if r["jobs_per_s"] is not None:
        print(f"  throughput            {r['jobs_per_s']:.1f} jobs/s ({r['served']} served in "
              f"{r['wall_s']:.2f} s)")
    print(f"  queue wait            p50 {ms(r['queue_wait']['p50'])}  p99 {ms(r['queue_wait']['p99'])}")
    fi = r["acquire_to_first_info"]
    print(f"  acquire -> first info p50 {ms(fi['p50'])}  p99 {ms(fi['p99'])}  "
          f"({fi['jobs']} of {r['served']} jobs had an info line)")
    print(f"  acquire -> bestmove   p50 {ms(r['acquire_to_bestmove']['p50'])}  "
          f"p99 {ms(r['acquire_to_bestmove']['p99'])}")
    print(f"  job total             p50 {ms(r['job_total']['p50'])}  p99 {ms(r['job_total']['p99'])}"
          "  (acquire -> the broker's answer)")
    print(f"  engine span           p50 {ms(r['engine_span']['p50'])}  p99 {ms(r['engine_span']['p99'])}"
          f"  (first info -> bestmove; engine-reported time p50 "
          f"{ms(r['engine_reported_time']['p50'])})")
    share = r["overhead"]["share_of_total"]
    print(f"  provider overhead     p50 {ms(r['overhead']['p50'])}  p99 {ms(r['overhead']['p99'])}"
          + (f"  ({share * 100:.1f}% of the jobs' total)" if share is not None else ""))
    if r["overhead_vs_reported_time"]["p50"] is not None:
        print(f"  overhead vs the engine's reported time  p50 "
              f"{ms(r['overhead_vs_reported_time']['p50'])}  "
              f"p99 {ms(r['overhead_vs_reported_time']['p99'])}  (job total - last info's time)")
    print(f"  lost jobs             {r['lost']}" + (f"  {r['lost_by_reason']}" if r['lost'] else ""))
    if r["unknown_submits"]:
        print(f"  submits to unknown ids {r['unknown_submits']}")
    print(f"  jobs per provider pid {r['jobs_per_provider_pid']}")
    print("  requests:")
    for k, v in r["requests"].items():
        print(f"    {v:6d}  {k}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, required=True, help="jobs to serve")
    ap.add_argument("--procs", type=int, default=2, help="provider processes (default 2)")
    ap.add_argument("--workers", type=int, default=2, help="[provider] workers of each (default 2)")
    ap.add_argument("--fenguard", default=os.path.join(ROOT, "target", "release", "fenguard"),
                    help="the fenguard binary (default target/release/fenguard)")
    ap.add_argument("--movetime", type=int, default=50, help="ms of the movetime jobs (default 50)")
    ap.add_argument("--depth", type=int, default=6, help="depth of the depth jobs (default 6)")
    ap.add_argument("--threads", type=int, default=1, help="[provider] max_threads (default 1)")
    ap.add_argument("--hash-mb", type=int, default=16, help="[provider] max_hash_mb (default 16)")
    ap.add_argument("--name", default="fenguard load test", help="[provider] name")
    ap.add_argument("--window", type=int, default=0,
                    help="jobs in flight at most (default 2 x procs x workers)")
    ap.add_argument("--burst", action="store_true",
                    help="enqueue every job at once (at most 1024: the broker's queue limit)")
    ap.add_argument("--poll-s", type=float, default=10, help="the mock's long poll (default 10)")
    ap.add_argument("--one-port", action="store_true",
                    help="lila and the broker on one port (default: two, as lichess.org and "
                         "engine.lichess.ovh, so that a call sent to the wrong one is a 404)")
    ap.add_argument("--timeout-s", type=float, default=300, help="give up after (default 300)")
    ap.add_argument("--stall-s", type=float, default=30,
                    help="give up when no job has ended for this long (default 30)")
    ap.add_argument("--json", help="also write the report as JSON to this file")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    ap.add_argument("--engine", nargs=argparse.REMAINDER,
                    help="the engine command and its arguments; must be the last option, "
                         "everything after it is the engine's (default: the in-tree fake "
                         "engine)")
    args = ap.parse_args(argv)
    args.default_engine = not args.engine
    engine = args.engine or [os.path.join(ROOT, "target", "release", "fake_engine")]
    if args.burst and args.jobs > 1024:
        ap.error("--burst takes at most 1024 jobs (hub.rs MAX_ITEMS)")
    if not os.access(args.fenguard, os.X_OK):
        print(f"load-provide: no {args.fenguard}: build it first (cargo build --release)")
        return 2
    if args.default_engine and not os.access(engine[0], os.X_OK):
        print(f"load-provide: no {engine[0]}: build it first (cargo build --release)")
        return 2
    window = args.window or 2 * args.procs * args.workers

    tmp = tempfile.mkdtemp(prefix="load-provide-")
    token = "lip_load" + secrets.token_hex(8)
    token_file = os.path.join(tmp, "lichess-token")
    with open(token_file, "w") as f:
        f.write(token + "\n")
    os.chmod(token_file, 0o600)
    secret_file = os.path.join(tmp, "provider-secret")  # created by the first provider
    mock = Mock(tmp, args.poll_s, token, args.one_port)
    procs: list[subprocess.Popen] = []
    failed = False
    try:
        configs = [write_config(tmp, i, mock, args, token_file, secret_file)
                   for i in range(args.procs)]
        procs.append(start_provider(args, configs[0], 0, tmp, engine))
        if not wait_for("the registration", lambda: mock.hook("GET", "engines"), 30, procs):
            return 2
        for i in range(1, args.procs):
            procs.append(start_provider(args, configs[i], i, tmp, engine))
        engines = mock.hook("GET", "engines")
        if len(engines) != 1:
            print(f"load-provide: {len(engines)} engines registered, expected 1: {engines}")
            failed = True
        engine_id = engines[0]["id"]
        want = args.procs  # one long poll out a process (its free workers take turns)
        wait_for(f"{want} long polls", lambda: mock.hook("GET", "stats")["waiting_acquires"]
                 >= want, 30, procs)

        # Feed the jobs (at most `window` in flight), then wait for all to settle; give up at
        # the deadline, or when no job has settled for --stall-s (a lost job stays "queued" or
        # "acquired" for ever: the requesters here never leave).
        deadline = time.monotonic() + args.timeout_s
        enqueued, settled, progress = 0, -1, time.monotonic()
        stalled = False
        while time.monotonic() < deadline:
            if any(p.poll() is not None for p in procs):
                break
            states = mock.hook("GET", "stats")["states"]
            done = sum(states.get(s, 0) for s in ("ended", "expired", "dropped"))
            if done != settled:
                settled, progress = done, time.monotonic()
            elif time.monotonic() - progress > args.stall_s:
                stalled = True
                break
            if enqueued == args.jobs and done == enqueued:
                break
            in_flight = enqueued - done
            room = args.jobs - enqueued if args.burst else min(window - in_flight,
                                                               args.jobs - enqueued)
            for _ in range(max(0, room)):
                status, body = mock.call("POST", "/_mock/enqueue", {
                    "engine": engine_id, "work": make_work(enqueued, args), "pickup_s": None})
                if status != 200:
                    print(f"load-provide: enqueue of {make_work(enqueued, args)} refused: {body}")
                    return 2
                enqueued += 1
            if room <= 0:
                time.sleep(0.002)
        if stalled:
            print(f"load-provide: no job settled for {args.stall_s} s: giving up "
                  f"({settled} of {enqueued} enqueued settled)")
        elif time.monotonic() >= deadline:
            print(f"load-provide: --timeout-s {args.timeout_s} reached")
        jobs_body = mock.hook("GET", "jobs")
        requests = mock.hook("GET", "requests")
        result = analyse(jobs_body["jobs"], jobs_body["unknown_submits"], requests, args.jobs)
        for p in procs:
            if p.poll() is not None:
                failed = True
                print(f"load-provide: provider {p.pid} exited early with {p.returncode}; "
                      f"see {p.log.name}")
        result["providers_alive"] = sum(1 for p in procs if p.poll() is None)
        report(result, args, engine)
        if args.json:
            with open(args.json, "w") as f:
                json.dump(result, f, indent=1)
        failed = failed or result["lost"] > 0 or result["unknown_submits"] > 0
        return 1 if failed else 0
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
            p.log.close()
        mock.stop()
        if args.keep or failed:
            print(f"load-provide: logs in {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
