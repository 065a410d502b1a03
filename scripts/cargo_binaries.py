#!/usr/bin/env python3
"""Which test binaries a `cargo test` run ran, read from its output, against the targets cargo
says the package has (`cargo metadata`).

    python3 scripts/cargo_binaries.py OUTPUT [--only NAME...]

OUTPUT is the whole output (stdout and stderr) of `cargo test --no-fail-fast --all-targets`.
Prints one line a test target: `ran    TARGET (SOURCE): N passed, M failed`, `FAILED TARGET ...`
(its binary failed: a test failed, or it died before its `test result:` line) or
`MISSING TARGET (SOURCE): never ran`. Exit status 0 when every expected target ran and passed,
1 otherwise (2 on a usage error). `--only NAME` expects just those targets (a run filtered with
`--test NAME`). A green `cargo test` that stopped after the first failed binary, or that never
started one, is red here.
"""

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

RUNNING = re.compile(r"^\s+Running (?:unittests )?(\S+) \(")
RESULT = re.compile(r"^test result: (\w+)\. (\d+) passed; (\d+) failed")


def expected_targets(root: Path) -> dict[str, str]:
    """The package's test targets: source path (relative to `root`) -> target name."""
    meta = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--no-deps", "--format-version", "1", "--offline"],
            cwd=root,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    targets = {}
    for package in meta["packages"]:
        for target in package["targets"]:
            kinds = set(target["kind"])
            if not target.get("test", True) or not kinds & {"lib", "bin", "test"}:
                continue
            source = Path(target["src_path"]).resolve().relative_to(root.resolve())
            targets[str(source)] = target["name"]
    return targets


def runs(output: str) -> dict[str, tuple[int, int] | None]:
    """Source path -> (passed, failed) of each binary that started; None when it started but
    printed no `test result:` line (it crashed or was killed)."""
    found: dict[str, tuple[int, int] | None] = {}
    current = None
    for line in output.splitlines():
        m = RUNNING.match(line)
        if m:
            current = m.group(1)
            found[current] = None
            continue
        m = RESULT.match(line)
        if m and current is not None:
            found[current] = (int(m.group(2)), int(m.group(3)))
            current = None
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", type=Path)
    parser.add_argument("--only", nargs="*", default=None, help="expect only these targets")
    args = parser.parse_args()
    root = Path(__file__).resolve().parent.parent
    targets = expected_targets(root)
    if args.only is not None:
        targets = {src: name for src, name in targets.items() if name in args.only}
        if len(targets) != len(set(args.only)):
            print(f"unknown target in --only {args.only}", file=sys.stderr)
            return 2
    found = runs(args.output.read_text(errors="replace"))
    bad = 0
    for source, name in sorted(targets.items(), key=lambda kv: kv[1]):
        result = found.get(source, "missing")
        if result == "missing":
            print(f"MISSING {name} ({source}): never ran")
            bad += 1
        elif result is None:
            print(f"FAILED  {name} ({source}): started, no `test result:` line (it died)")
            bad += 1
        else:
            passed, failed = result
            word = "ran    " if failed == 0 else "FAILED "
            bad += failed != 0
            print(f"{word} {name} ({source}): {passed} passed, {failed} failed")
    ran = sum(1 for s in targets if isinstance(found.get(s, "missing"), tuple))
    print(f"test binaries: {ran} of {len(targets)} ran to their end, {bad} not green")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
