"""parser.parse_reusing: a file parsed in top-level pieces, each kept under a hash of its text, is
parse()'s tree node for node and span for span; after an edit, only the pieces it changed are parsed
again, and the others are moved by the lines it added or took away."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from rulec import manifest, parser
from rulec.cache import MemoryParses, ParseCache
from tests.progen import generate
from tests.shapes import shape

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8")
           for p in sorted((ROOT / "rules").rglob("*.rules"))}


def same_as_parse(text: str, name: str, earlier: dict[str, parser.Piece]) -> dict[str, parser.Piece]:
    """parse_reusing's result is parse()'s; its pieces for the next edit."""
    got, pieces = parser.parse_reusing(text, name, earlier)
    assert shape(got) == shape(parser.parse(text, name)), name
    return pieces


def counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts of the pieces parsed from here on."""
    parsed: list[str] = []
    piece = parser._piece

    def counted(chunk: str, path: str, start: int) -> Any:
        parsed.append(chunk)
        return piece(chunk, path, start)

    monkeypatch.setattr(parser, "_piece", counted)
    return parsed


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_every_shipped_file_in_pieces_is_its_parse(name: str) -> None:
    pieces = same_as_parse(SHIPPED[name], name, {})
    assert pieces, "a file that parses is kept in pieces"
    assert "".join(c for _, c in parser._split(SHIPPED[name])) == SHIPPED[name]


@pytest.mark.parametrize("name", ["rules/ocs/ch4-general-concepts.rules", "rules/zoc-classes/zoc.rules"])
def test_an_edit_parses_only_the_piece_it_changed(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = SHIPPED[name]
    pieces = same_as_parse(text, name, {})
    parsed = counting(monkeypatch)
    lines = text.split("\n")
    rng = random.Random(name)
    texts = [i for i, line in enumerate(lines) if line.lstrip().startswith("text \"") and line.rstrip().endswith('"')]
    for i in rng.sample(texts, 5):
        # a clause's wording changed on its own line: one piece parsed again, nothing moved
        edited = "\n".join(lines[:i] + [lines[i][:-1] + ' (edited)"'] + lines[i + 1:])
        parsed.clear()
        same_as_parse(edited, name, pieces)
        assert len(parsed) == 1 and "(edited)" in parsed[0]
        # two lines added inside that clause: it is parsed again, every piece below it moved
        grown = "\n".join(lines[:i] + ["  # a comment", lines[i]] + lines[i:])
        parsed.clear()
        same_as_parse(grown, name, pieces)
        assert len(parsed) == 1 and "# a comment" in parsed[0]
        # an empty line between two clauses taken away: the piece that ended with it is parsed
        # again, the pieces below are moved up
        blank = next((j for j in range(i, len(lines) - 1) if lines[j] == "" and lines[j + 1][:1].isalpha()), None)
        if blank is not None:
            parsed.clear()
            same_as_parse("\n".join(lines[:blank] + lines[blank + 1:]), name, pieces)
            assert len(parsed) == 1


def test_in_continues_an_expression_so_a_piece_never_starts_there() -> None:
    """`x` then `in OCS` on the next line is the expression `x in OCS` (the grammar shifts), not a
    definition followed by a layer: the split must not cut there."""
    text = 'series OCS "S"\ndefine f(x: int) -> bool = x\nin OCS\nrule 1.1 "R" { }\n'
    same_as_parse(text, "in.rules", {})
    assert [c for _, c in parser._split(text)][1].endswith("in OCS\n")


BROKEN = [
    'series S "S"\nrule 1.1 "R" {\n  const x = (1 +\n}\nconst y = 1/0\n',  # syntax, bad literal
    'series S "S"\nrule 1.1 "R" {\n  text "a \\q b"\n}\n',  # an unknown escape
    'series S "S"\nrule 1.1 "R" {\n  text """never closed\n}\nrule 1.2 "S" { }\n',
    'series S "S"\nrule 1.1 "R" {\ndefine x = {a,\nrule}\n}\n',  # a keyword as a name, inside braces
    'series S "S"\nrule 1.1 "R" {\n  text "quoted # not a comment {"\n}\n',
    'series S "S"\nconst x = 1' + "0" * 400 + '\n',  # a number past the input limits
]


@pytest.mark.parametrize("text", BROKEN)
def test_a_file_with_a_mistake_gets_parses_diagnostics(text: str) -> None:
    pieces = same_as_parse(text, "bad.rules", {})
    got, _ = parser.parse_reusing(text, "bad.rules", pieces)
    if got[1]:
        assert pieces == {}  # nothing kept from a file with a mistake


def test_random_programs_and_random_line_edits() -> None:
    """Programs of the random generator (tests/progen.py) in pieces, then edited line by line at
    random (a line dropped, doubled or added, a word changed), each version against parse()."""
    rng = random.Random("pieces")
    for index in range(12):
        for name, text in generate(7, index).files().items():
            pieces = same_as_parse(text, name, {})
            for _ in range(6):
                lines = text.split("\n")
                i = rng.randrange(len(lines))
                kind = rng.choice(["drop", "double", "add", "word"])
                if kind == "drop":
                    del lines[i]
                elif kind == "double":
                    lines.insert(i, lines[i])
                elif kind == "add":
                    lines.insert(i, rng.choice(["", "# note", "  ", "const extra_c = 1"]))
                else:
                    lines[i] = lines[i].replace(" ", "  ", 1)
                text = "\n".join(lines)
                pieces = same_as_parse(text, name, pieces) or pieces


def test_the_disk_cache_parses_an_edited_file_in_pieces(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    name = "rules/ocs/ch4-general-concepts.rules"
    text = SHIPPED[name]
    first = ParseCache(tmp_path)
    first.parse(text, name)
    first.finish()
    parsed = counting(monkeypatch)
    edited = text.replace('rule 4.5b "Negating ZOC" {', '# moved down a line\nrule 4.5b "Negating ZOC" {', 1)
    edited = edited.replace("Attack-Capable units", "Attack-Capable units (edited)", 1)
    second = ParseCache(tmp_path)
    assert shape(second.parse(edited, name)) == shape(parser.parse(edited, name))
    assert (second.misses, len(parsed)) == (1, 2)  # the two pieces the edit touched
    second.finish()
    kept = sorted(p.suffix for p in (tmp_path / "parse").iterdir())
    assert kept == [".latest", ".pickle"]  # the latest parse and what says it is the latest


def test_a_damaged_latest_entry_only_parses_the_whole_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    name = "rules/dak/dak.rules"
    text = SHIPPED[name]
    ParseCache(tmp_path).parse(text, name)
    [latest] = (tmp_path / "parse").glob("*.latest")
    latest.write_bytes(manifest.sealed(latest, b"\x80\x05\x95not a key"))
    parsed = counting(monkeypatch)
    edited = text.replace("DAK", "DAK ", 1)
    assert shape(ParseCache(tmp_path).parse(edited, name)) == shape(parser.parse(edited, name))
    assert len(parsed) == len(list(parser._split(edited)))  # every piece, none taken from before


def test_a_watching_process_keeps_each_files_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    name = "rules/zoc-classes/zoc.rules"
    text = SHIPPED[name]
    parses = MemoryParses()
    parses.parse(text, name)
    parses.finish()
    parsed = counting(monkeypatch)
    edited = text.replace("Zone", "Zone ", 1)
    assert shape(parses.parse(edited, name)) == shape(parser.parse(edited, name))
    assert len(parsed) == 1


@pytest.mark.parametrize("kept", ["disk", "memory"])
def test_a_typo_and_its_fix_take_up_the_pieces_from_before_the_typo(
        kept: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A designer's save with a typo, then the save that fixes it: the fix parses only the piece
    it touched, from the pieces of the last version that parsed."""
    name = "rules/ocs/ch4-general-concepts.rules"
    text = SHIPPED[name]
    parses: ParseCache | MemoryParses = ParseCache(tmp_path) if kept == "disk" else MemoryParses()
    parses.parse(text, name)
    typo = text.replace('rule 4.5b "Negating ZOC" {', 'rule 4.5b "Negating ZOC" {{', 1)
    tree, diags = parses.parse(typo, name)
    assert tree is None and diags
    parsed = counting(monkeypatch)
    fixed = text.replace("Attack-Capable units", "Attack-Capable units (edited)", 1)
    assert shape(parses.parse(fixed, name)) == shape(parser.parse(fixed, name))
    assert len(parsed) == 1 and "(edited)" in parsed[0]
