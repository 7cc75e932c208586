"""rulec.toml, several rules folders, installed series and `rulec init` (compiler/project.py, init.py).

A game repository names its rules folders and the series it extends in rulec.toml; every command
finds the file by walking up from the working directory, so a command run from a subfolder works on
the same tree. The shipped series are announced as installed (entry point group rulec.rules) by this
checkout's editable install; tests/test_package.py does the same from a built wheel.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulec import project
from rulec.cli import main

ROOT = Path(__file__).resolve().parent.parent

SIBLING = '''series SIB "A sibling series" version "2"

rule 1.1 "Turns" {
  const turns "Game turns" = 7

  example "Seven turns" {
    expect turns == 7
  }
}
'''


@pytest.fixture
def inside(tmp_path: Path) -> Iterator[Path]:
    old = Path.cwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(old)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    rc = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out, err


def test_the_shipped_series_are_installed() -> None:
    found = project.installed()
    assert {"OCS", "DAK", "ZCS", "ACW"} <= set(found)
    assert (project.series_folder(found["OCS"]) / "series.rules").is_file()


def test_init_then_every_command(inside: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = inside / "northridge"
    rc, out, err = run(capsys, "init", str(game), "--extends", "OCS", "--title", "Northridge")
    assert rc == 0, err
    for rel in ("rulec.toml", "rules/northridge/northridge.rules", ".gitignore", ".pre-commit-config.yaml",
                ".github/workflows/rules.yml"):
        assert (game / rel).is_file(), rel
    assert ".rulec-cache/" in (game / ".gitignore").read_text()
    first = (game / "rules/northridge/northridge.rules").read_text()
    assert 'game NORTHRIDGE "Northridge" extends OCS "4.3" version "1"' in first
    assert "override 4.5a D" in first and "example" in first
    # a sibling series folder named in rulec.toml, beside the installed OCS
    sibling = inside / "sibling" / "rules"
    sibling.mkdir(parents=True)
    (sibling / "sib.rules").write_text(SIBLING, encoding="utf-8")
    toml = (game / "rulec.toml").read_text().replace('rules = ["rules"]', 'rules = ["rules", "../sibling/rules"]')
    (game / "rulec.toml").write_text(toml.replace('rulesets = ["NORTHRIDGE"]', 'rulesets = ["NORTHRIDGE", "SIB"]'))
    os.chdir(game / "rules" / "northridge")  # from a subfolder: the project is found above
    rc, out, err = run(capsys, "check")
    assert (rc, out) == (0, "ok: 7 files, rulesets NORTHRIDGE, OCS, SIB\n"), err  # OCS's five, the game's two
    rc, out, err = run(capsys, "build", "--no-print")
    assert rc == 0, err
    assert "for NORTHRIDGE, SIB" in out
    assert sorted(p.name for p in (game / "generated" / "python").iterdir()) == ["northridge.py", "sib.py"]
    assert run(capsys, "build", "--check", "--no-print")[0] == 0
    rc, out, err = run(capsys, "test")
    assert rc == 0, err
    assert ", 0 failed" in out
    rc, out, err = run(capsys, "eval", "NORTHRIDGE", "ezoc_allows(D, true)", "--json")
    assert rc == 0, err
    answer = json.loads(out)
    assert answer["value"] is False and any("NORTHRIDGE" in r["text"] for r in answer["rules"])
    assert run(capsys, "eval", "SIB", "turns")[1].startswith("turns  [SIB]  =  7")
    assert run(capsys, "fmt", "--check")[0] == 0
    os.chdir(game)
    rc, out, err = run(capsys, "diff", "rules", "rules")
    assert rc == 0, err


def test_init_writes_nothing_over_a_file(inside: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (inside / ".gitignore").write_text("mine\n")
    rc, _, err = run(capsys, "init", "--extends", "OCS")
    assert rc == 1 and ".gitignore" in err and "nothing was written" in err
    assert not (inside / "rulec.toml").exists() and (inside / ".gitignore").read_text() == "mine\n"
    rc, _, err = run(capsys, "init", "--extends", "OSC")
    assert rc == 2 and "did you mean 'OCS'" in err


def test_mistakes_in_rulec_toml_are_located(inside: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (inside / "rules").mkdir()
    (inside / "rules" / "s.rules").write_text(SIBLING)
    (inside / "rulec.toml").write_text('rule = ["rules"]\nseries = ["OSC"]\nrules = ["rules", "nowhere", "./rules"]\n'
                                       '[cards]\nprint = "yes"\n')
    rc, out, err = run(capsys, "check")
    assert rc == 1
    name = f"{inside.name}/rulec.toml"
    assert f"{name}:1:1: error R119: unknown key 'rule' in {name}" in err and "did you mean 'rules'?" in err
    assert f"{name}:2:11: error R119: no installed series 'OSC'" in err and "did you mean 'OCS'?" in err
    assert f"{name}:3:19: error R119: no such file or folder: nowhere" in err
    assert f"{name}:3:30: error R119: the rules folder rules is given twice" in err
    assert f"{name}:5:1: error R119: 'cards.print' must be true or false" in err
    assert "5 errors" in err
    (inside / "rulec.toml").write_text("rules = [\n")
    rc, out, err = run(capsys, "build")
    assert rc == 1 and f"{name}:2:1: error R119: {name} is not valid TOML" in err
    assert not (inside / "generated").exists()


def test_several_rules_folders_on_the_command_line(inside: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for sub in ("a/rules", "b/rules"):
        (inside / sub).mkdir(parents=True)
    (inside / "a/rules/s.rules").write_text(SIBLING)
    (inside / "b/rules/g.rules").write_text('game G "G" extends SIB "2" version "1"\n')
    rc, out, err = run(capsys, "build", "--rules", "a/rules", "--rules", "b/rules", "--no-print", "--no-cache")
    assert rc == 0, err
    assert "for G, SIB" in out
    # the two folders share a name, so their files are named from the project's folder down
    assert "a/rules/s.rules" in (inside / "generated" / "python" / "sib.py").read_text()
    assert run(capsys, "test", "--rules", "a/rules", "--rules", "nowhere") == \
        (2, "", "rulec: no such file or folder: nowhere\n")
    assert run(capsys, "check", "--rules", "a/rules", "--rules", "a/rules")[0] == 2
    (inside / "b/rules/g.rules").write_text('game G "G" extends SIB "3" version "1"\n')
    rc, _, err = run(capsys, "check", "a/rules", "--rules", "b/rules")
    assert rc == 1 and "error R118: G is written for SIB version '3', but the SIB found is version '2'" in err


def test_this_repository_is_a_project() -> None:
    p = project.load(ROOT / "rules" / "ocs")
    assert p.file == ROOT / "rulec.toml" and not p.diagnostics
    assert [r.path for r in p.roots] == [ROOT / "rules"] and p.out == ROOT / "generated"


def test_the_language_server_reads_the_project(tmp_path: Path) -> None:
    """A game's file opened in an editor is compiled with the series its rulec.toml names (here the
    installed OCS), not alone: no 'extends unknown layer OCS', and a mistake is still found."""
    pytest.importorskip("pygls")
    from tests.lsp_client import Server

    (tmp_path / "rules" / "g").mkdir(parents=True)
    (tmp_path / "rulec.toml").write_text('rules = ["rules"]\nseries = ["OCS"]\n', encoding="utf-8")
    text = 'game G "G" extends OCS "4.3" version "1"\n\noverride 4.5a D: not negatable\n'
    (tmp_path / "rules" / "g" / "g.rules").write_text(text, encoding="utf-8")
    server = Server(tmp_path)
    server.uri = (tmp_path / "rules" / "g" / "g.rules").as_uri()
    try:
        server.initialize()
        server.open(text)
        published = [m["params"] for m in server.messages if m.get("method") == "textDocument/publishDiagnostics"
                     and m["params"]["uri"] == server.uri]
        assert published[-1]["diagnostics"] == []
        server.notify("textDocument/didChange", {"textDocument": {"uri": server.uri, "version": 2},
                                                 "contentChanges": [{"text": text.replace("4.5a D", "4.5z D")}]})
        for _ in range(40):
            found = [m["params"]["diagnostics"] for m in server.published(0.5) if m["params"]["uri"] == server.uri]
            if found and found[-1]:
                break
        assert [d["code"] for d in found[-1]] == ["R105"]
    finally:
        server.close()


def test_init_over_a_series_without_a_template(inside: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ZCS ships no init.template: the game gets a clause of its own, and it builds and tests at once."""
    rc, _, err = run(capsys, "init", "--extends", "ZCS", "--name", "MYZOC")
    assert rc == 0, err
    text = (inside / "rules" / "myzoc" / "myzoc.rules").read_text()
    assert 'game MYZOC "Myzoc" extends ZCS' in text and "override" not in text and "$" not in text
    assert run(capsys, "build", "--no-print")[0] == 0
    rc, out, err = run(capsys, "test")
    assert rc == 0 and ", 0 failed" in out, err


def test_csv_files_open_with_a_byte_order_mark_for_excel_when_asked(inside: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    (inside / "rules").mkdir()
    (inside / "rules" / "s.rules").write_text((ROOT / "tests/golden/game-overrides/rules/series.rules").read_text())
    assert run(capsys, "build", "--no-print", "--no-cache")[0] == 0
    table = inside / "generated" / "cards" / "gos" / "2.3-re_size.csv"
    plain = table.read_bytes()
    assert plain.startswith(b"rule,key,title,value,numerator,denominator")
    assert run(capsys, "build", "--no-print", "--no-cache", "--csv-bom")[0] == 0
    assert table.read_bytes() == b"\xef\xbb\xbf" + plain
    assert all(p.read_bytes().startswith(b"\xef\xbb\xbf") for p in (inside / "generated").rglob("*.csv"))
    assert not (inside / "generated" / "ir" / "gos.json").read_bytes().startswith(b"\xef\xbb\xbf")
    # the project says so for every build, and --check compares with it
    (inside / "rulec.toml").write_text("[cards]\ncsv_bom = true\nprint = false\n")
    assert run(capsys, "build", "--check", "--no-cache")[0] == 0
    (inside / "rulec.toml").write_text("[cards]\ncsv_bom = false\nprint = false\n")
    assert run(capsys, "build", "--check", "--no-cache")[0] == 1
    (inside / "rulec.toml").write_text("[cards]\ncsv_bom = 1\n")
    rc, _, err = run(capsys, "build", "--no-cache")
    assert rc == 1 and "'cards.csv_bom' must be true or false" in err
