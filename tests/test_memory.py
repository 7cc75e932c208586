"""What `rulec build` does about the process's own memory (compiler/build.py: big_buffers_given_back)."""

from __future__ import annotations

import ctypes.util
import subprocess
import sys
from pathlib import Path

import pytest

from rulec import build, cli

# Large buffers made and freed after a first, larger one: what a large rulebook's build does with its
# IR, module and tables.json. Prints how much more the process holds (VmRSS) once all are freed.
LEFT_OVER = """
import sys
from rulec.build import big_buffers_given_back
if sys.argv[1] == "given back":
    big_buffers_given_back()

def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024

before = rss()
first = bytes(30_000_000)
del first
for _ in range(3):
    buffers = [bytes(12_000_000) for _ in range(2)]
    small = [bytearray(1000) for _ in range(1000)]
    del buffers
print(rss() - before)
"""

GLIBC = sys.platform == "linux" and "libc.so" in (ctypes.util.find_library("c") or "")


def left_over(how: str) -> int:
    done = subprocess.run([sys.executable, "-c", LEFT_OVER, how], capture_output=True, text=True, check=True)
    return int(done.stdout)


@pytest.mark.skipif(not GLIBC, reason="glibc's allocator and Linux's /proc")
def test_large_buffers_are_given_back_once_freed() -> None:
    """With glibc's default, the 12 MB buffers after a 30 MB one come from the heap and what they leave
    stays with the process; given back, they leave next to nothing."""
    assert left_over("by default") >= 12_000_000
    assert left_over("given back") < 4_000_000


def test_rulec_build_gives_large_buffers_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    called: list[bool] = []
    monkeypatch.setattr(build, "big_buffers_given_back", lambda: called.append(True))  # cli imports it as it builds
    rules = tmp_path / "rules" / "s"
    rules.mkdir(parents=True)
    (rules / "s.rules").write_text('series S "S"\n', encoding="utf-8")
    assert cli.main(["build", "--rules", str(tmp_path / "rules"), "--out", str(tmp_path / "out"), "--no-print",
                     "--no-cache"]) == 0
    assert called == [True]


def test_what_the_cache_loads_during_a_build_is_left_out_of_the_collectors_rounds(tmp_path: Path) -> None:
    """A build's memos and parses, read back from the cache, live to its end: inside long_lived()
    the collector leaves them out (gc.freeze) as they are loaded, else its rounds go over them again
    and again (0.3 s of a one-file change in a 10,000-clause tree). Outside a build, nothing is frozen."""
    import gc

    from rulec.cache import Memo
    from rulec.collector import long_lived
    from rulec.diagnostics import Span

    kept = Memo(tmp_path / "memo.pickle")
    kept["spans"] = [Span("f.rules", i, 1, i, 2) for i in range(5000)]
    kept.save()
    gc.unfreeze()
    assert len(Memo(tmp_path / "memo.pickle")["spans"]) == 5000
    assert gc.get_freeze_count() == 0
    with long_lived():
        before = gc.get_freeze_count()
        spans = Memo(tmp_path / "memo.pickle")["spans"]
        assert gc.get_freeze_count() >= before + len(spans)
    assert gc.get_freeze_count() == 0


def test_checking_and_lowering_leave_no_garbage_in_cycles() -> None:
    """A build checks and lowers with the collector held off and freezes what they made (collector.lasting):
    a cycle they left as garbage would never be freed until the build ends, nor would what it refers to
    (checker.link's recursive inner function held every layer and parse of a 10,000-clause build: 44 MB)."""
    import gc

    from rulec.build import find_sources
    from rulec.checker import check
    from rulec.lower import lower
    from rulec.parser import parse

    root = Path(__file__).resolve().parent.parent / "rules"
    sources, _ = find_sources([root])
    files = [tree for name in sorted(sources) if (tree := parse(sources[name], name)[0]) is not None]
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        checked, _ = check(files)
        assert gc.collect() == 0
        lower(checked)
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()


def test_the_cards_views_leave_no_garbage_in_cycles() -> None:
    """A build makes each ruleset's cards' views with the collector held off and freezes them
    (build.card_fit, collector.lasting): a cycle they left as garbage would be kept to the build's
    end. Made again here from nothing, on every shipped ruleset, with the collector off: nothing
    left for it to find."""
    import gc

    from rulec.build import compile_sources, find_sources
    from rulec.sheets import view
    from rulec.sheets.text import forget_models

    root = Path(__file__).resolve().parent.parent / "rules"
    sources, _ = find_sources([root])
    models = compile_sources(sources).models
    assert len(models) >= 3
    forget_models()  # the views compile_sources made: made again below
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        for model in models.values():
            assert view.cards(models, model)
            view.card_overflows(models, model)
            assert gc.collect() == 0, model.manifest.ruleset
    finally:
        if enabled:
            gc.enable()
