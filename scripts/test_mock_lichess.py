#!/usr/bin/env python3
"""Self-test of scripts/mock_lichess.py: plain python3, exits non-zero on a failure, < 30 s.

Part 1 checks the mock's ports of lila-engine's rules in-process (the engine-line grammar of
src/uci.rs, the Work decoding and sanitize of src/api.rs, emit.rs). Part 2 starts the mock
(`--poll-s 1 --pickup-s 2`) and plays a provider against it over real sockets: registration,
long polls, streamed (chunked) submits that are accepted, refused (400), late (404), cut short
by a requester leaving, the broker going down, and a requester on the analyse endpoint.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import http.client

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import mock_lichess as M  # noqa: E402

FAILURES: list[str] = []
CHECKS = 0


def check(cond, what: str) -> bool:
    global CHECKS
    CHECKS += 1
    if not cond:
        FAILURES.append(what)
        print(f"FAIL: {what}", flush=True)
    return bool(cond)


# ------------------------------------------------------------------------------------------
# Part 1: in-process


def test_grammar():
    accepted = [
        "info depth 20 seldepth 30 multipv 1 score cp 47 nodes 1494341 nps 1088376 hashfull 594 "
        "tbhits 0 time 1373 pv d2d4 d7d5 c2c4",
        "info depth 5 score mate -3 pv e2e4",
        "info depth 5 score cp 10 lowerbound pv e2e4",
        "info depth 5 score cp 10 upperbound lowerbound upperbound",
        "info multipv 5 depth 1",
        "info multipv 0 depth 1",  # 0 reads as 1
        "info string anything wdl 1 2 3 goes\there",
        "info string",
        "info",
        "info\tdepth\t3",
        "  info depth 3  ",
        "info pv e2e4 e7e5 depth 9",  # the move list ends at the first non-move
        "info pv 0000 e1h1 P@e4 e7e8q e7e8Q",
        "info currmove e2e4 currmovenumber 1",
        "info refutation d1h5 g6h5 currline 1 e2e4 e7e5",
        "info cpuload 500 sbhits 0",
        "info depth +5",  # Rust's parse takes a leading +
        "info score cp -9223372036854775808",
        "bestmove e2e4",
        "bestmove e2e4 ponder e7e5 whatever follows",
        "bestmove (none)",
        "bestmove",
        "bestmove e2e4 ponder",
    ]
    ignored = ["", "readyok", "id name X", "Info depth x", "infodepth 3", "option name wdl",
               "   ", "bestmovee2e4"]
    refused = {
        "info depth 1 score cp 20 wdl 500 400 100 pv e2e4": "unexpected token",
        "info multipv 6 depth 1": "invalid multipv: supported range is 1 to 5",
        "info depth": "unexpected end of line",
        "info depth -1": "invalid integer: invalid digit found in string",
        "info depth 4294967296": "invalid integer: number too large to fit in target type",
        "info depth ５": "invalid integer: invalid digit found in string",
        "info nodes 1_000": "invalid integer: invalid digit found in string",
        "info score wdl 1": "unexpected token",
        "info score": "unexpected end of line",
        "info score cp": "unexpected end of line",
        "info score mate 2147483648": "invalid integer: number too large to fit in target type",
        "info pv e2e4 foo": "unexpected token",
        "info currmove e9e4": "invalid move: invalid uci",
        "info ebf 1.5": "unexpected token",
        "info movesleft 40": "unexpected token",
        "info depth 1\rnodes 2": "unexpected line break in uci command",
        "bestmove e2e4 extra": "unexpected token",
        "bestmove e2": "invalid move: invalid uci",
        "bestmove e2e4 ponder x": "invalid move: invalid uci",
    }
    for line in accepted:
        try:
            check(M.parse_engine_line(line) is not None, f"grammar accepts {line!r}")
        except M.ProtocolError as err:
            check(False, f"grammar accepts {line!r} (refused: {err})")
    for line in ignored:
        check(M.parse_engine_line(line) is None, f"grammar ignores {line!r}")
    for line, msg in refused.items():
        try:
            M.parse_engine_line(line)
            check(False, f"grammar refuses {line!r}")
        except M.ProtocolError as err:
            check(str(err) == msg, f"grammar refuses {line!r} with {msg!r}, got {str(err)!r}")
    info = M.parse_engine_line("info multipv 0 depth 3 score cp 5 lowerbound pv e2e4 string a b ")
    check(info["multipv"] == 1 and info["score"]["lowerbound"] and info["string"] == "a b",
          f"grammar values {info}")


def test_work():
    engine = {"id": "eei_x", "variants": ["chess", "crazyhouse"], "maxThreads": 4, "maxHash": 64}
    base = {"sessionId": "s", "threads": 64, "hash": 9999, "movetime": 100, "multiPv": 0,
            "variant": "standard",
            "initialFen": "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "moves": ["e1g1"]}
    w = M.decode_work(base)
    check(w["multiPv"] == 1 and w["variant"] == "chess", "decode: multiPv 0 -> 1, alias")
    for bad, why in [({"multiPv": 6}, "multiPv 6"), ({"threads": 0}, "threads 0"),
                     ({"threads": 1.5}, "threads float"), ({"variant": "giveaway"}, "variant"),
                     ({"initialFen": "8/8/8 w"}, "fen"), ({"moves": ["e2e9"]}, "move syntax"),
                     ({"moves": "e2e4"}, "moves not a list"), ({"hash": True}, "bool hash")]:
        try:
            M.decode_work({**base, **bad})
            check(False, f"decode refuses {why} (422)")
        except M.DataError:
            pass
    no_search = {k: v for k, v in base.items() if k != "movetime"}
    try:
        M.decode_work(no_search)
        check(False, "decode refuses a work without movetime/depth/nodes")
    except M.DataError:
        pass
    first = M.decode_work({**no_search, "depth": 5, "movetime": 7})
    check(first["search"] == ("depth", 5), "decode: the first search key wins")
    if M.chess is None:
        print("NOTE: python-chess missing: legality checks of sanitize not tested")
        return
    out, pos, checked = M.sanitize(w, engine)
    check(checked == "legal" and out["threads"] == 4 and out["hash"] == 64,
          f"sanitize clamps {out}")
    check(out["moves"] == ["e1h1"], f"sanitize: castling as king takes rook {out['moves']}")
    check(list(out) == ["sessionId", "threads", "hash", "movetime", "multiPv", "variant",
                        "initialFen", "moves"], f"sanitize key order {list(out)}")
    check(not pos.white_to_move, "position after the moves")
    for bad, msg in [({"variant": "atomic"}, "unsupported variant"),
                     ({"initialFen": "8/8/8/8/8/8/8/8 w - - 0 1"}, "illegal initial position"),
                     ({"moves": ["e1e1"]}, "illegal uci move"),
                     ({"moves": ["a1a1"] * 601}, "too many moves"),  # counted first
                     ({"moves": ["e2e4"]}, "illegal uci move"),
                     ({"initialFen": "4k3/8/8/8/8/8/8/4K3 w K - 0 1"}, "illegal initial position")]:
        try:
            M.sanitize(M.decode_work({**base, **bad}), engine)
            check(False, f"sanitize refuses {bad}")
        except M.InvalidWork as err:
            check(msg in str(err), f"sanitize refuses {bad} with {msg!r}: {err}")
    many = M.decode_work({**base, "initialFen": "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
                          "moves": ["e1e2", "e8e7", "e2e1", "e7e8"] * 151})
    try:
        M.sanitize(many, engine)
        check(False, "sanitize refuses 604 moves")
    except M.InvalidWork as err:
        check(str(err) == "too many moves", f"too many moves: {err}")
    zh = M.decode_work({**base, "variant": "crazyhouse",
                        "initialFen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
                        "moves": ["e2e4", "d7d5", "e4d5", "d8d5", "p@e4"]})
    out, _, _ = M.sanitize(zh, engine)
    check(out["moves"][-1] == "P@e4", f"crazyhouse drop {out['moves']}")
    ep = M.decode_work({**base, "initialFen":
                        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "moves": []})
    out, _, _ = M.sanitize(ep, engine)
    check(" - 0 1" in out["initialFen"], f"ep square kept only when legal: {out['initialFen']}")


def test_emit():
    if M.chess is None:
        return
    engine = {"id": "e", "variants": ["chess"], "maxThreads": 1, "maxHash": 1}
    w = M.decode_work({"sessionId": "s", "threads": 1, "hash": 1, "depth": 5, "multiPv": 2,
                       "variant": "chess", "initialFen":
                       "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                       "moves": ["e2e4"]})
    _, pos, _ = M.sanitize(w, engine)
    e = M.Emit()
    e.update(M.parse_engine_line("info multipv 1 depth 3 score cp 30 nodes 9 time 4 pv e7e5 "
                                 "g1f3 a1a1"), pos)
    check(e.should_emit(), "emit after the first pv when only one pv is known")
    j = e.to_json()
    check(j["pvs"][0] == {"moves": ["e7e5", "g1f3"], "cp": -30, "depth": 3} and j["nodes"] == 9,
          f"emit: black's score from White's view, pv cut at the illegal move: {j}")
    e.update(M.parse_engine_line("info multipv 2 depth 2 score mate 2 pv d7d5"), pos)
    j = e.to_json()
    check(len(j["pvs"]) == 2 and j["pvs"][1]["mate"] == -2 and j["depth"] == 2,
          f"emit multipv 2: {j}")
    e.update(M.parse_engine_line("info multipv 1 depth 4 score cp 10 upperbound pv e7e5"), pos)
    check(not e.should_emit(), "a bound score of pv 1 is not emitted; pvs reset")


# ------------------------------------------------------------------------------------------
# Part 2: over HTTP


class Mock:
    def __init__(self, *args):
        self.proc = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "mock_lichess.py"), *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if not line.startswith("listening http://127.0.0.1:"):
            raise SystemExit(f"mock did not start: {line!r} {self.proc.stderr.read()}")
        self.port = int(line.rsplit(":", 1)[1])

    def req(self, method, path, body=None, token=None, ctype="application/json", timeout=15,
            raw=None):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        headers = {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None
                                            else None)
        if data is not None and ctype:
            headers["Content-Type"] = ctype
        c.request(method, path, body=data, headers=headers)
        r = c.getresponse()
        text = r.read().decode()
        c.close()
        try:
            return r.status, json.loads(text) if text else None, dict(r.getheaders())
        except json.JSONDecodeError:
            return r.status, text, dict(r.getheaders())

    def hook(self, method, path, body=None):
        return self.req(method, "/_mock/" + path, body)[1]

    def job(self, key):
        return self.hook("GET", f"jobs?job={key}")["jobs"][0]

    def stop(self):
        self.proc.kill()
        self.proc.wait()


class Submit:
    """A provider's streamed submit: chunked request body written line by line."""

    def __init__(self, port, job_id):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.sock.sendall(
            f"POST /api/external-engine/work/{job_id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Content-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n".encode())
        self.buf = b""

    def send(self, data: bytes):
        self.sock.sendall(b"%x\r\n%s\r\n" % (len(data), data))

    def line(self, text: str):
        self.send(text.encode() + b"\n")

    def end(self):
        self.sock.sendall(b"0\r\n\r\n")

    def response(self, timeout=5):
        """(status, headers, body, closed_after): reads one response; closed_after tells
        whether the server then closed the connection."""
        self.sock.settimeout(timeout)
        while b"\r\n\r\n" not in self.buf:
            data = self.sock.recv(65536)
            if not data:
                raise EOFError("closed before a response")
            self.buf += data
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        lines = head.decode().split("\r\n")
        status = int(lines[0].split()[1])
        headers = {k.lower(): v.strip() for k, v in (ln.split(":", 1) for ln in lines[1:])}
        n = int(headers.get("content-length", "0"))
        while len(self.buf) < n:
            self.buf += self.sock.recv(65536)
        body, self.buf = self.buf[:n], self.buf[n:]
        self.sock.settimeout(1)
        try:
            closed = self.sock.recv(1) == b""
        except socket.timeout:
            closed = False
        except ConnectionResetError:
            closed = True
        self.sock.close()
        return status, headers, body.decode(), closed


def acquire(mock, secret, timeout=15):
    t = time.monotonic()
    status, body, _ = mock.req("POST", "/api/external-engine/work", {"providerSecret": secret},
                               timeout=timeout)
    return status, body, time.monotonic() - t


START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def work(search=("movetime", 100), **kw):
    w = {"sessionId": "sess1", "threads": 1, "hash": 16, search[0]: search[1], "multiPv": 1,
         "variant": "chess", "initialFen": START, "moves": []}
    w.update(kw)
    return w


def test_http():
    mock = Mock("--poll-s", "1", "--pickup-s", "2", "--token", "lip_a", "--token",
                "lip_ro/reader/engine:read")
    try:
        run_http(mock)
    finally:
        mock.stop()


def run_http(mock: Mock):
    T = "lip_a"
    secret = "s3cr3t-provider-secret-0001"
    # --- registration (lila)
    check(mock.req("GET", "/api/external-engine")[0] == 401, "list without a token: 401")
    check(mock.req("GET", "/api/external-engine", token="nope")[0] == 401, "unknown token: 401")
    status, body, _ = mock.req("GET", "/api/external-engine", token=T)
    check(status == 200 and body == [], f"empty list: {status} {body}")
    reg = {"name": "Fenguard Test", "maxThreads": 4, "maxHash": 64,
           "variants": ["chess", "atomic"], "providerSecret": "first-secret-0123456789"}
    status, eng, _ = mock.req("POST", "/api/external-engine", reg, token=T)
    check(status == 201 and eng["id"].startswith("eei_") and eng["clientSecret"].startswith(
        "ees_") and eng["userId"] == "mock-user" and eng["providerData"] is None,
        f"create: {status} {eng}")
    check(list(eng) == ["id", "name", "userId", "maxThreads", "maxHash", "variants",
                        "providerData", "clientSecret"], f"create: lila's keys {list(eng)}")
    status, err, _ = mock.req("POST", "/api/external-engine",
                              {**reg, "name": " ", "providerSecret": "short", "maxHash": 0,
                               "variants": ["giveaway"]}, token=T)
    check(status == 400 and {"name", "providerSecret", "maxHash", "variants[0]"} <= set(
        err["error"]), f"invalid registration: {status} {err}")
    check(mock.req("POST", "/api/external-engine", reg, token="lip_ro")[0] == 403,
          "create with a read-only token: 403")
    status, upd, _ = mock.req("PUT", f"/api/external-engine/{eng['id']}",
                              {**reg, "providerSecret": secret, "maxThreads": 2}, token=T)
    check(status == 200 and upd["id"] == eng["id"] and upd["clientSecret"] == eng[
        "clientSecret"] and upd["maxThreads"] == 2, f"update: {status} {upd}")
    engines = mock.hook("GET", "engines")
    check(engines[0]["providerSelector"] == M.provider_selector(secret),
          "update: the new secret's selector")
    check(mock.req("GET", f"/api/external-engine/{eng['id']}", token=T)[1]["maxThreads"] == 2,
          "show after update")
    status, other, _ = mock.req("POST", "/api/external-engine", {**reg, "name": "Other"}, token=T)
    check(mock.req("DELETE", f"/api/external-engine/{other['id']}", token=T)[1] == {"ok": True},
          "delete")
    check(mock.req("GET", f"/api/external-engine/{other['id']}", token=T)[0] == 404,
          "show a deleted engine: 404")
    check(mock.req("DELETE", f"/api/external-engine/{other['id']}", token=T)[0] == 404,
          "delete twice: 404")

    # --- long poll without a job: 204 after --poll-s
    status, body, took = acquire(mock, secret)
    check(status == 204 and 0.9 < took < 1.8, f"long poll: 204 after ~1 s ({status}, {took:.2f})")
    status, body, _ = mock.req("POST", "/api/external-engine/work", raw=b'{"providerSecret":1}')
    check(status == 422, f"acquire with a bad body: 422 ({status})")
    status, body, _ = mock.req("POST", "/api/external-engine/work", {"providerSecret": secret},
                               ctype="text/plain")
    check(status == 415, f"acquire without a JSON content type: 415 ({status})")
    check(mock.req("GET", "/api/external-engine/work")[0] == 405, "GET on the broker: 405")

    # --- enqueue: sanitized as the broker does
    status, enq, _ = mock.req("POST", "/_mock/enqueue", {
        "engine": eng["id"], "pickup_s": None,
        "work": work(threads=64, hash=9999, multiPv=0, variant="standard",
                     initialFen="r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
                     moves=["e1g1"])})
    check(status == 200 and enq["work"]["threads"] == 2 and enq["work"]["hash"] == 64 and
          enq["work"]["multiPv"] == 1 and enq["work"]["variant"] == "chess",
          f"enqueue sanitizes: {enq}")
    if M.chess is not None:
        check(enq["work"]["moves"] == ["e1h1"], f"enqueue: king takes rook {enq['work']}")
    status, body, _ = mock.req("POST", "/_mock/enqueue", {"engine": eng["id"],
                                                          "work": work(variant="crazyhouse")})
    check(status == 400 and body["status"] == 400, f"enqueue an unregistered variant: {body}")
    status, body, _ = mock.req("POST", "/_mock/enqueue", {"engine": eng["id"],
                                                          "work": work(multiPv=6)})
    check(status == 400 and body["status"] == 422, f"enqueue multiPv 6: {body}")

    # --- acquire, then a good stream: 200
    status, job, took = acquire(mock, secret)
    check(status == 200 and len(job["id"]) == 16 and job["id"].isalnum() and took < 0.5,
          f"acquire: {status} {job} {took:.2f}")
    check(job["work"] == enq["work"], "acquire answers the sanitized work")
    check(list(job["engine"]) == ["id", "name", "clientSecret", "userId", "maxThreads",
                                  "maxHash", "variants", "providerData"],
          f"acquire: lila-engine's Engine keys {list(job['engine'])}")
    s = Submit(mock.port, job["id"])
    s.line("info depth 1 seldepth 1 multipv 1 score cp 20 nodes 10 nps 100 time 5 pv e8h8 d2d4")
    time.sleep(0.05)
    s.line("info string hello wdl 1 2 3")
    s.send(b"readyok\r\ninfo depth 2 score cp 25 nodes 50 time 9 pv d7d5\n")
    s.line("bestmove d7d5 ponder d2d4")
    s.end()
    status, headers, body, closed = s.response()
    check(status == 200 and body == "" and not closed,
          f"good stream: 200, kept alive ({status} {body!r} closed={closed})")
    j = mock.job(enq["job"])
    check(j["state"] == "ended" and j["end"] == "bestmove" and j["submit_status"] == 200 and
          j["acquire_count"] == 1, f"job ended at bestmove: {j['state']} {j['end']}")
    check([ln["kind"] for ln in j["lines"]] == ["info", "info", "ignored", "info", "bestmove"],
          f"lines recorded: {[ln['kind'] for ln in j['lines']]}")
    if M.chess is not None:
        check(j["emits"][0]["pvs"][0] == {"moves": ["e8h8", "d2d4"], "cp": -20, "depth": 1},
              f"emit from White's point of view: {j['emits']}")
    check(all(k in j["times"] for k in ("queued", "acquired", "submit_started", "first_line",
                                        "first_info", "bestmove", "ended")),
          f"job times {j['times']}")

    # --- a body with a Content-Length (not chunked) is read the same way
    enq2 = mock.hook("POST", "enqueue", {"engine": eng["id"], "work": work(), "pickup_s": None})
    _, job2, _ = acquire(mock, secret)
    status, body, _ = mock.req("POST", f"/api/external-engine/work/{job2['id']}",
                               raw=b"info depth 1 score cp 3 nodes 1 time 1 pv e2e4\nbestmove e2e4",
                               ctype="text/plain")
    j = mock.job(enq2["job"])
    check(status == 200 and j["end"] == "bestmove" and j["emit_count"] == 1,
          f"Content-Length body: {status} {j['end']}")

    # --- a late submit: 404
    s = Submit(mock.port, job["id"])
    s.line("info depth 1")
    status, _, body, closed = s.response()
    check(status == 404 and body == "work not found or cancelled or expired" and closed,
          f"late submit: 404 and closed ({status} {body!r} closed={closed})")
    j = mock.job(enq["job"])
    check([a["status"] for a in j["submits"]] == [200, 404], f"submits {j['submits']}")

    # --- a line with wdl: 400, the rest unread, closed
    enq = mock.hook("POST", "enqueue", {"engine": eng["id"], "work": work(), "pickup_s": None})
    _, job, _ = acquire(mock, secret)
    s = Submit(mock.port, job["id"])
    s.line("info depth 1 score cp 20 nodes 5 time 1 pv e2e4")
    s.line("info depth 2 score cp 21 wdl 500 400 100 nodes 9 time 2 pv e2e4")
    time.sleep(0.1)
    status, _, body, closed = s.response()
    check(status == 400 and body == "uci protocol error: unexpected token" and closed,
          f"wdl: 400 and closed ({status} {body!r} closed={closed})")
    j = mock.job(enq["job"])
    check(j["end"] == "protocol-error" and j["lines"][-1]["kind"] == "refused" and
          j["emit_count"] == 1, f"wdl job: {j['end']} {j['lines'][-1]}")

    # --- not UTF-8: 400
    enq = mock.hook("POST", "enqueue", {"engine": eng["id"], "work": work(), "pickup_s": None})
    _, job, _ = acquire(mock, secret)
    s = Submit(mock.port, job["id"])
    s.send(b"info string \xff\n")
    status, _, body, _ = s.response()
    check(status == 400 and "UTF-8" in body, f"invalid UTF-8: 400 ({status} {body!r})")

    # --- the requester leaves after 2 lines: 200 at once, body unread, closed
    enq = mock.hook("POST", "enqueue", {"engine": eng["id"], "work": work(), "pickup_s": None,
                                        "leave_after_lines": 2})
    _, job, _ = acquire(mock, secret)
    s = Submit(mock.port, job["id"])
    s.line("info depth 1 score cp 1 nodes 1 time 1 pv e2e4")
    s.line("info depth 2 score cp 2 nodes 2 time 2 pv e2e4")
    t = time.monotonic()
    status, _, body, closed = s.response(timeout=3)
    check(status == 200 and closed and time.monotonic() - t < 1,
          f"requester left: 200 mid-stream, closed ({status} closed={closed})")
    j = mock.job(enq["job"])
    check(j["end"] == "requester-left" and j["line_count"] == 2, f"left job {j['end']}")

    # --- the requester left before pickup (pickup timeout): the job is skipped
    enq = mock.hook("POST", "enqueue", {"engine": eng["id"], "work": work(), "pickup_s": 0.2})
    time.sleep(0.4)
    status, _, _ = acquire(mock, secret)
    check(status == 204 and mock.job(enq["job"])["state"] == "expired",
          f"expired job skipped: {status} {mock.job(enq['job'])['state']}")
    # acquired, but the submit begins after the requester left: 200 at once
    enq = mock.hook("POST", "enqueue", {"engine": eng["id"], "work": work(), "pickup_s": 0.3})
    _, job, _ = acquire(mock, secret)
    time.sleep(0.5)
    s = Submit(mock.port, job["id"])
    status, _, _, _ = s.response()
    check(status == 200 and mock.job(enq["job"])["end"] == "requester-left",
          "submit after the pickup timeout: 200, requester-left")

    # --- a long poll whose client leaves takes no job
    c = socket.create_connection(("127.0.0.1", mock.port))
    data = json.dumps({"providerSecret": secret}).encode()
    c.sendall(b"POST /api/external-engine/work HTTP/1.1\r\nHost: x\r\nContent-Type: "
              b"application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(data), data))
    time.sleep(0.2)
    c.close()
    time.sleep(0.2)
    enq = mock.hook("POST", "enqueue", {"engine": eng["id"], "work": work(), "pickup_s": None})
    time.sleep(0.3)
    check(mock.job(enq["job"])["state"] == "queued", "a closed long poll took no job")
    status, job, _ = acquire(mock, secret)
    check(status == 200, "the job goes to the next poll")
    s = Submit(mock.port, job["id"])
    s.line("bestmove e2e4")
    s.end()
    check(s.response()[0] == 200, "bestmove alone: 200")

    # --- analyse (the requester's side), end to end
    results = {}

    def requester():
        c = http.client.HTTPConnection("127.0.0.1", mock.port, timeout=10)
        c.request("POST", f"/api/external-engine/{eng['id']}/analyse",
                  body=json.dumps({"clientSecret": eng["clientSecret"],
                                   "work": work(("depth", 3), multiPv=2, moves=["e2e4"])}),
                  headers={"Content-Type": "application/json"})
        r = c.getresponse()
        results["status"] = r.status
        results["ctype"] = r.getheader("content-type")
        results["lines"] = [json.loads(ln) for ln in r.read().decode().splitlines()]

    th = threading.Thread(target=requester)
    th.start()
    status, job, _ = acquire(mock, secret)
    check(status == 200 and job["work"]["multiPv"] == 2 and job["work"]["depth"] == 3,
          f"analyse request acquired: {job and job['work']}")
    s = Submit(mock.port, job["id"])
    s.line("info multipv 1 depth 1 score cp 10 nodes 5 time 1 pv e7e5")
    s.line("info multipv 2 depth 1 score cp 5 nodes 6 time 1 pv d7d5")
    s.line("info multipv 1 depth 2 score cp 12 nodes 9 time 2 pv e7e5")
    s.line("info multipv 2 depth 2 score cp 4 nodes 12 time 3 pv c7c5")
    s.line("bestmove e7e5")
    s.end()
    check(s.response()[0] == 200, "analyse: submit 200")
    th.join(5)
    # emit.rs: the pvs list grows with the multipv numbers seen, so the first line emits a
    # single pv; multipv 1 of depth 2 resets it, and only its multipv 2 completes it again
    check(results.get("status") == 200 and results.get("ctype") == "application/x-ndjson" and
          [len(ln["pvs"]) for ln in results.get("lines", [])] == [1, 2, 2],
          f"analyse stream: {results}")
    if M.chess is not None and len(results.get("lines", [])) == 3:
        check([pv["cp"] for pv in results["lines"][2]["pvs"]] == [-12, -4],
              f"analyse emits {results['lines']}")
    status, body, _ = mock.req("POST", f"/api/external-engine/{eng['id']}/analyse",
                               {"clientSecret": "wrong", "work": work()})
    check(status == 404 and body == "engine not found or invalid clientSecret",
          f"analyse wrong secret: {status}")
    status, body, _ = mock.req("POST", f"/api/external-engine/{eng['id']}/analyse",
                               {"clientSecret": eng["clientSecret"], "work": work(multiPv=6)})
    check(status == 422, f"analyse multiPv 6: 422 ({status} {body})")
    status, body, _ = mock.req("POST", f"/api/external-engine/{eng['id']}/analyse",
                               {"clientSecret": eng["clientSecret"],
                                "work": work(variant="horde")})
    check(status == 400 and body == "invalid work: unsupported variant", f"analyse horde: {body}")
    t = time.monotonic()
    status, body, _ = mock.req("POST", f"/api/external-engine/{eng['id']}/analyse",
                               {"clientSecret": eng["clientSecret"], "work": work()})
    check(status == 503 and 1.9 < time.monotonic() - t < 3,
          f"analyse without a provider: 503 after --pickup-s ({status})")

    # --- broker down (502): a waiting long poll answers 502 at once; lila still answers
    res = {}
    th = threading.Thread(target=lambda: res.update(r=acquire(mock, secret)))
    th.start()
    time.sleep(0.2)
    mock.hook("POST", "broker-down", {"seconds": 1.0})
    th.join(3)
    check(res.get("r", (0,))[0] == 502 and res["r"][2] < 0.6,
          f"a waiting poll gets 502 when the broker goes down: {res.get('r')}")
    check(acquire(mock, secret)[0] == 502, "acquire while down: 502")
    check(mock.req("GET", "/api/external-engine", token=T)[0] == 200, "lila up while the broker is down")
    time.sleep(1.0)
    check(acquire(mock, secret)[0] == 204, "broker back: 204")
    # a submit in progress is cut
    enq = mock.hook("POST", "enqueue", {"engine": eng["id"], "work": work(), "pickup_s": None})
    _, job, _ = acquire(mock, secret)
    s = Submit(mock.port, job["id"])
    s.line("info depth 1")
    time.sleep(0.1)
    mock.hook("POST", "broker-down", {"seconds": 0.3, "mode": "reset"})
    try:
        s.response()
        check(False, "a submit is cut when the broker goes down")
    except (EOFError, ConnectionResetError):
        pass
    check(mock.job(enq["job"])["end"] == "broker-down", "the cut job ends broker-down")
    time.sleep(0.4)
    # refuse: the port is closed
    mock.hook("POST", "broker-down", {"seconds": 0.5, "mode": "refuse"})
    time.sleep(0.15)
    try:
        socket.create_connection(("127.0.0.1", mock.port), timeout=1).close()
        check(False, "refuse mode refuses connections")
    except ConnectionRefusedError:
        pass
    time.sleep(0.6)
    check(mock.req("GET", "/api/external-engine", token=T)[0] == 200, "after refuse: up again")

    # --- injected failures
    mock.hook("POST", "inject", {"path": "^/api/external-engine$", "status": 429,
                                 "body": "{\"error\":\"Too many requests\"}"})
    check(mock.req("GET", "/api/external-engine", token=T)[0] == 429, "injected 429")
    check(mock.req("GET", "/api/external-engine", token=T)[0] == 200, "then served again")

    # --- the request log
    log = mock.hook("GET", "requests")
    statuses = {e["status"] for e in log}
    check({200, 201, 204, 400, 404, 502} <= statuses, f"request log statuses {statuses}")
    check(all(not e["path"].startswith("/_mock/") for e in log), "hooks are not logged")
    stats = mock.hook("GET", "stats")
    check(stats["ongoing"] == 0 and stats["states"].get("queued", 0) == 0, f"stats {stats}")
    wait = mock.req("POST", "/_mock/wait", {"until": "settled", "timeout_s": 1})
    check(wait[0] == 200 and wait[1]["ok"], "wait: all settled")


def test_split_ports():
    """--broker-port: lila and the broker on two ports; refuse closes the broker's only."""
    proc = subprocess.Popen([sys.executable, os.path.join(HERE, "mock_lichess.py"),
                             "--broker-port", "0", "--poll-s", "0.3", "--token", "t"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        lila_port = int(proc.stdout.readline().rsplit(":", 1)[1])
        broker_port = int(proc.stdout.readline().rsplit(":", 1)[1])
        lila, broker = Mock.__new__(Mock), Mock.__new__(Mock)
        lila.port, broker.port = lila_port, broker_port
        reg = {"name": "Split", "maxThreads": 1, "maxHash": 16,
               "providerSecret": "split-secret-0123456789"}
        check(lila.req("POST", "/api/external-engine", reg, token="t")[0] == 201,
              "split: register on the lila port")
        check(broker.req("GET", "/api/external-engine", token="t")[0] == 404,
              "split: no registration on the broker port")
        check(lila.req("POST", "/api/external-engine/work",
                       {"providerSecret": reg["providerSecret"]})[0] == 404,
              "split: no acquire on the lila port")
        check(acquire(broker, reg["providerSecret"])[0] == 204, "split: acquire on the broker")
        lila.hook("POST", "broker-down", {"seconds": 0.5, "mode": "refuse"})
        time.sleep(0.15)
        try:
            socket.create_connection(("127.0.0.1", broker_port), timeout=1).close()
            check(False, "split: refuse closes the broker port")
        except ConnectionRefusedError:
            pass
        check(lila.req("GET", "/api/external-engine", token="t")[0] == 200,
              "split: lila answers while the broker refuses")
        time.sleep(0.6)
        check(acquire(broker, reg["providerSecret"])[0] == 204, "split: the broker is back")
    finally:
        proc.kill()
        proc.wait()


def main() -> int:
    t = time.monotonic()
    test_grammar()
    test_work()
    test_emit()
    test_http()
    test_split_ports()
    took = time.monotonic() - t
    if FAILURES:
        print(f"test_mock_lichess: {len(FAILURES)} of {CHECKS} checks failed ({took:.1f} s)")
        return 1
    print(f"test_mock_lichess: all {CHECKS} checks passed ({took:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
