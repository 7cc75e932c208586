"""The garbage collector during a build: what a build makes and keeps to its end is left out of
the collector's rounds (gc.freeze), which otherwise go over all of it again and again."""

from __future__ import annotations

import contextlib
import functools
import gc
import threading
from collections.abc import Iterator

_HELD = [0]  # long_lived() blocks open, in any thread (the language server compiles in one of its own)
_HOLDING = threading.Lock()


@contextlib.contextmanager
def long_lived() -> Iterator[None]:
    """What exists now (the parses, the models, the indexes over them) lives until the build is
    done: the garbage collector leaves it out of its rounds until then (gc.freeze), and so what
    settled() says lives on too. Its full rounds went over all of it again and again (3.5 s of
    the CPU of a 10,000-clause build). What is made inside and dies young is collected as before;
    what is frozen and dies is, once the outermost block ends."""
    with _HOLDING:
        _HELD[0] += 1
        gc.freeze()
    try:
        yield
    finally:
        with _HOLDING:
            _HELD[0] -= 1
            if not _HELD[0]:
                gc.unfreeze()


def settled() -> None:
    """Inside long_lived(): what was made so far (a file's parse, a model, an IR document, what
    the cache kept) lives until the build is done, so the garbage collector leaves it out too.
    What is frozen and dies is freed all the same when nothing refers to it (the parses, once
    lowered, hold no cycles: a full collection there found 43 objects of a 10,000-clause build,
    and cost 7% of an edit of the shipped rules)."""
    if _HELD[0]:
        gc.freeze()


def collect_left() -> None:
    """Inside long_lived(): collect what earlier work left as garbage in cycles (the modules the worked
    examples ran on: their classes and functions refer to each other), before a lasting() block
    settles all that exists then; frozen, it would be kept to the build's end (8,484 objects of a
    10,000-clause build as its cards' views began). One full round, over what is not frozen."""
    if _HELD[0]:
        gc.collect()


@contextlib.contextmanager
def lasting() -> Iterator[None]:
    """A block that makes what lives on after it (a parse or memo read back from the cache, the
    checked program, the typed layers): the collector is held off while it is made, none of it
    being garbage, and inside long_lived() it is settled before the collector runs again; else the
    collector's first round after the block, of its youngest generation, goes over all of it at
    once (0.1 s after checking a 10,000-clause tree). Only around work that leaves no garbage in
    cycles: frozen, a cycle lives to the build's end, and so does all it refers to (checking's
    one small cycle once held every parse of the build: tests/test_memory.py)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        settled()
        if enabled:
            gc.enable()


M_TRIM_THRESHOLD = -1  # glibc's mallopt() parameter: how much free memory the heap's top may keep
HEAP_KEPT = 32 << 20  # more than a solver context frees at once (16 MB was not: 641,000 page faults at 10k clauses)


@functools.cache
def keep_freed_heap() -> bool:
    """Let the C heap keep up to 32 MB that it frees at its top, rather than give it back to the
    system at once (glibc's mallopt M_TRIM_THRESHOLD; elsewhere nothing is done). The table analysis
    starts a solver context for each table (z3, some 8 MB, freed when the table is done): once a
    build's heap had grown, glibc gave each context's memory back as it was freed and the next
    context took it again page by page, 2,048 page faults and 2.7 ms a context against 0.4 ms (a
    30,000-clause build: 4.3 million page faults against 0.7 million). True where it was set."""
    from .writing import libc

    found = libc()
    mallopt = getattr(found, "mallopt", None) if found is not None else None
    if mallopt is None:
        return False
    return bool(mallopt(M_TRIM_THRESHOLD, HEAP_KEPT))
