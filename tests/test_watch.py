"""rulec build --watch: rebuilds on save, prints diagnostics, rewrites only what changed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from conftest import ROOT, files_of

from rulec.watch import Watcher, changed_files, snapshot

SERIES = 'series W "Watched" version "1"\n\nrule 1.1 "One" {\n  const cap "The cap" = 3\n}\n'


def make_tree(tmp_path: Path) -> tuple[Path, Path]:
    rules = tmp_path / "rules"
    (rules / "w").mkdir(parents=True)
    (rules / "w" / "series.rules").write_text(SERIES, encoding="utf-8")
    return rules, tmp_path / "generated"


def touch_later(path: Path, text: str) -> None:
    """Write, and move the modification time on so a coarse clock still sees the change."""
    path.write_text(text, encoding="utf-8")
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 10_000_000))


def test_snapshot_sees_content_changes_not_touches(tmp_path: Path) -> None:
    rules, _ = make_tree(tmp_path)
    f = rules / "w" / "series.rules"
    first = snapshot(rules)
    touch_later(f, SERIES)  # saved, unchanged
    assert changed_files(first, snapshot(rules, first)) == []
    touch_later(f, SERIES.replace("= 3", "= 4"))
    assert changed_files(first, snapshot(rules, first)) == [f]


def test_the_watcher_builds_then_rebuilds_only_on_change(tmp_path: Path) -> None:
    rules, out = make_tree(tmp_path)
    said: list[str] = []
    w = Watcher(rules, out, said.append)
    assert w.poll()  # the first look builds
    ir = out / "ir" / "w.json"
    python = out / "python" / "w.py"
    assert ir.is_file() and python.is_file()
    assert any(line.startswith("built W:") for line in said)
    mtimes = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}

    said.clear()
    assert not w.poll()  # nothing changed: no build
    assert said == []

    # a save that changes a value: only the files it changes are rewritten
    touch_later(rules / "w" / "series.rules", SERIES.replace("= 3", "= 4"))
    assert w.poll()
    assert said[0] == "changed: rules/w/series.rules"
    assert "4" in python.read_text(encoding="utf-8")
    rewritten = {p for p, m in mtimes.items() if p.exists() and p.stat().st_mtime_ns != m}
    assert python in rewritten and ir in rewritten
    assert rewritten < set(mtimes), "files whose content did not change are not rewritten"

    # a typo: the diagnostic, at its place, and the output left as it was
    said.clear()
    before = python.read_text(encoding="utf-8")
    touch_later(rules / "w" / "series.rules", SERIES.replace('"The cap" =', '"The cap" = ='))
    assert w.poll()
    text = "\n".join(said)
    assert "rules/w/series.rules:4:" in text and "error R00" in text and "build failed" in text
    assert python.read_text(encoding="utf-8") == before

    # a mistake the checker finds (not a syntax error)
    said.clear()
    touch_later(rules / "w" / "series.rules", SERIES + "rule 1.2 {\n  see 9.9\n}\n")
    assert w.poll()
    assert "R102" in "\n".join(said)


def test_rulec_build_watch_in_a_subprocess(tmp_path: Path) -> None:
    rules, out = make_tree(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "rulec", "build", "--watch", "--interval", "0.1",
                             "--iterations", "40"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 30
    while not (out / "python" / "w.py").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    touch_later(rules / "w" / "series.rules", SERIES.replace("= 3", "= 5"))
    stdout, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0, stdout
    assert "watching rules/" in stdout
    assert "changed: rules/w/series.rules" in stdout, stdout
    assert stdout.count("built W:") == 2
    assert "5" in (out / "python" / "w.py").read_text(encoding="utf-8")


def test_a_rebuild_parses_and_analyses_only_what_changed(tmp_path: Path, monkeypatch: Any) -> None:
    """The watching process keeps each file's parse, each table's analysis and each module in
    memory from one build to the next (and only those of the last build)."""
    from rulec import analysis, cache

    rules, out = make_tree(tmp_path)
    other = 'in W\n\nrule 2.1 "Two" {\n  table t(n: int) -> int "T" {\n    small: when n < 2 => 1 "Small"\n' \
            '    big: otherwise => 2 "Big"\n  }\n}\n'
    (rules / "w" / "two.rules").write_text(other, encoding="utf-8")
    parsed: list[str] = []
    analysed: list[str] = []
    real_parse, real_run = cache.parse_reusing, analysis.TableAnalysis.run
    monkeypatch.setattr(cache, "parse_reusing",
                        lambda text, name, earlier: parsed.append(name) or real_parse(text, name, earlier))
    monkeypatch.setattr(analysis.TableAnalysis, "run",
                        lambda self: analysed.append(self.table.name) or real_run(self))
    w = Watcher(rules, out, lambda line: None)
    assert w.poll()
    assert sorted(parsed) == ["rules/w/series.rules", "rules/w/two.rules"] and analysed == ["t"]
    parsed.clear()
    analysed.clear()
    before = (out / "python" / "w.py").read_text(encoding="utf-8")
    touch_later(rules / "w" / "series.rules", SERIES.replace("= 3", "= 4"))
    assert w.poll()
    assert parsed == ["rules/w/series.rules"] and analysed == []
    assert (out / "python" / "w.py").read_text(encoding="utf-8") != before  # the module follows the change
    assert (out / "python" / "w.py").read_text(encoding="utf-8") == _fresh(tmp_path, rules)


def _fresh(tmp_path: Path, rules: Path) -> str:
    from rulec.cli import main

    assert main(["build", "--rules", str(rules), "--out", str(tmp_path / "fresh"), "--no-cache", "--no-print"]) == 0
    return (tmp_path / "fresh" / "python" / "w.py").read_text(encoding="utf-8")


def test_the_watcher_builds_with_the_theme_and_rebuilds_when_it_changes(tmp_path: Path) -> None:
    rules, out = make_tree(tmp_path)
    (rules / "w" / "series.rules").write_text(SERIES.replace('version "1"\n', 'version "1"\ntheme "theme"\n'),
                                              encoding="utf-8")
    (rules / "w" / "theme").mkdir()
    css = rules / "w" / "theme" / "card.css"
    touch_later(css, ":root { --band: #abcdef; }")
    said: list[str] = []
    w = Watcher(rules, out, said.append)
    assert w.poll()
    cards = list((out / "cards" / "w").glob("card-*.html"))
    assert cards and all("#abcdef" in c.read_text(encoding="utf-8") for c in cards)  # as rulec build makes them
    said.clear()
    touch_later(css, ":root { --band: #fedcba; }")
    assert w.poll() and said[0] == "changed: rules/w/theme/card.css"
    assert all("#fedcba" in c.read_text(encoding="utf-8") for c in cards)


def test_the_watcher_writes_what_a_build_writes_and_runs_the_examples_on_the_module(
        tmp_path: Path, monkeypatch: Any) -> None:
    """--watch is `rulec build` kept running: the same files, byte for byte, before and after an
    edit; and the worked examples run on the generated module as well as on the interpreter (a
    disagreement between the two is R900 under --watch too), kept under the module's text so that
    an edit of a clause's wording runs none again."""
    import shutil

    from rulec import build
    from rulec.cli import main

    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules" / "zoc-classes", rules / "zoc-classes")
    ran: list[bool] = []
    real = build.run_examples
    monkeypatch.setattr(build, "run_examples", lambda model, module, cites: ran.append(module is not None)
                        or real(model, module, cites))
    monkeypatch.setenv("RULEC_CHROMIUM", "no-such-chromium-for-rulec-tests")
    w = Watcher(rules, tmp_path / "watched", lambda line: None)

    def same_as_a_build() -> None:
        out = tmp_path / "built"
        shutil.rmtree(out, ignore_errors=True)
        assert main(["build", "--rules", str(rules), "--out", str(out), "--no-cache", "--no-print"]) == 0
        assert files_of(w.out) == files_of(out)

    assert w.poll()
    assert ran == [True]
    same_as_a_build()
    f = rules / "zoc-classes" / "zoc.rules"
    text = f.read_text(encoding="utf-8")
    head = re.search(r'\btext "(?!")', text)
    assert head is not None
    ran.clear()
    touch_later(f, text[:head.end()] + "(Edited.) " + text[head.end():])
    assert w.poll()
    assert ran == []  # only a wording changed: the examples' outcome is kept
    same_as_a_build()


def test_the_watcher_does_not_read_again_what_it_wrote_from_kept_texts(tmp_path: Path, monkeypatch: Any) -> None:
    """The watcher remembers each file it wrote from a kept text (a page, a card, the module) with its
    size, mtime and digest: after a wording edit of one chapter it reads none of the others back;
    a kept file edited by hand meanwhile is compared and written again; the output is always what
    a plain build from nothing writes."""
    from rulec import cli, writing

    rules, out = make_tree(tmp_path)
    for n in (2, 3):
        (rules / "w" / f"ch{n}.rules").write_text(
            f'in W\n\nrule {n}.1 "Chapter {n}" {{\n  text "Chapter {n}."\n  const c{n} "C{n}" = {n}\n}}\n',
            encoding="utf-8")
    w = Watcher(rules, out, lambda line: None)
    assert w.poll()
    assert "python/w.py" in w.known and "sheets/w/2-0-chapter-2.md" in w.known
    read: list[str] = []
    real_same = writing._same

    def same(path: Path, data: str | bytes) -> bool:
        read.append(path.relative_to(out.resolve()).as_posix())
        return real_same(path, data)

    monkeypatch.setattr(writing, "_same", same)
    touch_later(rules / "w" / "ch3.rules", (rules / "w" / "ch3.rules").read_text(encoding="utf-8")
                .replace("Chapter 3.", "Chapter three, reworded."))
    assert w.poll()
    assert {"python/w.py", "sheets/w/2-0-chapter-2.md"}.isdisjoint(read), read
    read.clear()  # chapter 3's page was written: stamped again, it is not read after an edit of chapter 2
    touch_later(rules / "w" / "ch2.rules", (rules / "w" / "ch2.rules").read_text(encoding="utf-8")
                .replace("Chapter 2.", "Chapter two, reworded."))
    assert w.poll()
    assert {"python/w.py", "sheets/w/3-0-chapter-3.md"}.isdisjoint(read), read
    page = out / "sheets" / "w" / "3-0-chapter-3.md"
    page.write_text(page.read_text(encoding="utf-8") + "edited by hand\n", encoding="utf-8")
    touch_later(rules / "w" / "ch2.rules", (rules / "w" / "ch2.rules").read_text(encoding="utf-8")
                .replace("reworded", "reworded again"))
    assert w.poll()
    assert "edited by hand" not in page.read_text(encoding="utf-8")
    monkeypatch.undo()
    fresh = tmp_path / "fresh"
    assert cli.main(["build", "--rules", str(rules), "--out", str(fresh), "--no-cache", "--no-print"]) == 0
    assert files_of(out) == files_of(fresh)
