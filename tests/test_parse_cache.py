"""ParseCache: each file's parse kept on disk, keyed by rulec, the file's name and its text."""

from __future__ import annotations

import os
import pickle
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rulec import cache, manifest, parser
from rulec.cache import ParseCache, parse_key
from tests.shapes import shape

ROOT = Path(__file__).resolve().parent.parent

NUMBERS = '''series S "S"

enum Kind "Kind" {
  has cost: number = 3/4 "Cost"
  has weight: number = -1/3 "Weight"
  - a "A" cost = 1.5
  - b "B" cost = -2/7
}

rule 1.1 "One" {
  text "a \\"quoted\\" text\\twith escapes"
  const c "C" = 0.125 + 2/3 * (1 - 1/9)
  define f(k: Kind) -> number "F" = if k == a then 1/7 else 22/7
}
'''


def entries(folder: Path) -> list[Path]:
    return sorted((folder / "parse").glob("*.pickle"))


def no_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: Any) -> Any:
        raise AssertionError("parsed, where the cache should have answered")
    monkeypatch.setattr(cache, "parse_reusing", fail)


def test_a_hit_gives_the_parse_back_exactly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = ParseCache(tmp_path).parse(NUMBERS, "s.rules")
    no_parsing(monkeypatch)
    again = ParseCache(tmp_path)
    tree, diags = again.parse(NUMBERS, "s.rules")
    assert (again.hits, again.misses) == (1, 0)
    assert shape((tree, diags)) == shape(first) == shape(parser.parse(NUMBERS, "s.rules"))
    assert tree is not None and not diags
    kind = tree.items[1]
    values = [a.default.value for a in kind.attrs] + [m.settings[0].value.value for m in kind.members]
    assert values == [Fraction(3, 4), -Fraction(1, 3), Fraction(3, 2), -Fraction(2, 7)]
    assert all(type(v) is Fraction for v in values)


def test_every_shipped_file_comes_back_the_same(tmp_path: Path) -> None:
    files = {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8")
             for p in sorted((ROOT / "rules").rglob("*.rules"))}
    cold = ParseCache(tmp_path)
    first = {name: cold.parse(text, name) for name, text in files.items()}
    warm = ParseCache(tmp_path)
    for name, text in files.items():
        assert shape(warm.parse(text, name)) == shape(first[name]) == shape(parser.parse(text, name)), name
    assert (cold.misses, warm.hits, warm.misses) == (len(files), len(files), 0)


def test_a_file_with_mistakes_keeps_its_diagnostics(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = 'series S "S"\nrule 1.1 "R" {\n  const x = (1 +\n}\nconst y = 1/0\n'
    expected = parser.parse(text, "bad.rules")
    assert expected[0] is None and expected[1]
    assert ParseCache(tmp_path).parse(text, "bad.rules") == expected
    no_parsing(monkeypatch)
    assert ParseCache(tmp_path).parse(text, "bad.rules") == expected


def test_another_text_or_name_is_a_miss(tmp_path: Path) -> None:
    c = ParseCache(tmp_path)
    c.parse(NUMBERS, "s.rules")
    tree, _ = c.parse(NUMBERS.replace("One", "Uno"), "s.rules")
    assert tree is not None and tree.items[2].title == "Uno"
    tree, _ = c.parse(NUMBERS, "t.rules")
    assert tree is not None and tree.path == "t.rules" and tree.items[2].span.file == "t.rules"
    assert (c.hits, c.misses) == (0, 3)
    assert len(entries(tmp_path)) == 3


def test_rulec_itself_is_part_of_the_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ParseCache(tmp_path).parse(NUMBERS, "s.rules")
    before = parse_key(NUMBERS, "s.rules")
    monkeypatch.setattr(cache, "fingerprint", lambda: "another rulec")
    assert parse_key(NUMBERS, "s.rules") != before
    c = ParseCache(tmp_path)
    c.parse(NUMBERS, "s.rules")
    assert (c.hits, c.misses) == (0, 1)


def test_the_key_keeps_name_and_text_apart() -> None:
    assert parse_key("b", "a") != parse_key("", "ab") != parse_key("ab", "")


class _Exploit:
    def __reduce__(self) -> Any:
        return (os.system, ("touch PWNED",))


DAMAGE = {
    "empty": b"",
    "garbage": b"\x00\xffnot a pickle at all",
    "cut short": None,  # the real entry, truncated
    "another type": pickle.dumps(42),
    "a pair of the wrong things": pickle.dumps(("tree", ["diagnostic"])),
    "a function call": pickle.dumps(_Exploit()),
}


@pytest.mark.parametrize("sealed", [False, True], ids=["planted", "sealed"])
@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_entry_is_parsed_again(damage: str, sealed: bool, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: bytes that this user's rulec did not seal are never unpickled. Sealed (as if the
    key were known): the restricted unpickler still loads nothing but a parse."""
    monkeypatch.chdir(tmp_path)
    expected = ParseCache(tmp_path).parse(NUMBERS, "s.rules")
    [entry] = entries(tmp_path)
    data = DAMAGE[damage]
    if data is None:
        data = entry.read_bytes()[:200]
    entry.write_bytes(manifest.sealed(entry, data) if sealed else data)
    c = ParseCache(tmp_path)
    assert shape(c.parse(NUMBERS, "s.rules")) == shape(expected)
    assert (c.hits, c.misses) == (0, 1)
    assert not (tmp_path / "PWNED").exists()
    again = ParseCache(tmp_path)  # the entry was stored afresh
    assert shape(again.parse(NUMBERS, "s.rules")) == shape(expected) and again.hits == 1


def test_an_entry_that_cannot_be_read_is_a_miss(tmp_path: Path) -> None:
    ParseCache(tmp_path).parse(NUMBERS, "s.rules")
    [entry] = entries(tmp_path)
    entry.unlink()
    entry.mkdir()  # reading it fails with IsADirectoryError; so does writing over it
    c = ParseCache(tmp_path)
    assert shape(c.parse(NUMBERS, "s.rules")) == shape(parser.parse(NUMBERS, "s.rules"))
    assert (c.hits, c.misses) == (0, 1)


def test_a_cache_that_cannot_be_written_only_parses(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    c = ParseCache(blocked)
    assert shape(c.parse(NUMBERS, "s.rules")) == shape(parser.parse(NUMBERS, "s.rules"))
    c.finish()
    assert blocked.read_text() == "not a folder"


def test_entries_are_written_whole(tmp_path: Path) -> None:
    ParseCache(tmp_path).parse(NUMBERS, "s.rules")
    assert sorted(p.suffix for p in (tmp_path / "parse").iterdir()) == [".latest", ".pickle"]  # no temporary file left


def test_finish_drops_the_entries_this_run_did_not_use(tmp_path: Path) -> None:
    first = ParseCache(tmp_path)
    first.parse(NUMBERS, "a.rules")
    first.parse(NUMBERS, "b.rules")
    first.finish()
    assert len(entries(tmp_path)) == 2
    second = ParseCache(tmp_path)
    second.parse(NUMBERS, "a.rules")
    leftover = tmp_path / "parse" / ".abc.tmp"
    leftover.write_bytes(b"half")
    os.utime(leftover, (0, 0))  # a temporary file from a crash long ago
    fresh = tmp_path / "parse" / ".def.tmp"
    fresh.write_bytes(b"half")  # another build's, being written now
    second.finish()
    assert entries(tmp_path) == [tmp_path / "parse" / f"{parse_key(NUMBERS, 'a.rules')}.pickle"]
    assert not leftover.exists() and fresh.exists()
