#!/usr/bin/env python3
"""pychess's own engine probe against a `fenguard wrap` link started with no arguments (issue 21).

pychess cannot pass arguments to an engine: its "Add" button (widgets/enginesDialog.py) takes
one executable, runs pychess's `is_uci` on it (`uci` and `quit` written at once, 5 s,
`Players/engineNest.py`), then `discoverer.addEngine(...)` and `discoverer.discover()`, which
starts it through `initEngine` (pychess's `SubProcess`, warn words illegal/error/exception) as
a `UCIEngine`, sends `uci`, waits for `uciok` (`readyForOptions`), records every `option`,
kills it (`stop`, `quit`, SIGTERM), and emits `engine_discovered` or `engine_failed`. This
script imports pychess's modules (Debian's `pychess` package, /usr/lib/python3/dist-packages;
it re-runs itself with /usr/bin/python3 when the python3 running it lacks them) and runs
exactly that code: no GUI window, the asyncio loop pumped with GLib's main context as
/usr/games/pychess does. The engine is `fenguard-stockfish`, made by
`fenguard wrap STOCKFISH --name stockfish` with no `--dir` (so it goes into the configuration
directory), and, when Fairy-Stockfish is installed, `fenguard-fairy` beside it (pychess's GUI
refuses a second entry with the same command, so one engine name per profile).

Everything runs under a scratch HOME / XDG_* (pychess's engines.json, fenguard's logs).
Prints one line per check, what pychess recorded, and `N passed, M failed` last; exit 1 on a
failure. A missing pychess or Stockfish fails under CI=true, else the script says so and
passes. Importing pychess loads Gtk: it works without a display (one Gtk-CRITICAL line on
stderr), or run it under `xvfb-run -a`.
"""

import argparse
import asyncio
import atexit
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile

from check_results import Results  # scripts/check_results.py, beside this file

SYSTEM_PYTHON = "/usr/bin/python3"


def need(what, present, ci, package):
    if present:
        return True
    if ci:
        sys.exit(f"{what} is missing under CI=true (apt-get install -y {package})")
    line = f"SKIP(no {what}): scripts/pychess_probe.py"
    print(line)
    if os.environ.get("FENGUARD_SKIP_LOG"):  # scripts/test.sh counts the skips
        with open(os.environ["FENGUARD_SKIP_LOG"], "a") as skips:
            print(line, file=skips)
    return False


def system_python_with_pychess():
    """Whether Debian's python3 is another interpreter than this one (pyenv, a venv) and has
    pychess: Debian's pychess package is installed for the system's interpreter only."""
    if not os.access(SYSTEM_PYTHON, os.X_OK):
        return False
    if os.path.realpath(sys.executable) == os.path.realpath(SYSTEM_PYTHON):
        return False
    return subprocess.run([SYSTEM_PYTHON, "-c", "import pychess"],
                          capture_output=True).returncode == 0


def scratch_env(home):
    """HOME and XDG_* under `home`, set in this process (pychess reads them at import)."""
    env = {"HOME": home}
    for var, sub in [("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"),
                     ("XDG_CACHE_HOME", "cache"), ("XDG_STATE_HOME", "state")]:
        env[var] = os.path.join(home, sub)
        os.makedirs(env[var], exist_ok=True)
    os.environ.update(env)
    os.environ.pop("FENGUARD_CONFIG", None)
    return env


def wrap(r, fenguard, engine, name, conf_dir):
    """`fenguard wrap ENGINE --name NAME` (no --dir); the path it says to register."""
    out = subprocess.run([fenguard, "wrap", engine, "--name", name], capture_output=True,
                         text=True, timeout=60)
    link = os.path.join(conf_dir, f"fenguard-{name}")
    r.check(f"fenguard wrap {engine} --name {name}: {link}",
            out.returncode == 0 and link in out.stdout and os.access(link, os.X_OK),
            out.stdout + out.stderr)
    return link


def discover(engine_nest, timeout):
    """pychess's discoverer.discover() on an asyncio loop pumped with GLib's main context, as
    /usr/games/pychess runs it; the names discovered and failed, whether it finished."""
    from gi.repository import GLib

    loop = asyncio.SelectorEventLoop()
    asyncio.set_event_loop(loop)
    discoverer = engine_nest.discoverer
    seen = {"ok": [], "failed": [], "all": False}
    discoverer.connect("engine_discovered", lambda _d, name, _e: seen["ok"].append(name))
    discoverer.connect("engine_failed", lambda _d, name, _e: seen["failed"].append(name))

    def finished(_d):
        seen["all"] = True
        loop.stop()

    discoverer.connect("all_engines_discovered", finished)
    context = GLib.MainContext.default()

    def glib_update():
        while context.pending():
            context.iteration(False)
        loop.call_later(0.01, glib_update)

    loop.call_soon(discoverer.discover)
    loop.call_soon(glib_update)
    loop.call_later(timeout, loop.stop)
    try:
        loop.run_forever()
    finally:
        # pychess's readers of the killed engines end with the loop.
        loop.run_until_complete(asyncio.sleep(0.1))
    return seen


def option_names(engine):
    return [o["name"] for o in engine.get("options", [])]


def check_links(r, engine_nest, links, timeout):
    """The GUI's "Add" for each link, then the discovery; what pychess recorded."""
    discoverer = engine_nest.discoverer
    for link in links.values():
        # The "Add" button's first test, on the bare path.
        r.check(f"pychess is_uci([{link}]) (uci + quit at once, no arguments)",
                engine_nest.is_uci([link]))
        discoverer.addEngine(os.path.basename(link), link, "uci", None, None)
    seen = discover(engine_nest, timeout)
    r.check("pychess discovery finished (all_engines_discovered)", seen["all"], seen)
    recorded = {}
    for link in links.values():
        binname = os.path.basename(link)
        r.check(f"pychess discovered {binname} (engine_discovered, no engine_failed)",
                binname in seen["ok"] and binname not in seen["failed"], seen)
        engine = discoverer.getEngineByName(binname) or {}
        recorded[binname] = engine
        names = option_names(engine)
        print(f"     pychess recorded: name {engine.get('name')!r}, protocol "
              f"{engine.get('protocol')}, command {engine.get('command')}, {len(names)} "
              f"options: {', '.join(names)}")
        print(f"     pychess offers it for {len(discoverer.getEngineVariants(engine))} "
              "variants")
        wanted = {"Hash", "Threads", "UCI_Chess960"}
        r.check(f"{binname}: the engine's options reached pychess "
                f"({', '.join(sorted(wanted))})", wanted <= set(names), names)
    print(f"     pychess discovered: {', '.join(sorted(seen['ok']))}")
    return recorded


def main():
    if importlib.util.find_spec("pychess") is None and system_python_with_pychess():
        os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON, os.path.abspath(__file__)] + sys.argv[1:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fenguard", default="target/debug/fenguard")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--fairy", default="/usr/games/fairy-stockfish")
    ap.add_argument("--timeout", type=float, default=90, help="seconds for the discovery")
    ap.add_argument("--keep", action="store_true", help="keep the scratch HOME and print it")
    args = ap.parse_args()
    ci = os.environ.get("CI") == "true"
    have = [need("pychess", importlib.util.find_spec("pychess") is not None, ci, "pychess"),
            need("stockfish", os.access(args.stockfish, os.X_OK), ci, "stockfish")]
    if not all(have):
        print("0 passed, 0 failed")
        return 0
    fenguard = os.path.abspath(args.fenguard)
    fairy = args.fairy if os.access(args.fairy, os.X_OK) else None
    r = Results()
    home = tempfile.mkdtemp(prefix="fenguard-pychess-")
    # Removed at the very end: pychess writes its config and log at exit (atexit runs the
    # last registered first, so this one after pychess's).
    if args.keep:
        atexit.register(print, f"scratch HOME kept: {home}")
    else:
        atexit.register(shutil.rmtree, home, ignore_errors=True)
    try:
        env = scratch_env(home)
        conf_dir = os.path.join(env["XDG_CONFIG_HOME"], "fenguard")
        links = {"stockfish": wrap(r, fenguard, args.stockfish, "stockfish", conf_dir)}
        if fairy:
            links["fairy"] = wrap(r, fenguard, fairy, "fairy", conf_dir)
        # Only the links are to be discovered: pychess also probes every engine of its list
        # that is on PATH (/usr/games), which says nothing of fenguard.
        os.environ["PATH"] = "/usr/bin:/bin"
        from pychess.Players import engineNest  # after the scratch HOME is set

        recorded = check_links(r, engineNest, links, args.timeout)
        # pychess keeps only the options of a UCI engine (`id name` names the running player,
        # `id author` is read by its CECP side only): the options tell whose engine each
        # profile started.
        sf = set(option_names(recorded.get("fenguard-stockfish", {})))
        r.check("fenguard-stockfish ran Stockfish (its `Use NNUE`, no `UCI_Variant`)",
                "Use NNUE" in sf and "UCI_Variant" not in sf, sorted(sf))
        if fairy:
            fs = set(option_names(recorded.get("fenguard-fairy", {})))
            r.check("fenguard-fairy ran Fairy-Stockfish (its `UCI_Variant`)",
                    "UCI_Variant" in fs, sorted(fs))
            # pychess stores the analyzer chosen in its preferences (and a rematch's engine)
            # as the md5 of the engine's file, and finds the engine by it: each wrapped name
            # must be a file of its own.
            md5s = {name: e.get("md5") for name, e in recorded.items()}
            r.check("each wrapped name has its own md5 in pychess",
                    len(set(md5s.values())) == len(md5s), md5s)
            for name, md5 in md5s.items():
                found = engineNest.discoverer.getEngineByMd5(md5) or {}
                r.check(f"pychess finds {name} by its md5", found.get("name") == name,
                        found.get("name"))
        saved = os.path.join(env["XDG_CONFIG_HOME"], "pychess", "engines.json")
        r.check(f"pychess saved the engines in {saved}",
                os.path.isfile(saved) and "fenguard-stockfish" in open(saved).read())
        log = os.path.join(env["XDG_STATE_HOME"], "fenguard", "fenguard.log")
        lines = open(log).readlines() if os.path.isfile(log) else []
        # pychess ends a probe with `stop`, `quit` and SIGTERM at once: fenguard warns about
        # the SIGTERM; an error would be fenguard's.
        errors = [line for line in lines if " ERROR " in line]
        r.check("fenguard's own log has no error", not errors, errors[:5])
        for warn in sorted({line.split(": ", 1)[-1].strip() for line in lines
                            if " WARN " in line}):
            print(f"     fenguard warned: {warn}")
    finally:
        print(f"{r.passed} passed, {r.failed} failed")
    return 1 if r.failed else 0


if __name__ == "__main__":
    sys.exit(main())
