"""Fuzzing the compiler: hostile and broken rules files must end in a build or in located diagnostics.

The property, for every input: `compile_sources` (and, when it succeeds, `outputs`) returns, within
a time limit, either a build whose Python modules compile and whose files are the same on a second
build, or diagnostics that each name a file, line and column of the input.  Never a traceback, a
hang, or a memory blow-up.

Inputs come from `generate(seed, index)`, a pure function of its arguments, so a failure can be
replayed from its number alone.  Kinds of input:

* ``bytes``: random bytes as a file, read the way `rulec` reads files (invalid UTF-8 included);
* ``text``: random sequences of the language's tokens and of unusual characters;
* ``mutant``: the shipped rules, a clause or a whole file at a time, mutated token by token
  (deleted, duplicated, swapped, replaced), cut short, nested deep, given huge numbers and
  right-to-left marks, combining characters and other odd Unicode;
* ``limit``: absurd sizes (nesting, clause counts, integer digits, expression length).

The long run, in two worker processes with different PYTHONHASHSEED (a successful build is
repeated on the other worker and must give the same bytes):

    python -m tests.fuzz --count 100000

Every failing input is saved under tests/fixtures/fuzz/ (replayed by tests/test_fuzz.py).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import random
import re
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rules"
FIXTURES = ROOT / "tests" / "fixtures" / "fuzz"
TIME_LIMIT = 5.0          # seconds for one compile of an input of at most ~100 KB
OUTPUT_TIME_LIMIT = 20.0  # seconds for the emitters on a successful build
MEMORY_LIMIT = 4 << 30    # bytes of address space for a worker of the long run

# ---- inputs ---------------------------------------------------------------------------------------

ODD_CHARS = [
    "\u200f", "\u200e", "\u202e", "\u202d", "\u2066", "\u2069",  # right-to-left and bidi controls
    "\u0301", "\u0308", "\u20dd", "e\u0301", "\u1100\u1161",     # combining characters
    "\u200b", "\u200d", "\ufeff", "\u00a0", "\u3000",            # zero-width and odd spaces
    "\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1e",  # line breaks other than \n
    "\r", "\r\n", "\t", "\x00", "\x7f", "\x1b[31m",
    "\U0001f600", "\U0001d7d8", "\u0663", "\uff11", "\u00b2", "\u2167",  # non-ASCII digits and emoji
    "\u0130", "\u0131", "\u017f", "\ufb01", "\u212a",            # letters whose case mapping changes length
    "\\", '"', '"""', "'", "`", "{", "}", "(", ")", "[", "]", "#", "-", ".", ",", ":", "=", "=>",
]

KEYWORDS = (
    "series game scenario option in ruleset rule external override except enum ordered record "
    "define const table limits invariant text note see example expect let by has not and or if then "
    "else when otherwise at most title extends version with for where checks true false bool int "
    "number list set of text-only sum count any all min max product first len floor ceil abs requires"
).split()

PUNCT = ["{", "}", "(", ")", "[", "]", ":", ",", ".", "=", "=>", "->", "-", "+", "*", "/", "==", "!=",
         "<", "<=", ">", ">=", "not in", "\n", " ", '"', '"""']

HUGE_NUMBERS = ["9" * 400, "1" + "0" * 5000, "0." + "0" * 300 + "1", "4294967297", "18446744073709551617",
                "1" * 30 + "." + "1" * 30, "0" * 50 + "1", "3.999999999999999999999"]

TOKEN = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""|"(?:[^"\\\n]|\\.)*"|#[^\n]*|\d+(?:\.[0-9A-Za-z]+)*'
                   r"|[A-Za-z][A-Za-z0-9_-]*|=>|->|==|!=|<=|>=|\s+|.", re.DOTALL)


@cache
def corpus() -> dict[str, dict[str, str]]:
    """Seed rule trees: the shipped files, alone over the series or as a whole, and each clause of
    them on its own, plus the diagnostic fixtures and the regression fixtures."""
    from rulec.parser import _chunks

    shipped = {f"rules/{p.relative_to(RULES).as_posix()}": p.read_text(encoding="utf-8")
               for p in sorted(RULES.rglob("*.rules"))}
    series = shipped["rules/ocs/series.rules"]
    seeds: dict[str, dict[str, str]] = {"shipped": shipped}
    for name, text in shipped.items():
        base = {"rules/ocs/series.rules": series} if name != "rules/ocs/series.rules" else {}
        if "dak/" in name:
            base["rules/dak/dak.rules"] = shipped["rules/dak/dak.rules"]
        seeds[name] = {**base, name: text}
        for start, chunk in _chunks(text):
            if chunk.strip() and not chunk.lstrip().startswith(("#", "in ", "series ", "game ")):
                layer = "in DAK\n" if "dak/" in name else "in OCS\n"
                seeds[f"{name}:{start}"] = {**base, "rules/ocs/series.rules": series,
                                            "rules/x/clause.rules": layer + chunk}
    for folder in sorted((ROOT / "tests" / "fixtures").glob("*/*")):
        files = {f"{folder.name}/{p.name}": p.read_text(encoding="utf-8", errors="replace")
                 for p in sorted(folder.glob("*.rules"))}
        if files:
            seeds[folder.name] = files
    return seeds


def tokens(text: str) -> list[str]:
    return TOKEN.findall(text)


def _mutate_tokens(rng: random.Random, toks: list[str]) -> list[str]:
    solid = [i for i, t in enumerate(toks) if not t.isspace()] or [0]
    i = rng.choice(solid)
    op = rng.randrange(11)
    if not toks:
        return [rng.choice(KEYWORDS)]
    if op == 0:  # delete a token
        return toks[:i] + toks[i + 1:]
    if op == 1:  # duplicate one
        return toks[:i + 1] + toks[i:]
    if op == 2:  # swap two
        j = rng.choice(solid)
        toks = list(toks)
        toks[i], toks[j] = toks[j], toks[i]
        return toks
    if op == 3:  # replace with a keyword or punctuation
        return toks[:i] + [rng.choice(KEYWORDS + PUNCT)] + toks[i + 1:]
    if op == 4:  # insert odd characters, often inside a quoted text or a name
        t = toks[i]
        k = rng.randrange(len(t) + 1)
        return toks[:i] + [t[:k] + rng.choice(ODD_CHARS) + t[k:]] + toks[i + 1:]
    if op == 5:  # a huge number
        nums = [j for j in solid if toks[j][:1].isdigit()] or [i]
        j = rng.choice(nums)
        return toks[:j] + [rng.choice(HUGE_NUMBERS)] + toks[j + 1:]
    if op == 6:  # deep nesting around a token
        depth = rng.choice([5, 50, 99, 100, 101, 500])
        opener, closer = rng.choice([("(", ")"), ("[", "]"), ("{", "}"), ("not ", ""), ("-", ""),
                                     ("if true then ", " else 0")])
        return toks[:i] + [opener * depth + toks[i] + closer * depth] + toks[i + 1:]
    if op == 7:  # move a span of tokens elsewhere
        j, k = sorted(rng.sample(range(len(toks) + 1), 2)) if len(toks) > 1 else (0, len(toks))
        span, rest = toks[j:k], toks[:j] + toks[k:]
        at = rng.randrange(len(rest) + 1)
        return rest[:at] + span + rest[at:]
    if op == 8:  # repeat a span many times
        k = min(len(toks), i + rng.randrange(1, 12))
        return toks[:k] + toks[i:k] * rng.choice([2, 10, 200]) + toks[k:]
    if op == 9:  # rename a name everywhere, or to a keyword
        if toks[i][:1].isalpha():
            new = rng.choice(KEYWORDS + ["x", "X1", "_", "a" * 300, "Unit", "OCS", "e\u0301"])
            return [new if t == toks[i] else t for t in toks]
        return toks
    return toks[:i]  # cut short


def mutate(rng: random.Random, text: str, rounds: int) -> str:
    toks = tokens(text)
    for _ in range(rounds):
        toks = _mutate_tokens(rng, toks)
    return "".join(toks)


def _random_text(rng: random.Random) -> str:
    pool = KEYWORDS + PUNCT + ODD_CHARS + ["4.5a", "1/2", "OCS", "u", "Unit", "x", "0", "12", '"t"']
    n = rng.choice([1, 5, 30, 200])
    return "".join(rng.choice(pool) + rng.choice(["", " ", "\n"]) for _ in range(n))


def _random_bytes(rng: random.Random) -> bytes:
    n = rng.choice([0, 1, 4, 64, 1000])
    raw = bytes(rng.randrange(256) for _ in range(n))
    if rng.random() < 0.5:  # valid UTF-8 text mixed with stray bytes
        prefix = b'series S "s"\n' if rng.random() < 0.5 else b"\xef\xbb\xbf"
        raw = prefix + raw
    return raw


LIMIT_KINDS = 11


def _limit_input(rng: random.Random, kind: int | None = None) -> str:
    head = 'series S "S"\n'
    drawn = rng.randrange(LIMIT_KINDS)
    kind = drawn if kind is None else kind
    n = rng.choice([100, 1000, 5000, 20000])
    if kind == 0:
        return head + "const x = " + " + ".join(["1"] * n) + "\n"
    if kind == 1:
        return head + "const x = " + "not " * n + "true\n"
    if kind == 2:
        return head + "const x = " + "-" * n + "1\n"
    if kind == 3:
        return head + "const x = " + "if true then " * (n // 10) + "1" + " else 0" * (n // 10) + "\n"
    if kind == 4:
        return head + "".join(f'rule 1.{i} "R" {{ text "t" }}\n' for i in range(1, n // 10 + 2))
    if kind == 5:
        return head + "const x = " + "9" * rng.choice([100, 5000, 50000]) + "\n"
    if kind == 6:
        return head + "const x = [" + ", ".join(["1"] * n) + "]\n"
    if kind == 7:  # definitions that call each other exponentially often
        k = rng.choice([10, 30, 60])
        defs = "".join(f"  define d{i}(x: number) -> number = d{i - 1}(x) + d{i - 1}(x)\n" for i in range(1, k))
        return (head + 'rule 1.1 "R" {\n  define d0(x: number) -> number = x\n' + defs
                + f'  example "e" {{ expect d{k - 1}(1) > 0 }}\n}}\n')
    if kind == 8:  # numbers that grow past any sensible size
        big = "9" * rng.choice([50, 100])
        return head + "const x = " + " * ".join([big] * rng.choice([10, 50])) + "\n"
    if kind == 9:
        members = "".join(f'  - v{i} "V{i}"\n' for i in range(n // 5))
        return head + 'enum E "E" {\n' + members + '}\nrule 1.1 "R" { define f(e: E) -> bool = e == v0 }\n'
    return head + 'rule 1.1 "R" {\n' + "".join(f'  define f{i}(x: number) -> number = x + {i}\n'
                                             for i in range(n // 10)) + "}\n"


def generate(seed: int, index: int) -> tuple[str, dict[str, str] | bytes]:
    """The input number `index` of the run `seed`: (kind, sources), or (kind, raw file bytes)."""
    rng = random.Random(f"{seed}:{index}")
    roll = rng.random()
    if roll < 0.08:
        return "bytes", _random_bytes(rng)
    if roll < 0.2:
        return "text", {"rules/t.rules": _random_text(rng)}
    if roll < 0.24:
        return "limit", {"rules/t.rules": _limit_input(rng)}
    seeds = corpus()
    clauses = sorted(n for n in seeds if ":" in n)
    files = sorted(n for n in seeds if ":" not in n and n != "shipped")
    pick = rng.random()  # mostly one clause over the series: small inputs, so many of them run
    name = rng.choice(clauses) if pick < 0.85 else rng.choice(files) if pick < 0.995 else "shipped"
    sources = dict(seeds[name])
    target = rng.choice(sorted(sources))
    sources[target] = mutate(rng, sources[target], rng.choice([1, 1, 2, 3, 8]))
    return "mutant", sources


# ---- the property -----------------------------------------------------------------------------------


class Hang(Exception):
    pass


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise Hang in this (main) thread after `seconds` of CPU time: processor time, so that a
    busy machine (the long run beside the test suite) does not make a slow input look hung."""
    def expire(signum: int, frame: Any) -> None:
        raise Hang(f"over {seconds:g} s")

    old = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


# File names a rules file may have: every one must stay a name (never a line of generated code,
# a terminal escape or a path out of the output folder).
FILE_NAMES = ["t.rules", "a\nb.rules", "x\rimport os.rules", "\u202etxt.rules", "-rf .rules",
              "$(touch pwned).rules", "a b.rules", "\u00e9\u0301.rules", "\x1b[31mred.rules", '"""x.rules',
              "{{x}}{%x%}.rules", "<script>alert(1)<\\script>.rules", "..rules", "\udcff.rules"]


def read_bytes(raw: bytes) -> tuple[dict[str, str], list[Any]]:
    """Read raw bytes as `rulec` reads a rules file, through find_sources, under an odd file name."""
    from rulec.build import find_sources

    name = FILE_NAMES[raw[-1] % len(FILE_NAMES)] if raw else FILE_NAMES[0]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "rules"
        folder.mkdir()
        (folder / name).write_bytes(raw)
        return find_sources([folder])


def _located(d: Any, sources: dict[str, str]) -> str | None:
    """Why a diagnostic is not located in the input, or None."""
    s = d.span
    text = sources.get(s.file)
    if text is None:
        return f"{d.code} names a file that is not an input: {s.file!r}"
    lines = text.count("\n") + 1
    if not (1 <= s.line <= lines and s.col >= 1 and s.end_line >= s.line):
        return f"{d.code} at {s} is outside the file ({lines} lines)"
    if d.code not in CODES():
        return f"unknown code {d.code}"
    return None


@cache
def CODES() -> dict[str, str]:  # noqa: N802 - the table's own name
    from rulec.diagnostics import CODES as codes
    return codes


def build(sources: dict[str, str]) -> tuple[Any, dict[str, str] | None]:
    from rulec.build import compile_sources, outputs

    with time_limit(TIME_LIMIT):
        result = compile_sources(sources)
    if not result.ok:
        return result, None
    with time_limit(OUTPUT_TIME_LIMIT):
        return result, outputs(result)


def digest(files: dict[str, str]) -> str:
    h = hashlib.sha256()
    for rel in sorted(files):
        h.update(rel.encode() + b"\0" + files[rel].encode("utf-8") + b"\0")
    return h.hexdigest()


def check(item: dict[str, str] | bytes, rebuild: bool = True) -> tuple[str | None, str | None]:
    """Run one input. Returns (failure, digest): failure is None when the property holds; digest
    is the hash of a successful build's files (None for a failed build)."""
    try:
        if isinstance(item, bytes):
            sources, read_errors = read_bytes(item)
        else:
            sources, read_errors = dict(item), []
        for d in read_errors:
            if d.code != "R004":
                return f"reading gave {d.code}", None
        if not sources:
            return None, None
        result, files = build(sources)
        for d in result.diagnostics:
            why = _located(d, sources)
            if why:
                return f"unlocated diagnostic: {why}", None
            d.render(sources)
        if files is None:
            if result.ok:
                return "a successful build without outputs", None
            return None, None
        for rel, text in files.items():
            # a folder of generated/ and a file in it, or a file of its own (traceability.md)
            if not re.fullmatch(r"([a-z]+(/[a-z0-9_]+)*/)?[A-Za-z0-9_.-]+", rel) or rel.split("/")[-1] in (".", ".."):
                return f"output path {rel!r} is not a plain relative path", None
            if any(len(part) > 100 for part in rel.split("/")):
                return f"output path {rel!r} has a name too long for some file systems", None
            if rel.endswith(".py"):
                compile(text, rel, "exec")
        first = digest(files)
        if rebuild:  # the same input, given in the reverse order, gives the same bytes
            _, again = build(dict(reversed(list(sources.items()))))
            if again is None or digest(again) != first:
                return "not deterministic: a second build differs", None
        return None, first
    except Hang as e:
        return f"hang: {e}", None
    except RecursionError:
        return "RecursionError\n" + traceback.format_exc(limit=-8), None
    except MemoryError:
        return "MemoryError", None
    except Exception:  # noqa: BLE001 - any exception escaping the compiler is the bug we look for
        return traceback.format_exc(limit=-12), None


# ---- regression fixtures ------------------------------------------------------------------------------


def save_fixture(seed: int, index: int, kind: str, item: dict[str, str] | bytes, failure: str) -> Path:
    """Save a failing input as tests/fixtures/fuzz/<kind>-<seed>-<index>/ (its files and why.txt)."""
    folder = FIXTURES / f"{kind}-{seed}-{index}"
    folder.mkdir(parents=True, exist_ok=True)
    if isinstance(item, bytes):
        (folder / "t.rules").write_bytes(item)
    else:
        for i, (name, text) in enumerate(sorted(item.items())):
            (folder / f"{i:02d}-{Path(name).name}").write_bytes(text.encode("utf-8", "surrogatepass"))
    (folder / "why.txt").write_text(f"python -m tests.fuzz --seed {seed} --one {index}\n\n{failure}\n",
                                    encoding="utf-8")
    return folder


def fixture_inputs() -> list[tuple[str, bytes | dict[str, str]]]:
    """The saved failures, as inputs: a folder of .rules files (named as saved, file order kept)."""
    out: list[tuple[str, bytes | dict[str, str]]] = []
    for folder in sorted(p for p in FIXTURES.glob("*") if p.is_dir()):
        files = sorted(folder.glob("*.rules"))
        raw = {f"{folder.name}/{f.name}": f.read_bytes() for f in files}
        try:
            out.append((folder.name, {k: v.decode("utf-8") for k, v in raw.items()}))
        except UnicodeDecodeError:
            out.append((folder.name, b"".join(raw.values())))
    return out


# ---- the long run -------------------------------------------------------------------------------------


def _worker(conn: Any, seed: int) -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
    corpus()
    conn.send(("ready", os.environ.get("PYTHONHASHSEED")))
    while True:
        msg = conn.recv()
        if msg is None:
            return
        op, index = msg
        kind, item = generate(seed, index)
        if op == "repeat" and not isinstance(item, bytes):  # on the other hash seed, files in the other order
            item = dict(reversed(list(item.items())))
        failure, dig = check(item, rebuild=False)
        conn.send((index, kind, failure, dig))


class Worker:
    def __init__(self, seed: int, hash_seed: str):
        self.seed, self.hash_seed = seed, hash_seed
        self.start()

    def start(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.conn, child = ctx.Pipe()
        saved = os.environ.get("PYTHONHASHSEED")
        os.environ["PYTHONHASHSEED"] = self.hash_seed
        try:
            self.proc = ctx.Process(target=_worker, args=(child, self.seed), daemon=True)
            self.proc.start()
        finally:
            if saved is None:
                os.environ.pop("PYTHONHASHSEED", None)
            else:
                os.environ["PYTHONHASHSEED"] = saved
        assert self.conn.recv()[0] == "ready"

    def ask(self, op: str, index: int) -> None:
        self.conn.send((op, index))
        self.sent = time.monotonic()

    def answer(self, wait: float) -> tuple[int, str, str | None, str | None] | None:
        if self.conn.poll(wait):
            try:
                got: tuple[int, str, str | None, str | None] = self.conn.recv()
                return got
            except EOFError:
                pass
        if self.proc.is_alive() and time.monotonic() - self.sent < TIME_LIMIT + OUTPUT_TIME_LIMIT * 3:
            return None
        self.proc.kill()
        self.proc.join()
        self.start()
        return (-1, "", "the worker died or hung past every limit", None)


def long_run(count: int, seed: int, start: int, log: Callable[[str], None]) -> tuple[int, int]:
    """Run inputs start..start+count on two workers; return (inputs run, failures)."""
    workers = [Worker(seed, "1"), Worker(seed, "271828")]
    pending: dict[int, int] = {}                # worker -> input index in flight
    digests: dict[int, tuple[str, int]] = {}    # built on one worker: (digest, worker), to repeat on the other
    nxt, done, failures, logged, kinds = start, 0, 0, 0, {}
    began = time.monotonic()
    while done < count or pending or digests:
        for w, worker in enumerate(workers):
            if w not in pending:
                again = next((i for i, (_, by) in digests.items() if by != w), None)
                if again is not None:
                    worker.ask("repeat", again)
                    pending[w] = again
                elif nxt < start + count:
                    worker.ask("check", nxt)
                    pending[w], nxt = nxt, nxt + 1
                elif not pending:
                    digests.clear()  # a single worker left nothing to compare with
                    continue
                else:
                    continue
            got = worker.answer(0.01)
            if got is None:
                continue
            index = pending.pop(w)
            _, kind, failure, dig = got
            if index in digests:  # the repeat on the other hash seed
                first, _ = digests.pop(index)
                if failure is None and dig != first:
                    failure = "not deterministic across PYTHONHASHSEED"
                if failure is None:
                    continue
            else:
                done += 1
                kinds[kind] = kinds.get(kind, 0) + 1
                if failure is None and dig is not None:
                    digests[index] = (dig, w)
            if failure is not None:
                failures += 1
                kind, item = generate(seed, index)
                folder = save_fixture(seed, index, kind, item, failure)
                log(f"FAIL #{index} ({kind}): {failure.strip().splitlines()[-1]}  -> {folder.relative_to(ROOT)}")
            if done - logged >= 1000:
                logged = done
                rate = done / max(1e-9, time.monotonic() - began)
                log(f"{done} inputs, {failures} failures, {rate:.1f}/s, by kind {json.dumps(kinds, sort_keys=True)}")
    for worker in workers:
        worker.conn.send(None)
        worker.proc.join(5)
    log(f"{done} inputs, {failures} failures, by kind {json.dumps(kinds, sort_keys=True)}, "
        f"in {time.monotonic() - began:.0f} s")
    return done, failures


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__.split("\n\n")[0])
    p.add_argument("--count", type=int, default=1000, help="how many inputs (default 1000)")
    p.add_argument("--seed", type=int, default=1, help="the run's seed: the same seed gives the same inputs")
    p.add_argument("--start", type=int, default=0, help="the first input's number")
    p.add_argument("--one", type=int, help="run only input number ONE here and print what happened")
    args = p.parse_args(argv)
    if args.one is not None:
        kind, item = generate(args.seed, args.one)
        failure, dig = check(item)
        print(kind, failure or f"ok {dig}")
        return 1 if failure else 0

    def log(line: str) -> None:
        print(time.strftime("%H:%M:%S"), line, flush=True)

    done, failures = long_run(args.count, args.seed, args.start, log)
    print(f"fuzz: {done} inputs, {failures} failures (seed {args.seed})")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
