"""The templates' compiled code kept between runs (sheets.KeptTemplates): read back only if this
user's rulec sealed it, and never a reason for a build to fail."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2
import pytest

from rulec.manifest import keep_sealed, unsealed
from rulec.sheets import KeptTemplates, environment

TEMPLATES = {"list.j2": "{% for i in items %}<{{ i }}>{% endfor %}\n", "title.j2": "# {{ title | upper }}\n"}
NAMES = sorted(TEMPLATES)


def fresh(folder: Path) -> tuple[jinja2.Environment, list[str]]:
    """A new environment keeping its templates' code in folder, and the names it compiled."""
    env = jinja2.Environment(loader=jinja2.DictLoader(TEMPLATES), undefined=jinja2.StrictUndefined,
                             keep_trailing_newline=True)
    env.bytecode_cache = KeptTemplates(folder)
    compiled: list[str] = []
    real = env.compile

    def counted(source: str, name: str | None = None, *args: Any, **kw: Any) -> Any:
        compiled.append(name or "")
        return real(source, name, *args, **kw)

    env.compile = counted  # type: ignore[method-assign]
    return env, compiled


def test_a_template_compiled_once_is_read_back_by_the_next_run(tmp_path: Path) -> None:
    first, compiled = fresh(tmp_path)
    made = [first.get_template(n) for n in NAMES]
    assert compiled == NAMES and len(list(tmp_path.glob("*.code"))) == 2
    again, compiled = fresh(tmp_path)
    read = [again.get_template(n) for n in NAMES]
    assert compiled == []
    for a, b in zip(made, read, strict=True):
        assert a.render(items=[1, "x"], title="t") == b.render(items=[1, "x"], title="t")
    assert read[0].render(items=[1, "x"]) == "<1><x>\n"


def test_code_this_user_s_rulec_did_not_seal_is_never_run(tmp_path: Path) -> None:
    """An entry in Jinja's own format, or damaged, or sealed for another entry's place: compiled again."""
    first, _ = fresh(tmp_path)
    first.get_template(NAMES[0])
    (entry,) = tmp_path.glob("*.code")
    kept = entry.read_bytes()
    bucket_bytes = unsealed(entry, kept)  # what Jinja's own cache would hold
    assert bucket_bytes is not None
    for damaged in (bucket_bytes, kept[:-10], b"", kept[:20] + bytes(len(kept) - 20)):
        entry.write_bytes(damaged)
        env, compiled = fresh(tmp_path)
        env.get_template(NAMES[0])
        assert compiled == [NAMES[0]]
    other = tmp_path / "other.code"
    keep_sealed(other, bucket_bytes)  # sealed, but for another place: the seal names the file
    entry.write_bytes(other.read_bytes())
    env, compiled = fresh(tmp_path)
    env.get_template(NAMES[0])
    assert compiled == [NAMES[0]]


def test_a_cache_folder_that_cannot_be_written_only_costs_the_compiling(tmp_path: Path) -> None:
    blocked = tmp_path / "a file"
    blocked.write_text("not a folder", encoding="utf-8")
    env, compiled = fresh(blocked / "templates")
    assert env.get_template(NAMES[0]).name == NAMES[0] and compiled == [NAMES[0]]


def test_rulec_s_environments_keep_their_code_each_in_a_folder_of_its_own(monkeypatch: pytest.MonkeyPatch,
                                                                          tmp_path: Path) -> None:
    """Markdown and HTML compile the same source differently (autoescape, trimmed blocks): never one folder."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    md = KeptTemplates.of(environment("md"))
    html = KeptTemplates.of(environment("html"))
    assert md is not None and html is not None and md.folder != html.folder
    assert md.folder.parent == tmp_path / "rulec" / "templates"
    assert isinstance(environment("md").bytecode_cache, KeptTemplates)
