#!/usr/bin/env python3
"""Load test of `fenguard serve` (issue 11): CLIENTS concurrent python-chess clients, each
through its own `fenguard connect` (TLS + token), play fast games against Stockfish through one
daemon.

Reports: games played, lost bestmoves (a search answered `bestmove 0000` or with no move:
must be 0), hangs (a search or handshake with no answer within --timeout: must be 0), the
daemon's RSS (idle and with every session open) and RSS per session (fenguard's share and the
engine's), and connection setup time up to `uciok` (plain TCP + token, TLS + token) beside
the engine's own start (Stockfish started directly), medians of --setup-runs sequential runs.

    python3 scripts/load-serve.py --fenguard target/release/fenguard --engine /usr/games/stockfish

Exit status 1 when a bestmove was lost or a client hung.
"""

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import chess
import chess.engine


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def children(pid):
    out = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                out += [int(p) for p in f.read().split()]
    except OSError:
        pass
    return out


def wait_listening(port, deadline=10.0):
    start = time.time()
    while time.time() - start < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.02)
    sys.exit(f"daemon not listening on {port}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fenguard", default="target/release/fenguard")
    ap.add_argument("--engine", default="/usr/games/stockfish")
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--games", type=int, default=2, help="games per client")
    ap.add_argument("--nodes", type=int, default=400, help="nodes per move")
    ap.add_argument("--max-plies", type=int, default=120)
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds before a search is a hang")
    ap.add_argument("--setup-runs", type=int, default=15)
    args = ap.parse_args()
    fenguard = os.path.abspath(args.fenguard)
    if not shutil.which("openssl"):
        sys.exit("openssl is needed to make the test certificate")

    work = tempfile.mkdtemp(prefix="fenguard-load-")
    cert, key = os.path.join(work, "cert.pem"), os.path.join(work, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                    "-nodes", "-days", "2", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-addext", "basicConstraints=critical,CA:FALSE",
                    "-keyout", key, "-out", cert], check=True, capture_output=True)
    tokens = os.path.join(work, "tokens")
    token = subprocess.run([fenguard, "token", "new", "--tokens-file", tokens],
                           check=True, capture_output=True, text=True).stdout.strip()
    token_file = os.path.join(work, "token")
    with open(token_file, "w") as f:
        f.write(token + "\n")
    plain_port, tls_port = free_port(), free_port()
    config = os.path.join(work, "serve.toml")
    with open(config, "w") as f:
        f.write(f'[serve]\ntls_cert = "{cert}"\ntls_key = "{key}"\ntokens_file = "{tokens}"\n'
                f'max_sessions = {args.clients + 4}\n[log]\npositions = true\n')
    daemon = subprocess.Popen([fenguard, "serve", "--config", config, "--log-dir", os.path.join(work, "logs"),
                               "--listen", f"127.0.0.1:{plain_port}", "--listen", f"tls://127.0.0.1:{tls_port}",
                               "--", args.engine],
                              stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "stderr"), "w"))
    wait_listening(plain_port)
    wait_listening(tls_port)
    idle_rss = rss_kib(daemon.pid)

    plain = [fenguard, "connect", f"127.0.0.1:{plain_port}", "--token-file", token_file]
    tls = [fenguard, "connect", f"tls://127.0.0.1:{tls_port}", "--ca", cert, "--token-file", token_file]

    def setup_ms(command):
        times = []
        for _ in range(args.setup_runs):
            start = time.perf_counter()
            engine = chess.engine.SimpleEngine.popen_uci(command, timeout=args.timeout)
            times.append((time.perf_counter() - start) * 1000)
            engine.quit()
        return statistics.median(times)

    direct = setup_ms([args.engine])
    via_plain = setup_ms(plain)
    via_tls = setup_ms(tls)

    stats = {"games": 0, "moves": 0, "lost": 0, "hangs": 0, "errors": 0}
    lock = threading.Lock()
    barrier = threading.Barrier(args.clients + 1)
    peak = {"daemon": 0, "engines": 0, "sessions": 0}

    def client(i):
        engine = None
        try:
            engine = chess.engine.SimpleEngine.popen_uci(tls, timeout=args.timeout)
            engine.configure({"Threads": 1, "Hash": 16})
        except Exception as e:  # noqa: BLE001 - counted and reported
            with lock:
                stats["hangs" if isinstance(e, TimeoutError) else "errors"] += 1
            print(f"client {i}: start failed: {e!r}", file=sys.stderr)
        try:
            barrier.wait()
        except threading.BrokenBarrierError:
            pass
        if engine is None:
            return
        try:
            for _ in range(args.games):
                board = chess.Board()
                engine.configure({})
                while not board.is_game_over() and board.ply() < args.max_plies:
                    try:
                        result = engine.play(board, chess.engine.Limit(nodes=args.nodes))
                    except chess.engine.EngineTerminatedError as e:
                        with lock:
                            stats["errors"] += 1
                        print(f"client {i}: engine ended: {e}", file=sys.stderr)
                        return
                    except TimeoutError:
                        with lock:
                            stats["hangs"] += 1
                        return
                    if result.move is None or result.move not in board.legal_moves:
                        with lock:
                            stats["lost"] += 1
                        break
                    board.push(result.move)
                    with lock:
                        stats["moves"] += 1
                with lock:
                    stats["games"] += 1
        finally:
            try:
                engine.quit()
            except Exception:  # noqa: BLE001
                pass

    threads = [threading.Thread(target=client, args=(i,)) for i in range(args.clients)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    barrier.wait()
    # Every client is connected and configured: sample memory while they play.
    time.sleep(0.5)
    engines = children(daemon.pid)
    peak["sessions"] = len(engines)
    peak["daemon"] = rss_kib(daemon.pid)
    peak["engines"] = sum(rss_kib(p) for p in engines)
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    daemon.terminate()
    daemon.wait(timeout=10)
    left = [p for p in engines if os.path.exists(f"/proc/{p}")]

    sessions = max(peak["sessions"], 1)
    print(f"clients {args.clients}, games {stats['games']}, moves {stats['moves']} in {elapsed:.1f} s")
    print(f"lost bestmoves {stats['lost']}, hangs {stats['hangs']}, client errors {stats['errors']}")
    print(f"daemon RSS idle {idle_rss / 1024:.1f} MiB, with {peak['sessions']} sessions "
          f"{peak['daemon'] / 1024:.1f} MiB: {(peak['daemon'] - idle_rss) / sessions:.0f} KiB of fenguard "
          f"per session; engine RSS {peak['engines'] / sessions / 1024:.1f} MiB per session")
    print(f"setup up to uciok (median of {args.setup_runs}): engine alone {direct:.1f} ms, "
          f"connect plain TCP + token {via_plain:.1f} ms (+{via_plain - direct:.1f}), "
          f"connect TLS + token {via_tls:.1f} ms (+{via_tls - direct:.1f})")
    print(f"engines left after SIGTERM: {len(left)}")
    shutil.rmtree(work, ignore_errors=True)
    bad = stats["lost"] or stats["hangs"] or stats["errors"] or left
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
