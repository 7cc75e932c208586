"""Every generated module compiled whole before a build writes it, by a second Python beside the build.

A plain `rulec build` runs only the part of each module its worked examples call (crosscheck.py:
Python compiles a large module's text far more slowly than its examples run), so a line the
emitter got wrong in a function no example calls would reach generated/ unseen, and a game program
would fail on `import`. Compiling the rest in the build would cost a 10,000-clause build about a
second per module; a second Python process does it on the machine's other core while the build
goes on (the rule sheets and cards come after the modules), and the build waits for its verdict
only before it commits the output folder: a module that does not compile is a bug in rulec, and
the build stops (exit 3) with generated/ left as it was.

This file is run as a script by that second Python (`python -I -S modcheck.py`): it imports the
standard library alone. `rulec build --check` and the tests compile each module in the build itself
(emit_python's verify), as they always did.
"""

from __future__ import annotations
import __future__

import contextlib
import functools
import json
import operator
import os
import re
import shutil
import subprocess
import sys
import tempfile
import types
from collections.abc import Iterator
from dataclasses import dataclass

PIECE = 64 * 1024  # characters of source compiled at a time


def statements(source: str) -> Iterator[str]:
    """The module's top-level statements, each with its indented or bracketed lines, in order: a
    statement starts at a line that is not indented, not a comment and not a closing bracket, outside
    a docstring; decorators belong to the def or class under them. Joined, they are the source from
    its first statement on. The lines are read one at a time (a 10,000-clause module's list of lines
    took 53 MB)."""
    lines: list[str] = []  # the statement's so far
    started = in_docstring = decorating = False
    for line in _lines(source):
        if not in_docstring and line[:1] not in ("", " ", "\t", "\r", "\n", ")", "]", "}", "#"):
            if not decorating:
                if lines:
                    yield "".join(lines)
                lines = []
            started = True
            decorating = line.startswith("@")
        if started:
            lines.append(line)
        if '"""' in line:
            stripped = line.strip()
            if stripped.count('"""') % 2 == 1 and (stripped.startswith('"""') or stripped.endswith('"""')):
                in_docstring = not in_docstring
    if lines:
        yield "".join(lines)


_LINE_END = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"  # where str.splitlines ends a line
_LINE = re.compile(f"[^{_LINE_END}]*(?:\r\n|[{_LINE_END}])?")


def _lines(source: str) -> Iterator[str]:
    """source.splitlines(keepends=True), one line at a time."""
    for found in _LINE.finditer(source):
        if found.group():
            yield found.group()


def compiled(source: str, filename: str) -> Iterator[types.CodeType]:
    """The module's code, in pieces of whole top-level statements of about PIECE characters, each
    on its own lines: run in turn, they do what the whole does. Python's syntax tree of a large
    module's text is fifty times its size (150 MB for the part of a 10,000-clause module the
    examples need), a piece's is small. Where the text does not split into statements that
    compile, it is compiled whole (and any SyntaxError is the whole's). Each piece is compiled as
    it is asked for; the whole, if it must be, once every piece before it was."""
    if len(source) <= PIECE:
        yield compile(source, filename, "exec", dont_inherit=True)
        return
    texts = list(statements(source))
    start = len(source) - sum(map(len, texts))
    if not source.endswith("".join(texts)):
        yield compile(source, filename, "exec", dont_inherit=True)
        return
    line = 1 + source.count("\n", 0, start)
    pieces: list[tuple[int, list[str]]] = []
    size = PIECE
    for text in texts:
        if not pieces or size >= PIECE and not text.startswith(('"', "'")):  # a string first: a docstring
            pieces.append((line, []))
            size = 0
        pieces[-1][1].append(text)
        size += len(text)
        line += text.count("\n")
    codes: list[types.CodeType] = []
    try:
        for first, part in pieces:
            # A later piece keeps the first one's `from __future__` imports (annotations), as the whole would.
            flags = codes[0].co_flags & _FUTURE_FLAGS if codes else 0
            codes.append(compile("\n" * (first - 1) + "".join(part), filename, "exec", flags=flags,
                                 dont_inherit=True))
    except SyntaxError:
        yield compile(source, filename, "exec", dont_inherit=True)
        return
    yield from codes


_FUTURE_FLAGS = functools.reduce(operator.or_, (getattr(__future__, name).compiler_flag
                                                 for name in __future__.all_feature_names))


@dataclass(frozen=True)
class Broken:
    """A generated module that does not compile: which, where and Python's words."""

    rel: str  # python/<ruleset>.py
    line: int
    message: str
    text: str  # the line itself

    def __str__(self) -> str:
        return f"{self.rel}, line {self.line}: {self.message}" + (f": {self.text.strip()}" if self.text.strip() else "")


class ModulesBroken(Exception):
    """Modules rulec generated that do not compile: a bug in rulec, not in the rules."""

    def __init__(self, broken: list[Broken]):
        self.broken = broken
        listed = "; ".join(map(str, broken))
        super().__init__(f"a bug in rulec, not in the rules: the Python it generated does not compile ({listed}). "
                         "Please report it with the rules that gave it")


def problem(source: str, rel: str) -> Broken | None:
    """Why the module's text does not compile, or None when it does (compiled in pieces, each let go)."""
    try:
        for _ in compiled(source, rel):
            pass
    except SyntaxError as e:
        return Broken(rel, e.lineno or 0, e.msg, e.text or "")
    except (ValueError, RecursionError, MemoryError) as e:  # a null character, nesting too deep
        return Broken(rel, 0, f"{type(e).__name__}: {e}", "")
    return None


class ModuleCheck:
    """The second Python of a build: given each module the build makes (add), it compiles them one
    after the other while the build goes on; problems() waits for its verdict. Where that Python
    cannot be started or fails, the modules it did not answer for are compiled in the build itself,
    so a module is never let through unchecked."""

    def __init__(self) -> None:
        self._folder: str | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        # rel: the text given (a small one, or one no file could be written for), or its file: a
        # 10,000-clause module's text is 10 MB, not to be held to the end of the build
        self._sent: dict[str, str | _File] = {}
        self._written = 0  # files written: each its own name, even for a module given again

    def add(self, rel: str, text: str) -> None:
        """Check this module's text: a small one (a piece) in the build when problems() is asked (a
        millisecond or two, less than starting a Python), a larger one by the second Python, from a
        file of the check's own."""
        self._sent[rel] = text
        if len(text) <= PIECE:
            return
        try:
            if self._folder is None:
                self._folder = tempfile.mkdtemp(prefix=f"rulec-modcheck-{os.getpid()}-")  # printing.clean_leftovers
            self._written += 1
            path = os.path.join(self._folder, f"{self._written}.py")
            with open(path, "w", encoding="utf-8", errors="surrogatepass") as f:
                f.write(text)
            self._sent[rel] = _File(path)
            if self._proc is None:  # -I: not this folder on sys.path (its types.py is not the standard one)
                self._proc = subprocess.Popen([sys.executable, "-I", "-S", __file__], stdin=subprocess.PIPE,
                                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            assert self._proc.stdin is not None
            self._proc.stdin.write(json.dumps([rel, path]).encode() + b"\n")
            self._proc.stdin.flush()
        except (OSError, ValueError):  # no second Python (or it died): problems() compiles it here
            self._stop()

    def problems(self) -> list[Broken]:
        """Every module given that does not compile (waiting for the second Python to finish)."""
        answered: dict[str, Broken | None] = {}
        if self._proc is not None:
            try:
                out, _ = self._proc.communicate(timeout=600)
                for line in out.decode().splitlines():
                    rel, found = json.loads(line)
                    answered[rel] = None if found is None else Broken(*found)
            except (OSError, ValueError, TypeError, subprocess.TimeoutExpired):
                answered = {}
        found = [answered[rel] if rel in answered else problem(_text(given), rel) for rel, given in self._sent.items()]
        self.close()
        return [b for b in found if b is not None]

    def close(self) -> None:
        """Stop the second Python, if it still runs, and remove the check's files."""
        self._stop()
        self._sent.clear()
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None

    def _stop(self) -> None:
        if self._proc is not None:
            if self._proc.poll() is None:
                self._proc.kill()
            self._proc.wait()
            for stream in (self._proc.stdin, self._proc.stdout):
                if stream is not None:
                    stream.close()
            self._proc = None


@dataclass(frozen=True)
class _File:
    """A module's text as the check wrote it for the second Python."""

    path: str


def _text(given: str | _File) -> str:
    if isinstance(given, str):
        return given
    with open(given.path, encoding="utf-8", errors="surrogatepass") as f:
        return f.read()


_ACTIVE: list[ModuleCheck] = []  # the checks of the builds under way in this process, newest last


@contextlib.contextmanager
def checking() -> Iterator[ModuleCheck]:
    """A check for the modules a build makes from now on (submit), closed when the build is done."""
    check = ModuleCheck()
    _ACTIVE.append(check)
    try:
        yield check
    finally:
        _ACTIVE.remove(check)
        check.close()


def submit(rel: str, text: str) -> None:
    """A module just made, for the check of the build under way; nothing without one (`rulec build
    --check` and the tests compile each module in the build: emit_python's verify)."""
    if _ACTIVE:
        _ACTIVE[-1].add(rel, text)


def main() -> None:
    """The second Python: for each line [rel, path] on standard input, compile the file and print
    [rel, null] or [rel, [rel, line, message, text]]."""
    for line in sys.stdin:
        rel, path = json.loads(line)
        found = problem(_text(_File(path)), rel)
        print(json.dumps([rel, None if found is None else [found.rel, found.line, found.message, found.text]]),
              flush=True)


if __name__ == "__main__":
    main()
