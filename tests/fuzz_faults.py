"""Fuzzing where the outside attack found things: full disks, killed builds, malformed framing for
the language server, inputs grown to just under each limit, and odd files on disk.

Each input is drawn from a seed and a number, and is one of five kinds:

* `full`: the output folder, the cache or both on a small file system (a 1 MiB tmpfs with 300
  inodes; mounting it needs root, and the kind is counted as skipped without) filled to leave a
  random number of bytes or inodes, then a build of changed rules. The build ends in exit 0 with
  the new output, or in exit 1 with a message naming the folder and the old output left byte for
  byte (a cache that cannot be written is only slower: a full cache alone is exit 0); nothing is
  left beside the output; with room again, the next build gives the new output.
* `kill`: a build of changed rules killed at a random moment (SIGKILL mostly, SIGTERM or SIGINT),
  some while printing. The output is wholly the old or wholly the new; the next build ends in exit
  0 with the new output and leaves nothing of the killed one: no `.out.new-*`, `.out.commit-*` or `.out.old-*`
  folder, no cache temporary, no `rulec-print-<pid>-*` or `rulec-chromium-<pid>-*` folder in the
  temp folders, no browser running on its profile.
* `lsp`: a run of messages, some malformed (lengths that lie or are absurd, headers that are no
  headers, bodies that are no JSON or no JSON-RPC, parameters of the wrong type or outside the
  document, documents that are not open, edits outside the text, odd documents), then a hover. The
  server answers every well-framed request of the run and the hover, never with a traceback, and
  stays alive.
* `limit`: a rules file grown to just under, at or just over one limit (file size, brackets, syntax
  depth, digits, rule number, list items, parts of a file, a ruleset's name, the size of a computed
  number, evaluation steps), or a state file near the bounds of `rulec eval --state`. The command
  ends in exit 0, 1 or 2 (state) with every diagnostic located, within CPU_LIMIT seconds of CPU
  (LARGE_CPU_LIMIT for a file over 100 KB) and MEMORY_LIMIT of memory; under a limit never that
  limit's diagnostic, over it always.
* `disk`: an input of tests/fuzz_disk.py (odd files on disk through check, build, fmt and eval).

    python -m tests.fuzz_faults --count 100000 --seed 1 --jobs 2   # N inputs, F failures; exit 1 on any
    python -m tests.fuzz_faults --seed 1 --one 17                   # replay one input, say what happened
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import io
import json
import os
import random
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rulec import cli, printing, writing  # noqa: E402
from rulec.checker import MAX_RULESET_NAME  # noqa: E402
from rulec.decide import TABLE_SECONDS  # noqa: E402
from rulec.interp import MAX_BITS  # noqa: E402
from rulec.limits import MAX_DEPTH, MAX_DIGITS, MAX_FILE_BYTES, MAX_LIST, MAX_NESTING, MAX_RULENUM  # noqa: E402
from rulec.state_schema import MAX_DIGITS as MAX_STATE_DIGITS  # noqa: E402
from tests import fuzz, fuzz_disk  # noqa: E402
from tests.lsp_client import SEE, TEXT, NoAnswer, Server, encode, frame  # noqa: E402

KINDS = {"lsp": 45, "limit": 15, "full": 15, "kill": 15, "disk": 10}  # weights: shares of a run
CPU_LIMIT = 5.0            # seconds of CPU for one command on a file of at most 100 KB (SECURITY.md),
                           # and the solver's clock (decide.TABLE_SECONDS) for each table on top
LARGE_CPU_LIMIT = 60.0     # ... on a file up to the size limit (2 MB)
MEMORY_LIMIT = 1 << 30     # bytes a command may grow its process by
WALL_LIMIT = 180           # seconds of wall time before a command counts as hung
PRINT_SHARE = 0.02         # of the kill inputs, those that print (a browser start is seconds)
SMALL_FS = "size=1m,nr_inodes=300"

Failure = str | None


@dataclass(frozen=True)
class Input:
    kind: str
    seed: int
    index: int

    def rng(self) -> random.Random:
        return random.Random(f"faults:{self.seed}:{self.index}")


def generate(seed: int, index: int) -> Input:
    rng = random.Random(f"faults-kind:{seed}:{index}")
    return Input(rng.choices(list(KINDS), weights=list(KINDS.values()))[0], seed, index)


# ---- running a command ----------------------------------------------------------------------


@dataclass
class Ran:
    code: int | None  # the exit code; None if killed by a signal; -1 if it passed the wall-time limit
    shown: str        # what it printed, stdout and stderr together
    cpu: float = 0.0  # seconds of CPU (a forked run)
    grew: int = 0     # bytes the process grew by (a forked run)
    pid: int = 0      # the child's process id (a forked run)


def in_process(args: list[str]) -> Ran:
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            code = cli.main(args)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 2
    return Ran(code, out.getvalue())


def _rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def forked(args: list[str], kill_after: float | None = None, sig: int = signal.SIGKILL,
           wall: float = WALL_LIMIT) -> Ran:
    """Run `rulec args` in a forked child (the compiler already imported), measuring its CPU and
    how much it grew; with kill_after, send it `sig` after that many seconds."""
    read, write = os.pipe()
    base = _rss()
    # A signal sent at once must reach the build, not the fuzzer's own code in the child: held
    # until the child is inside its try (a SIGINT there ran the fuzzer's cleanup in the child).
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    pid = os.fork()
    if pid == 0:  # the child
        code: int | None = None
        try:
            os.close(read)
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)  # a browser the build starts writes here, not on the fuzzer's terminal
            os.dup2(null, 2)
            out = os.fdopen(write, "w", encoding="utf-8", errors="backslashreplace")
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                began = False
                try:
                    signal.pthread_sigmask(signal.SIG_SETMASK, held)  # a signal sent already arrives here
                    began = True
                    code = cli.main(args)
                    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
                except SystemExit as e:
                    code = e.code if isinstance(e.code, int) else 2
                except BaseException:  # noqa: BLE001 - what escapes the command line is what we look for
                    if not began:  # a signal before rulec began: as if it were interrupted at once
                        code = cli.EXIT_INTERRUPTED
                    elif code is None:  # (a signal just after rulec returned is not rulec's)
                        print(traceback.format_exc(limit=-8))
                        code = 99
            out.flush()
        finally:
            os._exit(99 if code is None else code)
    signal.pthread_sigmask(signal.SIG_SETMASK, held)
    os.close(write)
    chunks: list[bytes] = []
    started = time.monotonic()
    sent = hung = False
    while True:
        now = time.monotonic() - started
        if kill_after is not None and not sent and now >= kill_after:
            os.kill(pid, sig)
            sent = True
        if now > wall and not sent:
            os.kill(pid, signal.SIGKILL)
            sent = hung = True
        wait = (kill_after - now) if kill_after is not None and not sent else 1.0
        ready = select.select([read], [], [], max(0.0, min(wait, 1.0)))[0]
        if ready:
            data = os.read(read, 65536)
            if not data:
                break
            chunks.append(data)
    os.close(read)
    _, status, usage = os.wait4(pid, 0)
    shown = b"".join(chunks).decode("utf-8", "replace") + ("\n[fuzz: killed after the wall-time limit]" if hung else "")
    code = -1 if hung else os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else None
    return Ran(code, shown, usage.ru_utime + usage.ru_stime, max(0, usage.ru_maxrss * 1024 - base), pid)


def files(folder: Path) -> dict[str, bytes]:
    return fuzz_disk._files(folder) if folder.is_dir() else {}


def _differs(now: dict[str, bytes], want: dict[str, bytes]) -> str:
    changed = sorted(k for k in set(now) | set(want) if now.get(k) != want.get(k))
    return f"{len(changed)} files differ: {changed[:5]}"


# ---- the place a worker works in ------------------------------------------------------------


def variant(n: int) -> str:
    """Rules number n of a small set: a build of one differs from a build of another."""
    most, extra = 1 + n % 5, (n // 5) % 3
    text = fuzz_disk.SERIES.replace("= 3", f"= {most}").replace("fits(3)", f"fits({most})").replace(
        "not fits(4)", f"not fits({most + 1})")
    return text + "".join(f'rule 2.{k} "Extra {k}" {{\n  text "Rule 2.{k} of variant {n}."\n}}\n'
                          for k in range(1, extra + 1))


VARIANTS = 15


class Place:
    """One worker's folders, reference builds, small file system and language server."""

    def __init__(self) -> None:
        self.top = Path(tempfile.mkdtemp(prefix="rulec-fuzz-"))
        self.refs: dict[tuple[int, bool], dict[str, bytes]] = {}
        self.seconds: dict[bool, float] = {}
        self.built: dict[Path, int | None] = {}  # what each output folder holds: a variant
        self.small: Path | None = None
        self.mount_error: str | None = None
        self.server: Server | None = None
        self.can_print = printing.find_chromium() is not None

    def ref(self, n: int, prints: bool) -> dict[str, bytes]:
        """What a clean build of variant n gives."""
        if (n, prints) not in self.refs:
            folder = self.top / f"ref-{n}-{prints}"
            (folder / "rules").mkdir(parents=True, exist_ok=True)
            (folder / "rules" / "s.rules").write_text(variant(n), encoding="utf-8")
            started = time.monotonic()
            ran = in_process(["build", "--rules", str(folder / "rules"), "--out", str(folder / "out"), "--no-cache",
                              *([] if prints else ["--no-print"])])
            self.seconds[prints] = max(self.seconds.get(prints, 0.0), time.monotonic() - started)
            if ran.code != 0:
                raise RuntimeError(f"the reference build of variant {n} failed: {ran.shown}")
            self.refs[n, prints] = files(folder / "out")
            shutil.rmtree(folder)
        return self.refs[n, prints]

    def small_fs(self) -> Path | None:
        if self.small is None and self.mount_error is None:
            point = self.top / "small"
            point.mkdir()
            done = subprocess.run(["mount", "-t", "tmpfs", "-o", SMALL_FS, "rulec-fuzz", str(point)],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                self.mount_error = (done.stderr or done.stdout).strip() or f"mount exited {done.returncode}"
            else:
                self.small = point
        return self.small

    def lsp(self) -> Server:
        if self.server is not None and not self.server.alive():
            self.server.close()
            self.server = None
        if self.server is None:
            folder = self.top / "lsp"
            (folder / "rules").mkdir(parents=True, exist_ok=True)
            (folder / "rules" / "x.rules").write_text(TEXT, encoding="utf-8")
            self.server = Server(folder)
            self.server.initialize()
            self.server.open()
        return self.server

    def close(self) -> None:
        if self.server is not None:
            self.server.close()
        if self.small is not None:
            subprocess.run(["umount", "-l", str(self.small)], capture_output=True)
        shutil.rmtree(self.top, ignore_errors=True)


def _build(rules: Path, out: Path, cache: Path, prints: bool = False) -> list[str]:
    return ["build", "--rules", str(rules), "--out", str(out), "--cache", str(cache),
            *([] if prints else ["--no-print"])]


def _prepare(place: Place, folder: Path, out: Path, cache: Path, before: int, prints: bool) -> Failure:
    """out holds the build of variant `before`, and the rules are variant `before`."""
    rules = folder / "rules"
    rules.mkdir(parents=True, exist_ok=True)
    if place.built.get(out) == before and files(out) == place.ref(before, prints):
        return None
    (rules / "s.rules").write_text(variant(before), encoding="utf-8")
    ran = in_process(_build(rules, out, cache, prints))
    if ran.code != 0 or files(out) != place.ref(before, prints):
        return f"the build before the fault failed (exit {ran.code}): {ran.shown[-1500:]}"
    place.built[out] = before
    return None


def _two_variants(rng: random.Random) -> tuple[int, int]:
    before = rng.randrange(VARIANTS)
    return before, (before + 1 + rng.randrange(VARIANTS - 1)) % VARIANTS


def _junk(out: Path, cache: Path, pid: int | None = None) -> list[str]:
    """What a build left that the next one should have removed."""
    left = [p.name for p in out.parent.glob(f".{out.name}.*")]
    left += [str(p.relative_to(cache)) for p in cache.rglob("*.tmp")] if cache.is_dir() else []
    if pid is not None:
        for tmp in {Path(tempfile.gettempdir()), Path(printing.SHORT_TMP)}:
            left += [str(p) for p in tmp.glob(f"rulec-*-{pid}-*")]
        for proc in Path("/proc").iterdir():
            if proc.name.isdigit():
                with contextlib.suppress(OSError):
                    if f"rulec-print-{pid}-".encode() in (proc / "cmdline").read_bytes():
                        left.append(f"process {proc.name}")
    return left


# ---- full: a full file system under the output or the cache ------------------------------------


def _fill(small: Path, rng: random.Random) -> str:
    filler = small / "filler"
    filler.mkdir(exist_ok=True)
    st = os.statvfs(small)
    if rng.random() < 0.3:  # inodes
        leave = rng.randrange(0, 40)
        for k in range(max(0, st.f_favail - leave)):
            try:
                (filler / f"i{k}").touch()
            except OSError:
                break
        return f"{leave} inodes left"
    leave = rng.choice([0, rng.randrange(4096), rng.randrange(65_536), rng.randrange(400_000)])
    size = max(0, st.f_bavail * st.f_frsize - leave)
    try:
        with open(filler / "bytes", "wb") as f:
            while size > 0:
                size -= f.write(b"\0" * min(size, 1 << 20))
    except OSError:
        pass
    return f"{leave} bytes left"


def run_full(item: Input, place: Place) -> Failure:
    small = place.small_fs()
    if small is None:
        raise Skip(f"no small file system: {place.mount_error}")
    rng = item.rng()
    where = rng.choice(["out", "cache", "both"])
    folder = place.top / "full"
    rules = folder / "rules"
    out = (small if where in ("out", "both") else folder) / "out"
    cache = (small if where in ("cache", "both") else folder) / "cache"
    shutil.rmtree(small / "filler", ignore_errors=True)
    before, after = _two_variants(rng)
    if (why := _prepare(place, folder, out, cache, before, False)) is not None:
        return why
    old, new = files(out), place.ref(after, False)
    (rules / "s.rules").write_text(variant(after), encoding="utf-8")
    left = _fill(small, rng)
    ran = in_process(_build(rules, out, cache))
    place.built[out] = None
    what = f"{where} on a full file system ({left})"
    if ran.code not in (0, 1):
        return f"{what}: exit {ran.code}: {ran.shown[-1500:]}"
    if ran.code == 1 and (where == "cache" or "cannot write" not in ran.shown):
        return f"{what}: exit 1 without a message that the output cannot be written: {ran.shown[-1500:]}"
    now = files(out)
    if now != (new if ran.code == 0 else old):
        return f"{what}: exit {ran.code} but the output is not the {'new' if ran.code == 0 else 'old'} one: " \
               + _differs(now, new if ran.code == 0 else old)
    if junk := [j for j in _junk(out, cache) if not j.endswith(".tmp")]:
        return f"{what}: left beside the output: {junk}"
    shutil.rmtree(small / "filler", ignore_errors=True)
    ran = in_process(_build(rules, out, cache))
    if ran.code != 0 or files(out) != new:
        return f"{what}: with room again, the next build gave exit {ran.code}: {ran.shown[-1500:]}"
    place.built[out] = after
    if junk := _junk(out, cache):
        return f"{what}: with room again, the next build left {junk}"
    return None


# ---- kill: a build killed at a random moment -----------------------------------------------


def run_kill(item: Input, place: Place) -> Failure:
    rng = item.rng()
    prints = place.can_print and rng.random() < PRINT_SHARE
    folder = place.top / ("kill-print" if prints else "kill")
    rules, out, cache = folder / "rules", folder / "out", folder / "cache"
    before, after = _two_variants(rng)
    if (why := _prepare(place, folder, out, cache, before, prints)) is not None:
        return why
    old, new = files(out), place.ref(after, prints)
    (rules / "s.rules").write_text(variant(after), encoding="utf-8")
    delay = rng.uniform(0, 1.3 * place.seconds[prints])
    sig = rng.choice([signal.SIGKILL] * 3 + [signal.SIGTERM, signal.SIGINT])
    ran = forked(_build(rules, out, cache, prints), kill_after=delay, sig=sig)
    place.built[out] = None
    what = f"a build{' that prints' if prints else ''} sent {signal.Signals(sig).name} after {delay:.3f} s"
    if ran.code is not None and ran.code not in (0, 1, cli.EXIT_INTERRUPTED):
        return f"{what}: exit {ran.code}: {ran.shown[-1500:]}"
    if ran.code == 1 and "cannot print" not in ran.shown:
        return f"{what}: exit 1: {ran.shown[-1500:]}"
    now = files(out)
    if now != old and now != new:
        if not list(out.parent.glob(f".{glob.escape(out.name)}.commit-*")):
            return f"{what}: the output is neither the old nor the new, with no commit to finish: {_differs(now, new)}"
        writing.finish_interrupted(out)  # killed in its apply: what the next build does first
        if (now := files(out)) != new:
            return f"{what}: the killed build's commit, finished, is not the new output: {_differs(now, new)}"
    killed = ran.pid  # what the killed build left, the next build removes
    ran = in_process(_build(rules, out, cache, prints))
    if ran.code != 0 or files(out) != new:
        return f"{what}: the next build gave exit {ran.code}: {ran.shown[-1500:]}"
    place.built[out] = after
    if junk := _junk(out, cache, killed):
        return f"{what}: the next build left {junk}"
    return None


# ---- lsp: malformed framing and odd requests -------------------------------------------------


METHODS = ["textDocument/hover", "textDocument/definition", "textDocument/completion", "textDocument/formatting",
           "textDocument/documentSymbol", "textDocument/references", "textDocument/rename",
           "textDocument/semanticTokens/full", "textDocument/signatureHelp", "workspace/symbol",
           "workspace/executeCommand", "rulec/nothing", "$/nothing", "initialize"]
ODD_NUMBERS: list[Any] = [-1, -(2**31), 2**31, 2**63, 10**30, 1.5, -0.0, "3", None, True, [], {}]
ODD_URIS = ["untitled:x", "file:///proc/self/environ", "file:///dev/zero", "not a uri", "", "file://", 7, None,
            "file:///%00.rules", "file:///" + "a/" * 2000 + "x.rules"]


def _position(rng: random.Random) -> Any:
    if rng.random() < 0.5:
        return {"line": rng.choice([0, 7, 8, 10_000, *ODD_NUMBERS[:5]]), "character": rng.choice([0, 7, 99, -3, 2**40])}
    return rng.choice([None, "0:0", [0, 0], {"line": rng.choice(ODD_NUMBERS)}, {"character": 0},
                       {"line": rng.choice(ODD_NUMBERS), "character": rng.choice(ODD_NUMBERS)}])


def _document(rng: random.Random, uri: str) -> Any:
    return rng.choice([{"uri": uri}, {"uri": uri}, {"uri": rng.choice(ODD_URIS)}, {}, None, uri,
                       {"uri": uri, "version": rng.choice(ODD_NUMBERS)}])


def _odd_text(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.4:
        return fuzz._random_text(rng)
    if roll < 0.8:
        name, text = rng.choice(sorted({k: v for s in fuzz.corpus().values() for k, v in s.items()}.items()))
        return fuzz.mutate(rng, text, rng.randint(1, 4))
    if roll < 0.97:
        return "".join(rng.choice(fuzz.ODD_CHARS + ["\ud800", "🎲", "\r\n", "\u2028", "\x00"]) for _ in range(200))
    long_sum = " + ".join(["x"] * rng.randrange(20_000))
    return 'series X "X"\nrule 1.1 "R" {\n  define f(x: int) -> int = ' + long_sum + "\n}\n"


def _notification(rng: random.Random, uri: str) -> dict[str, Any]:
    roll = rng.random()
    if roll < 0.3:
        return {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": rng.choice([uri.replace("x.rules", f"d{rng.randrange(5)}.rules"), *ODD_URIS[:4]]),
            "languageId": "rulec", "version": 1, "text": _odd_text(rng)}}}
    if roll < 0.6:
        change: dict[str, Any] = {"text": _odd_text(rng)}
        if rng.random() < 0.6:
            change["range"] = {"start": _position(rng), "end": _position(rng)}
        return {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": rng.choice([uri, uri.replace("x.rules", "d1.rules"), ODD_URIS[0]]),
                             "version": rng.choice([2, 99, -1])}, "contentChanges": [change]}}
    if roll < 0.7:
        return {"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {"textDocument": _document(rng, uri)}}
    if roll < 0.8:
        return {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": rng.choice(ODD_NUMBERS)}}
    return {"jsonrpc": "2.0", "method": rng.choice(["textDocument/didSave", "workspace/didChangeConfiguration",
                                                     "rulec/odd", "exit-not", "initialized"]),
            "params": rng.choice([{}, None, [], {"textDocument": _document(rng, uri)}])}


def _malformed(rng: random.Random) -> bytes:
    valid = encode({"jsonrpc": "2.0", "method": "$/ignored", "params": {}})
    roll = rng.randrange(14)
    if roll == 0:
        return b"Content-Length: %d\r\n\r\n" % rng.choice([99_999_999_999, 10**40, 20_000_000, -5, 0]) + valid
    if roll == 1:
        length = rng.choice([b"abc", b"", b" 12 13", b"0x10", b"\xff", b"1e3"])
        return b"Content-Length: " + length + b"\r\n\r\n" + valid
    if roll == 2:
        return b"Content-Type: text/x\r\n\r\n" + valid
    if roll == 3:
        return valid
    if roll == 4:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 2000)))
    if roll == 5:
        return b"Content-Length: 10\r\nX-Junk: " + b"y" * rng.choice([100, 9000, 100_000])
    if roll == 6:
        return b"Content-Length: %d\r\n\r\n" % (len(valid) + rng.choice([1, 7, 500, 100_000])) + valid
    if roll == 7:
        return b"Content-Length: %d\r\n\r\n" % rng.randrange(1, len(valid)) + valid
    if roll == 8:
        whole = frame(encode(_request_body(rng, 1, "file:///x.rules")))
        return whole[:rng.randrange(1, len(whole))]
    if roll == 9:
        return frame(rng.choice([b"{not json", b"[" * 100_000 + b"]" * 100_000, b'[1, "two", null]', b"null",
                                 b'{"jsonrpc": "2.0"}', b'{"id": 7}', b'{"jsonrpc": "2.0", "id": {}, "method": 7}',
                                 b'"\\ud800"', b"{" + b'"a":' * 5000 + b"1" + b"}" * 5000]))
    if roll == 10:
        return b"content-length: %d\n\n" % len(valid) + valid  # bare line feeds, lower case
    if roll == 11:
        return b"Content-Length: 12\r\nContent-Length: 7\r\n\r\n" + valid
    if roll == 12:
        return b"\r\n" * rng.randrange(1, 50)
    return b"Content-Length:" * rng.randrange(1, 3000)


def _request_body(rng: random.Random, msg_id: int, uri: str) -> dict[str, Any]:
    method = rng.choice(METHODS)
    params: Any = {"textDocument": _document(rng, uri), "position": _position(rng)}
    if method == "textDocument/formatting":
        params = {"textDocument": _document(rng, uri), "options": rng.choice(
            [{"tabSize": 2, "insertSpaces": True}, {}, None, {"tabSize": -1, "insertSpaces": "no"}])}
    elif method == "textDocument/rename":
        params["newName"] = rng.choice(["y", "", "\ud800", None, "a" * 10_000])
    elif method == "textDocument/references":
        params["context"] = rng.choice([{"includeDeclaration": True}, None, 3])
    elif method == "workspace/symbol":
        params = {"query": rng.choice(["", "x", None, 5])}
    elif method == "initialize":
        params = {"processId": None, "capabilities": {}, "rootUri": None}
    if rng.random() < 0.15:
        params = rng.choice([None, [], "x", 5, {}])
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": msg_id, "method": method}
    if params is not None or rng.random() < 0.5:
        body["params"] = params
    return body


def run_lsp(item: Input, place: Place) -> Failure:
    rng = item.rng()
    try:
        server = place.lsp()
    except (NoAnswer, OSError) as e:
        return f"the language server did not start: {e}"
    server.messages.clear()
    expected: list[int] = []
    sent = bytearray()
    for _ in range(rng.randint(1, 6)):
        roll = rng.random()
        if roll < 0.4:
            sent += _malformed(rng)
        elif roll < 0.75:
            server.next_id += 1
            expected.append(server.next_id)
            sent += frame(encode(_request_body(rng, server.next_id, server.uri)))
        else:
            sent += frame(encode(_notification(rng, server.uri)))
    msg_id, hover = server.hover(*SEE)
    try:
        server.send_bytes(bytes(sent))
        server.send_bytes(hover)
        server.answer(msg_id)
        deadline = time.monotonic() + 20
        while any(not _answered(server, i) for i in expected) and time.monotonic() < deadline:
            if server._read(deadline) is None:
                break
    except (NoAnswer, OSError) as e:
        return f"the hover after {bytes(sent)[:300]!r} was not answered: {e}"
    finally:
        if not server.alive():
            place.server = None
    missing = [i for i in expected if not _answered(server, i)]
    if missing:
        return f"requests {missing} of {bytes(sent)[:600]!r} were not answered"
    for m in server.messages:
        shown = json.dumps(m)
        if "Traceback" in shown or 'File \\"' in shown:
            return f"an answer holds a traceback: {shown[:800]}"
    if not server.alive():
        return "the server died"
    return None


def _answered(server: Server, msg_id: int) -> bool:
    return any(m.get("id") == msg_id and "method" not in m for m in server.messages)


# ---- limit: just under, at and just over each limit ---------------------------------------------

# How often each limit is drawn: the ones whose inputs take seconds (a file of 100,000 parts, a
# table of 1,000 rows the solver works on for its whole clock, a 20 MB state) seldom.
LIMITS = {"nesting": 3, "depth": 3, "digits": 3, "rulenum": 3, "list": 3, "enum": 2, "args": 2, "name": 3,
          "bits": 3, "size": 1, "steps": 1, "state": 1, "parts": 0.1, "rows": 0.1}
HEAD = 'series S "S"\n'
RULE = 'rule 1.1 "R" {\n  text "t"\n}\n'


def limit_input(rng: random.Random, name: str | None = None,
                delta: int | None = None) -> tuple[str, int, dict[str, str], list[str], str | None]:
    """(the limit, delta, files, extra args, the code that passing it gives), delta being how far
    past the limit the input is (0 or below: within it); name and delta drawn unless given."""
    name = name or rng.choices(list(LIMITS), weights=list(LIMITS.values()))[0]
    drawn = rng.choice([-3, -2, -1, 0, 0, 1, 2, 3, rng.randint(-50, -4)])
    delta = drawn if delta is None else delta
    if name == "size":
        body = HEAD + RULE
        style = rng.choice(["comment", "comments", "text"])
        room = MAX_FILE_BYTES + delta - len(body.encode())
        if style == "comment":
            text = body + "#" + "x" * (room - 2) + "\n"
        elif style == "comments":
            line = "# " + "y" * 77 + "\n"
            text = body + line * (room // len(line))
            text += " " * (MAX_FILE_BYTES + delta - len(text.encode()))  # to the exact size
        else:
            head, tail = 'rule 1.2 "Long" {\n  text "', '"\n}\n'
            text = body + head + "z" * (room - len(head) - len(tail)) + tail
        assert len(text.encode()) == MAX_FILE_BYTES + delta, (style, len(text.encode()))
        return name, delta, {"t.rules": text}, [], "R005"
    if name == "nesting":
        n = MAX_NESTING + delta
        return name, delta, {"t.rules": HEAD + "const x = " + "(" * n + "1" + ")" * n + "\n"}, [], "R005"
    if name == "depth":
        op = rng.choice(["or", "and"])
        chain = f" {op} ".join(["true"] * (MAX_DEPTH - 2 + delta))  # MAX_DEPTH - 2 names: at the limit
        return name, delta, {"t.rules": HEAD + "const x = " + chain + "\n"}, [], "R008"
    if name == "digits":
        n = MAX_DIGITS + delta
        point = rng.randrange(1, n) if rng.random() < 0.3 else 0
        digits = "".join(rng.choice("0123456789") for _ in range(n)).replace("0", "7", 1)
        number = digits if not point else digits[:point] + "." + digits[point:]
        return name, delta, {"t.rules": HEAD + f"const x = {number}\n"}, [], "R006"
    if name == "rulenum":
        tail = "".join(rng.choice("abc123") for _ in range(MAX_RULENUM - 2 + delta))
        return name, delta, {"t.rules": HEAD + f'rule 1.{tail} "R" {{\n  text "t"\n}}\n'}, [], "R006"
    if name == "list":
        n = MAX_LIST + delta
        values = ", ".join(str(rng.randrange(9)) for _ in range(n))
        return name, delta, {"t.rules": HEAD + "const x = [" + values + "]\n"}, [], "R007"
    if name == "enum":
        n = MAX_LIST + delta
        values = "".join(f'  - v{i} "V{i}"\n' for i in range(n))
        return name, delta, {"t.rules": HEAD + 'enum E "E" {\n' + values + '}\n'}, [], "R007"
    if name == "rows":
        rows = "".join(f"    r{i}: when u > {i} => {i % 7}\n" for i in range(MAX_LIST + delta))
        return name, delta, {"t.rules": HEAD + f'rule 1.1 "R" {{\n  table t(u: int) -> int "T" {{\n{rows}  }}\n}}\n'}, \
            [], "R007"
    if name == "args":
        args = ", ".join(str(rng.randrange(9)) for _ in range(MAX_LIST + delta))
        return name, delta, {"t.rules": HEAD + f"const x = max({args})\n"}, [], "R007"
    if name == "name":
        ruleset = "S" + "x" * (MAX_RULESET_NAME - 1 + delta)
        return name, delta, {"t.rules": f'series {ruleset} "S"\n' + RULE}, [], "R111"
    if name == "bits":
        factors = [rng.randrange(10**99, 10**100) for _ in range(rng.randint(10, 14))]
        product = 1
        for f in factors:
            product *= f
        over = product.bit_length() - MAX_BITS
        where = rng.choice(["const", "example"])
        expr = " * ".join(map(str, factors))
        if where == "const":
            text = HEAD + f"const x = {expr}\n"
        else:
            text = HEAD + f'rule 1.1 "R" {{\n  define f(n: number) -> number = n * {expr}\n' \
                          f'  example "e" {{ expect f(1) > 0 }}\n}}\n'
        return name, over, {"t.rules": text}, [], "R305" if where == "const" else "R402"
    if name == "steps":
        n, depth = rng.choice([10, 30, 100, 300, 1000]), rng.randint(1, 3)
        inner = "1"
        for k in range(depth):
            inner = f"sum({inner} for x{k} in xs)"
        work = n ** depth
        text = HEAD + f"const xs = [{', '.join(['1'] * n)}]\n" + \
            f'rule 1.1 "R" {{\n  define f(n: int) -> number = {inner}\n  example "e" {{ expect f(1) == {work} }}\n}}\n'
        # within 100,000 iterations is well inside the step budget; over 5,000,000 is well past it
        delta = 0 if work <= 100_000 else (1 if work >= 5_000_000 else -999)
        return name, delta, {"t.rules": text}, ["eval", "S", inner], "R402"
    if name == "state":
        style = rng.choice(["depth", "digits", "bytes"])
        if style == "depth":
            n = cli.MAX_STATE_DEPTH + delta
            state = '{"u": ' + "[" * (n - 1) + "]" * (n - 1) + "}"
        elif style == "digits":
            state = '{"u": {"points": ' + "7" * (MAX_STATE_DIGITS + delta) + "}}"
        else:
            state = '{"u": "' + "s" * (cli.MAX_STATE_BYTES + delta - 10) + '"}'
        return name, delta, {"t.rules": fuzz_disk.SERIES, "state.json": state}, ["state", style], None
    # parts: 1 + 271 rules x (1 + 368 notes) parts make the limit (tests/test_limits.py)
    notes = '  note "n"\n' * 368
    text = "".join(f"rule 1.{i} {{\n{notes}}}\n" for i in range(271))
    text = text.replace("{\n", "{\n" + '  note "n"\n' * delta, 1) if delta > 0 else text.replace(
        '  note "n"\n' * -delta, "", 1)
    return name, delta, {"t.rules": text}, [], "R007"


LOCATED = re.compile(r"^\S.*?:\d+:\d+: (error|warning) (R\d{3}):", re.M)
CODE = re.compile(r"\b(error|warning) (R\d{3})\b")


def run_limit(item: Input, place: Place) -> Failure:
    rng = item.rng()
    return check_limit(place, *limit_input(rng))


def check_limit(place: Place, name: str, delta: int, sources: dict[str, str], extra: list[str],
                code: str | None) -> Failure:
    folder = place.top / "limit"
    shutil.rmtree(folder, ignore_errors=True)
    rules = folder / "rules"
    rules.mkdir(parents=True)
    for rel, text in sources.items():
        (rules if rel.endswith(".rules") else folder).joinpath(rel).write_text(text, encoding="utf-8")
    size = sum(len(t.encode()) for t in sources.values())
    what = f"{name} {'+' if delta > 0 else ''}{delta} ({size:,} bytes)"
    commands = [["build", "--rules", str(rules), "--out", str(folder / "out"), "--no-cache", "--no-print"]]
    if extra[:1] == ["eval"]:
        commands.append(["eval", "--rules", str(rules), "S", extra[2]])
    if extra[:1] == ["state"]:
        commands = [["eval", "--rules", str(rules), "--state", str(folder / "state.json"), "S", "fits(2)"]]
    for args in commands:
        ran = forked(args)
        limit = (CPU_LIMIT if size <= 100_000 else LARGE_CPU_LIMIT) + TABLE_SECONDS * sum(
            t.count("  table ") for t in sources.values())
        if ran.code not in (0, 1, 2) or (ran.code == 2 and args[0] == "build"):
            return f"{what}: rulec {args[0]} exit {ran.code}: {ran.shown[-1500:]}"
        if ran.cpu > limit:
            return f"{what}: rulec {args[0]} took {ran.cpu:.1f} s of CPU (at most {limit})"
        if ran.grew > MEMORY_LIMIT:
            return f"{what}: rulec {args[0]} grew by {ran.grew >> 20} MiB"
        _stats(name, ran)
        if args[0] != "build":
            if ran.code == 2 and not ran.shown.strip():
                return f"{what}: rulec {args[0]} exit 2 without a message"
            if extra[:1] == ["state"] and delta > 0 and ran.code != 2:
                return f"{what}: a state past its bound was read (exit {ran.code})"
            continue
        said = [m.group(2) for m in CODE.finditer(ran.shown)]
        if len(said) != len(LOCATED.findall(ran.shown)):
            return f"{what}: a diagnostic without file:line:col: {ran.shown[-1500:]}"
        if ran.code == 1 and not said:
            return f"{what}: exit 1 without a diagnostic: {ran.shown[-1500:]}"
        if code is not None and delta > 0 and code not in said:
            return f"{what}: past the limit but no {code}: {ran.shown[-1500:]}"
        if code is not None and delta <= 0 and delta != -999 and code in said:
            return f"{what}: within the limit but {code}: {ran.shown[-1500:]}"
    return None


STATS: dict[str, list[float]] = {}  # the limit: [most CPU, most growth in MiB]


def _stats(name: str, ran: Ran) -> None:
    most = STATS.setdefault(name, [0.0, 0.0])
    most[0], most[1] = max(most[0], ran.cpu), max(most[1], ran.grew / (1 << 20))


# ---- the run ------------------------------------------------------------------------------


class Skip(Exception):
    """An input this machine cannot run (no small file system without root)."""


def run_disk(item: Input, place: Place) -> Failure:
    return fuzz_disk.run(fuzz_disk.generate(item.seed, item.index))


RUNNERS: dict[str, Callable[[Input, Place], Failure]] = {
    "full": run_full, "kill": run_kill, "lsp": run_lsp, "limit": run_limit, "disk": run_disk}


def run(item: Input, place: Place) -> Failure:
    try:
        return RUNNERS[item.kind](item, place)
    except Skip:
        raise
    except Exception:  # noqa: BLE001 - a fault of the fuzzer's own shows as a failure, with where
        return "the fuzzer itself: " + traceback.format_exc(limit=-6)


@dataclass
class Tally:
    ran: dict[str, int] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)
    failures: list[tuple[int, str, str]] = field(default_factory=list)
    stats: dict[str, list[float]] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)  # wall time spent on each kind


def work(seed: int, indexes: list[int], verbose: bool, tag: str = "") -> Tally:
    tally = Tally()
    place = Place()
    started = time.monotonic()
    try:
        for n, i in enumerate(indexes, 1):
            item = generate(seed, i)
            begun = time.monotonic()
            try:
                why = run(item, place)
                tally.seconds[item.kind] = tally.seconds.get(item.kind, 0.0) + time.monotonic() - begun
            except Skip:
                tally.skipped[item.kind] = tally.skipped.get(item.kind, 0) + 1
                continue
            tally.ran[item.kind] = tally.ran.get(item.kind, 0) + 1
            if why is not None:
                tally.failures.append((i, item.kind, why))
            if why is not None or verbose:
                print(f"{tag}input {i} ({item.kind}): {why or 'ok'}", flush=True)
            if n % 500 == 0:
                print(f"{tag}[{n}/{len(indexes)}] {len(tally.failures)} failures ({time.monotonic() - started:.0f} s)",
                      flush=True)
    finally:
        place.close()
    tally.stats = STATS
    return tally


def _worker(args: tuple[int, list[int], int]) -> Tally:
    seed, indexes, w = args
    return work(seed, indexes, False, f"[worker {w}] ")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.fuzz_faults", description=__doc__.split("\n\n")[0])
    p.add_argument("--count", type=int, default=500)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--one", type=int, help="run this input alone and say what happened")
    p.add_argument("--kinds", help=f"only the inputs of these kinds, comma-separated ({', '.join(KINDS)})")
    a = p.parse_args(argv)
    if "RULEC_FUZZ_SECRET" not in os.environ:  # the disk inputs need the secret in the environment itself
        env = {**os.environ, "RULEC_FUZZ_SECRET": f"rulec-fuzz-secret-{os.urandom(8).hex()}"}
        os.execve(sys.executable, [sys.executable, "-m", "tests.fuzz_faults",
                                   *(sys.argv[1:] if argv is None else argv)], env)
    started = time.monotonic()
    if a.one is not None:
        tally = work(a.seed, [a.one], True)
    else:
        indexes = list(range(a.start, a.start + a.count))
        if a.kinds:
            indexes = [i for i in indexes if generate(a.seed, i).kind in a.kinds.split(",")]
        blocks = [indexes[k:k + 50] for k in range(0, len(indexes), 50)]
        shares = [[i for b in blocks[w::a.jobs] for i in b] for w in range(a.jobs)]
        if a.jobs == 1:
            tallies = [work(a.seed, indexes, False)]
        else:
            import multiprocessing  # noqa: PLC0415

            with multiprocessing.get_context("fork").Pool(a.jobs) as pool:
                tallies = pool.map(_worker, [(a.seed, share, w) for w, share in enumerate(shares)])
        tally = Tally()
        for t in tallies:
            for k, v in t.ran.items():
                tally.ran[k] = tally.ran.get(k, 0) + v
            for k, v in t.skipped.items():
                tally.skipped[k] = tally.skipped.get(k, 0) + v
            tally.failures += t.failures
            for k, took in t.seconds.items():
                tally.seconds[k] = tally.seconds.get(k, 0.0) + took
            for k, (cpu, grew) in t.stats.items():
                most = tally.stats.setdefault(k, [0.0, 0.0])
                most[0], most[1] = max(most[0], cpu), max(most[1], grew)
    ran = sum(tally.ran.values())
    print(f"fuzz_faults: {ran} inputs, {len(tally.failures)} failures (seed {a.seed}) in "
          f"{time.monotonic() - started:.0f} s; by kind: "
          + ", ".join(f"{k} {tally.ran.get(k, 0)} ({tally.seconds.get(k, 0):.0f} s)" for k in KINDS)
          + ("; skipped: " + ", ".join(f"{k} {v}" for k, v in tally.skipped.items()) if tally.skipped else ""))
    if tally.stats:
        print("most CPU and growth of a limit input: " + ", ".join(
            f"{k} {cpu:.2f} s {grew:.0f} MiB" for k, (cpu, grew) in sorted(tally.stats.items())))
    for i, kind, why in sorted(tally.failures)[:50]:
        print(f"  input {i} ({kind}): {why[:600]}")
    return 1 if tally.failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
