"""Fuzzing the command line on disk: odd files in a rules folder must end in a build or a message.

tests/fuzz.py hands the compiler sources as text. This fuzzer writes a rules folder on disk, the
way an attacker would leave one in a pull request, and runs the real commands on it in process:
`rulec check`, `rulec build`, `rulec fmt --check` and `rulec eval`. Beside a valid series (so a
build can succeed) each input puts a few odd entries, drawn from a seed and an input number:

* files of other types under a `.rules` name: a FIFO (reading it would block forever), a Unix
  socket, a folder, a file nobody may read, a symlink loop, a dangling symlink;
* symlinks out of the folder: to `/proc/self/environ` (the process's environment, where CI keeps
  its secrets), to `/dev/zero` (endless), to a file outside holding a secret, to the folder's parent;
* odd file names (line breaks, terminal escapes, bidi marks, `$(...)`, bytes that are no UTF-8);
* files just over the size limit, and empty ones.

The property, for every input and command: the command returns within 20 s of wall time (a FIFO
blocks without using CPU) with exit 0, 1 or 2, never 3 and never an exception; no output (the
terminal's text or a file written) holds the secret planted in the environment and in the outside
file; nothing is written outside the output folder; no `.rules` path outside the folder is read.

    python -m tests.fuzz_disk --count 2000 --seed 1     # N inputs, F failures; exit 1 on any
    python -m tests.fuzz_disk --seed 1 --one 17         # replay one input and say what happened
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import signal
import socket
import sys
import tempfile
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rulec import cli  # noqa: E402
from rulec.limits import MAX_FILE_BYTES  # noqa: E402

WALL_LIMIT = 20  # seconds for one command

SERIES = '''series S "A series" version "1"
rule 1.1 "Sizes" {
  const most "The most that fit" = 3
  define fits(n: int) -> bool = n <= most
  example "three fit, four do not" {
    expect fits(3)
    expect not fits(4)
  }
}
'''

KINDS = ("fifo", "socket", "folder", "unreadable", "loop", "dangling", "environ", "zero", "outside",
         "parent", "odd-name", "too-large", "empty", "text")

ODD_NAMES = ["a\nb.rules", "x\rimport os.rules", "\u202etxt.rules", "\x1b[31mred.rules", "$(touch PWNED).rules",
             "-rf .rules", "..rules", " .rules", "{{x}}.rules", "\udcff.rules", "a" * 250 + ".rules"]


@dataclass(frozen=True)
class Entry:
    kind: str
    name: str


def generate(seed: int, index: int) -> list[Entry]:
    """Input `index` of run `seed`: the odd entries put beside the valid series."""
    rng = random.Random(f"disk:{seed}:{index}")
    out = []
    for n in range(rng.choice([1, 1, 2, 3])):
        kind = rng.choice(KINDS)
        name = rng.choice(ODD_NAMES) if kind == "odd-name" else f"{kind}{n}.rules"
        if rng.random() < 0.2:
            name = f"sub{n}/{name}"
        out.append(Entry(kind, name))
    return out


def _make(entry: Entry, rules: Path, outside: Path) -> None:
    path = rules / entry.name
    path.parent.mkdir(parents=True, exist_ok=True)
    match entry.kind:
        case "fifo":
            os.mkfifo(path)
        case "socket":
            s = socket.socket(socket.AF_UNIX)
            with contextlib.suppress(OSError):  # a path too long for a socket: a plain file then
                s.bind(str(path))
            s.close()
            if not path.exists():
                path.write_text(SERIES.replace("S ", "T ", 1), encoding="utf-8")
        case "folder":
            path.mkdir()
        case "unreadable":
            path.write_text("in S\n", encoding="utf-8")
            path.chmod(0)
        case "loop":
            path.symlink_to(path.name)
        case "dangling":
            path.symlink_to(rules / "nothing-here")
        case "environ":
            path.symlink_to("/proc/self/environ")
        case "zero":
            path.symlink_to("/dev/zero")
        case "outside":
            path.symlink_to(outside)
        case "parent":
            path.symlink_to(rules.parent)
        case "odd-name":
            path.write_bytes(f'in S\nrule 9.{len(entry.name) % 7} "Odd" {{ text "from {entry.kind}" }}\n'
                             .encode("utf-8", "surrogateescape"))
        case "too-large":
            path.write_bytes(b"# " + b"x" * (MAX_FILE_BYTES + 10) + b"\n")
        case "empty":
            path.write_bytes(b"")
        case "text":
            path.write_text('in S\nrule 2.1 "More" {\n  define bigger(n: int) -> bool = n > most\n}\n',
                            encoding="utf-8")


class Hang(Exception):
    pass


@contextlib.contextmanager
def wall_limit(seconds: int) -> Iterator[None]:
    """Raise Hang after `seconds` of wall time: a blocked read (a FIFO) uses no CPU."""
    def expire(signum: int, frame: Any) -> None:
        raise Hang(f"over {seconds} s of wall time")

    old = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _files(folder: Path) -> dict[str, bytes]:
    out = {}
    for base, _, names in os.walk(folder):
        for n in names:
            p = Path(base) / n
            if p.is_file() and not p.is_symlink():
                out[str(p.relative_to(folder))] = p.read_bytes()
    return out


def run(entries: list[Entry]) -> str | None:
    """Run every command on the input; the first broken promise, or None."""
    # The secret is in this process's environment from its start (main() sees to it), so
    # /proc/self/environ holds it, as CI's secrets are in its.
    secret = os.environ.get("RULEC_FUZZ_SECRET") or f"rulec-fuzz-secret-{os.getpid()}"
    with tempfile.TemporaryDirectory() as tmp:
        top = Path(tmp)
        outside = top / "outside.rules"
        outside.write_text(f'in S\nrule 8.1 "{secret}" {{ text "{secret}" }}\n', encoding="utf-8")
        rules = top / "project" / "rules"
        rules.mkdir(parents=True)
        (rules / "series.rules").write_text(SERIES, encoding="utf-8")
        for e in entries:
            try:
                _make(e, rules, outside)
            except OSError:
                pass  # a name the file system refuses: nothing to test
        before = {k: v for k, v in _files(top).items() if not k.startswith("project/")}
        commands = [["check", str(rules)],
                    ["build", "--rules", str(rules), "--out", str(top / "project" / "out"), "--no-print",
                     "--cache", str(top / "project" / "cache")],
                    ["fmt", "--check", str(rules)],
                    ["eval", "--rules", str(rules), "S", "fits(2)"]]
        try:
            for args in commands:
                out, err = io.StringIO(), io.StringIO()
                try:
                    with wall_limit(WALL_LIMIT), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                        code = cli.main(args)
                except SystemExit as e:  # argparse
                    code = e.code if isinstance(e.code, int) else 2
                shown = out.getvalue() + err.getvalue()
                if code not in (0, 1, 2):
                    return f"rulec {args[0]} exited {code}: {shown[-2000:]}"
                if secret in shown:
                    return f"rulec {args[0]} printed the secret"
            written = _files(top / "project")
            for rel, data in written.items():
                if secret.encode() in data:
                    return f"the secret reached {rel}"
            after = {k: v for k, v in _files(top).items() if not k.startswith("project/")}
            if after != before:
                return f"files outside the project changed: {sorted(set(after) ^ set(before))}"
            return None
        except Hang as e:
            return f"hang: {e}"
        except Exception:  # noqa: BLE001 - anything escaping the command line is what we look for
            return traceback.format_exc(limit=-10)
        finally:
            for base, dirs, names in os.walk(top):  # an unreadable file must still be removable
                for n in dirs + names:
                    path = Path(base) / n
                    if not path.is_symlink():
                        with contextlib.suppress(OSError):
                            path.chmod(0o700)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.fuzz_disk", description=__doc__.split("\n\n")[0])
    p.add_argument("--count", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--one", type=int, help="run this input alone and say what happened")
    a = p.parse_args(argv)
    if "RULEC_FUZZ_SECRET" not in os.environ:  # start again with the secret in the environment itself
        env = {**os.environ, "RULEC_FUZZ_SECRET": f"rulec-fuzz-secret-{os.urandom(8).hex()}"}
        os.execve(sys.executable, [sys.executable, "-m", "tests.fuzz_disk", *(sys.argv[1:] if argv is None else argv)],
                  env)
    indexes = [a.one] if a.one is not None else list(range(a.count))
    failures, started = 0, time.monotonic()
    for i in indexes:
        entries = generate(a.seed, i)
        why = run(entries)
        if why is not None or a.one is not None:
            print(f"input {i}: {[(e.kind, e.name) for e in entries]}: {why or 'ok'}", flush=True)
        failures += why is not None
        if (i + 1) % 100 == 0:
            print(f"[{i + 1}/{len(indexes)}] {failures} failures ({time.monotonic() - started:.0f} s)", flush=True)
    print(f"fuzz_disk: {len(indexes)} inputs, {failures} failures (seed {a.seed}) in "
          f"{time.monotonic() - started:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
