"""`rulec build --compiled`: each generated module also built as a C extension by mypyc.

Why mypyc: a well-kept compiler of typed Python, from the mypy project. The generated modules are
`mypy --strict` clean, so their annotations compile as they are: the compiled module is the same
source as the pure one, and answers the same (tests/test_compiled.py runs the differential test
over both). The pure module stays the default and stays standard-library only.

Where the extensions go: beside the pure module, under the module's name with `_c` added:
generated/python/ocs.py and generated/python/ocs_c.cpython-311-x86_64-linux-gnu.so. A program
chooses by name (`import ocs_c as ocs`, or `import ocs` for the pure one), both can be loaded in one
process (the differential test does), and `import ocs` is always the pure module. (An extension
named `ocs` beside ocs.py would take its place silently: Python imports an extension before a .py
file of the same name.) They are not committed (.gitignore): an extension is built for one Python
version on one kind of machine. `rulec build --check` passes them over; a plain `rulec build` that
rebuilds generated/ leaves them out, since they were built from the modules it replaces.

How: each module's text is copied, under its compiled name, into a temporary folder outside the
tree, compiled there in a child process (mypy's type check, mypyc's C, then the C compiler through
setuptools) and the extension read back; the build writes it with every other output, so
generated/ is swapped in whole or not at all, and no build/, .mypy_cache or .c file is left
anywhere. Compiling is slow (OCS: about a minute, and 7.6 GB of memory while mypyc
analyses the module's top level), so each extension is kept in the build cache
(.rulec-cache/compiled/, sealed like every file there) under a hash of the module's text and of
the tools: a module that did not change is not compiled again.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.machinery
import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .manifest import _write_file, read_sealed, sealed

SUFFIX = "_c"  # ocs.py -> ocs_c<EXTENSION>
EXTENSION = importlib.machinery.EXTENSION_SUFFIXES[0]  # .cpython-311-x86_64-linux-gnu.so here
# mypyc's default is the C compiler's -O3. RULEC_MYPYC_OPT_LEVEL=0 compiles in about half the time
# the same code, unoptimised (CI does: it tests what the extensions answer, not how fast they are).
OPT_LEVEL = os.environ.get("RULEC_MYPYC_OPT_LEVEL", "3")
if OPT_LEVEL not in ("0", "1", "2", "3"):
    OPT_LEVEL = "3"
INSTALL = "pip install 'rulec[compiled]'"

# The child process that compiles one module, run inside the temporary folder that holds it.
_CHILD = """\
import sys
from mypyc.build import mypycify
from setuptools import setup

name, opt_level = sys.argv[1], sys.argv[2]
setup(name=name, ext_modules=mypycify([name + ".py"], opt_level=opt_level, debug_level="0"),
      script_args=["--quiet", "build_ext", "--inplace", "--build-temp", "build", "--build-lib", "build"])
"""


class CompileError(Exception):
    """A module that could not be compiled, or a tool that is missing: the message says which, and
    what to do."""


def compiled_path(rel: str) -> str:
    """The extension a module compiles to: python/ocs.py -> python/ocs_c.cpython-311-x86_64-linux-gnu.so."""
    return rel.removesuffix(".py") + SUFFIX + EXTENSION


def is_compiled(rel: str) -> bool:
    """Whether a file of the output folder is a compiled module (of this Python or another)."""
    return rel.startswith("python/") and "/" not in rel[len("python/"):] and \
        rel.endswith((".so", ".pyd", *importlib.machinery.EXTENSION_SUFFIXES))


def _found(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def _c_compiler() -> list[str]:
    """The C compiler setuptools will run: $CC, else the one Python was built with."""
    return shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")


def missing_tools() -> str | None:
    """What `rulec build --compiled` needs and this machine lacks, said as what to install; None
    when everything is there."""
    lacking = [name for name in ("mypyc", "setuptools") if not _found(name)]
    if lacking:
        return (f"rulec build --compiled needs {' and '.join(lacking)}, which "
                f"{'is' if len(lacking) == 1 else 'are'} not installed: {INSTALL}")
    cc = _c_compiler()
    if not cc or shutil.which(cc[0]) is None:
        shown = " ".join(cc) or "(none)"
        return (f"rulec build --compiled needs a C compiler, and '{shown}' was not found (CC, or the one "
                "Python was built with): on Debian, apt-get install gcc python3-dev")
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.is_file():
        return (f"rulec build --compiled needs Python's C headers, and {headers} is not there: on Debian, "
                "apt-get install python3-dev")
    return None


def toolchain() -> str:
    """What an extension depends on besides its module's text: Python, mypy (and its mypyc), the C
    compiler and the options."""
    import importlib.metadata  # here: it is a tenth of a no-op `rulec build`, which needs none of this

    try:
        mypy = importlib.metadata.version("mypy")
    except importlib.metadata.PackageNotFoundError:
        mypy = "none"
    return f"python {sys.version} {EXTENSION}; mypy {mypy}; cc {' '.join(_c_compiler())}; opt {OPT_LEVEL}"


def build_key(key: str) -> str:
    """The build cache's key for a compiled build of what `key` is the plain build's key of."""
    return hashlib.sha256(f"{key}\0compiled\0{toolchain()}".encode()).hexdigest()


def extensions(modules: Mapping[str, str], cache: Path | None = None, jobs: int = 1,
               progress: Callable[[str], None] | None = None) -> dict[str, bytes]:
    """Each module (python/<name>.py: its text) compiled, as {python/<name>_c<EXTENSION>: its bytes}.
    cache: the build cache folder (extensions kept in its compiled/ under a hash of the module and
    the tools); jobs: how many modules are compiled at once. Raises CompileError."""
    for rel in modules:
        if compiled_path(rel).removesuffix(EXTENSION) + ".py" in modules:
            raise CompileError(f"{rel} would compile to {compiled_path(rel)}, which would hide the module "
                               f"{compiled_path(rel).removesuffix(EXTENSION)}.py: rename one of the rulesets")
    problem = missing_tools()
    if problem is not None:
        raise CompileError(problem)
    tools = toolchain()
    out: dict[str, bytes] = {}
    todo: list[tuple[str, Path | None]] = []
    for rel in sorted(modules):
        kept = None
        if cache is not None:
            key = hashlib.sha256(f"{tools}\0{rel}\0{modules[rel]}".encode()).hexdigest()
            kept = cache / "compiled" / f"{key}{EXTENSION}"
            found = read_sealed(kept)
            if found is not None:
                out[compiled_path(rel)] = found
                with contextlib.suppress(OSError):
                    os.utime(kept)  # used now: _prune keeps it
                continue
        todo.append((rel, kept))
    children = _Children()
    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    try:
        started = [pool.submit(_compile_one, rel, modules[rel], children, progress) for rel, _ in todo]
        made = [job.result() for job in started]
    except BaseException:  # one failed, or Ctrl-C: the others are stopped, not waited for
        children.stop()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    for (rel, kept), data in zip(todo, made, strict=True):
        out[compiled_path(rel)] = data
        if kept is not None:
            _write_file(kept, sealed(kept, data))
    if cache is not None:
        _prune(cache / "compiled")
    return out


def _prune(folder: Path, keep_days: float = 14) -> None:
    """Drop the kept extensions that no build used for keep_days (each is a few MB)."""
    try:
        entries = list(folder.iterdir())
    except OSError:
        return
    for entry in entries:
        try:
            if entry.stat().st_mtime < time.time() - keep_days * 86400:
                entry.unlink()
        except OSError:
            pass


class _Children:
    """The compilers at work, each a child process; stop() kills them and lets no more start."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.running: set[subprocess.Popen[str]] = set()
        self.stopped = False

    def run(self, command: list[str], cwd: str) -> tuple[int, str]:
        """The child's exit code and what it printed (standard output and error together)."""
        with self.lock:
            if self.stopped:
                raise CompileError("stopped")
            child = subprocess.Popen(command, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, errors="replace")
            self.running.add(child)
        try:
            output, _ = child.communicate()
        finally:
            with self.lock:
                self.running.discard(child)
        return child.returncode, output

    def stop(self) -> None:
        with self.lock:
            self.stopped = True
            for child in self.running:
                child.kill()


def _compile_one(rel: str, text: str, children: _Children, progress: Callable[[str], None] | None) -> bytes:
    name = rel.rsplit("/", 1)[-1].removesuffix(".py") + SUFFIX
    started = time.perf_counter()
    if progress is not None:
        progress(f"compiling {rel} with mypyc")
    with tempfile.TemporaryDirectory(prefix="rulec-mypyc-") as tmp:
        (Path(tmp) / f"{name}.py").write_text(text, encoding="utf-8")
        try:
            code, output = children.run([sys.executable, "-c", _CHILD, name, OPT_LEVEL], tmp)
        except OSError as e:
            raise CompileError(f"cannot run {sys.executable} to compile {rel}: {e.strerror or e}") from None
        built = Path(tmp) / f"{name}{EXTENSION}"
        if code != 0 or not built.is_file():
            raise CompileError(f"mypyc could not compile {rel} (exit {code}):\n{_tail(output)}")
        data = built.read_bytes()
    if progress is not None:
        progress(f"compiled {rel} in {time.perf_counter() - started:.0f} s")
    return data


_NOISE = ("warning: Treating generator comprehension as list",)  # mypyc's note on any(x for ...): not a problem


def _tail(output: str, lines: int = 25) -> str:
    """The end of a compiler's output, what says why it failed, indented."""
    kept = [line for line in output.splitlines() if line.strip() and not line.endswith(_NOISE)]
    shown = kept[-lines:]
    if len(kept) > lines:
        shown.insert(0, f"... ({len(kept) - lines} lines before)")
    return "\n".join(f"  {line}" for line in shown) or "  (no output)"
