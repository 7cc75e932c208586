"""The rulec command: exit codes (0 clean, 1 mistakes or stale output, 2 usage), what
`build` writes, `build --check`, a failed build that leaves the output alone, and never
a traceback."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ROOT, RULES, files_of

from rulec import build, cli, ir
from rulec.build import compile_sources, find_sources

GOOD = '''series OCS "Operational Combat Series" version "4.3"

enum Mode "Mode" {
  - combat "Combat"
  - move "Move"
}

record Unit "A ground unit" {
  mode: Mode = combat "The mode it is in"
  out_of_supply: bool = false "Marked Out of Supply"
}

rule 4.5 "Zone of Control" {
  text "Attack-Capable units in Combat Mode have a Zone of Control (ZOC) unless currently marked Out of Supply."
  define has_zoc(u: Unit) -> bool "Has a Zone of Control" = u.mode == combat and not u.out_of_supply
  example "Combat Mode and in supply: a ZOC" {
    expect has_zoc(Unit { mode: combat })
    expect not has_zoc(Unit { mode: move })
  }
}
'''

# One file, three different mistakes: an unknown name, a fraction where a Mode is expected,
# and a rule number declared twice.
THREE_MISTAKES = '''series OCS "Operational Combat Series"

enum Mode "Mode" {
  - combat "Combat"
  - move "Move"
}

record Unit "A ground unit" {
  mode: Mode = combat "The mode it is in"
  out_of_supply: bool = false "Marked Out of Supply"
}

rule 4.5 "Zone of Control" {
  define has_zoc(u: Unit) -> bool "Has a Zone of Control" = u.mode == combat and not out_of_suply
}

rule 4.5 "Negating ZOC" {
  example "A unit in a fractional mode" {
    expect not has_zoc(Unit { mode: 1/2 })
  }
}
'''

HEAD = re.compile(r"^(\S+):(\d+):(\d+): (error|warning) (R\d{3}): ", re.MULTILINE)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """rulec's main; usage errors (argparse) exit through SystemExit, as from the shell."""
    try:
        rc = cli.main(list(argv))
    except SystemExit as e:
        rc = e.code if isinstance(e.code, int) else 1
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out, err


def rules_dir(root: Path, text: str = GOOD, name: str = "rules") -> Path:
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ocs.rules").write_text(text, encoding="utf-8")
    return folder


@pytest.fixture(autouse=True)
def no_printing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Builds here do not start a browser to print cards (that is tested with the cards)."""
    monkeypatch.setenv("RULEC_CHROMIUM", "no-such-chromium-for-rulec-tests")


# ---- check -------------------------------------------------------------------------------------


def test_check_clean_rules_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run(capsys, "check", str(rules_dir(tmp_path)))
    assert (rc, out, err) == (0, "ok: 1 file, rulesets OCS\n", "")


def test_check_the_shipped_rules_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run(capsys, "check", str(RULES))
    assert rc == 0 and err == ""
    assert out.startswith("ok: ") and "DAK" in out and "OCS" in out


def test_check_defaults_to_rules_in_the_working_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    rules_dir(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "check")[:2] == (0, "ok: 1 file, rulesets OCS\n")


def test_one_file_with_three_mistakes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "zoc.rules"
    path.write_text(THREE_MISTAKES, encoding="utf-8")
    rc, out, err = run(capsys, "check", str(path))
    assert rc == 1 and out == ""
    heads = HEAD.findall(err)
    assert [(int(line), int(col), sev, code) for _, line, col, sev, code in heads] == [
        (14, 86, "error", "R101"),  # unknown name 'out_of_suply'
        (17, 1, "error", "R103"),   # rule 4.5 declared twice
        (19, 37, "error", "R201"),  # 1/2 where a Mode is expected
    ]
    assert {f for f, *_ in heads} == {path.as_posix()}
    assert "unknown name 'out_of_suply'" in err
    assert "rule number 4.5 is declared twice" in err
    assert "field 'mode' must be a Mode, but this is a number" in err
    assert err.endswith("\n\n3 errors, 0 warnings in 1 file\n")
    # each is shown with its line and a caret under the mistake
    assert "   19 |     expect not has_zoc(Unit { mode: 1/2 })\n" + " " * 44 + "^^^\n" in err


def test_mistakes_in_several_files_are_all_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = rules_dir(tmp_path)
    (folder / "dak.rules").write_text('game DAK "DAK" extends OSC\n\nin OCS\nconst x = 1 +\n', encoding="utf-8")
    (folder / "more.rules").write_text('in OCS\nrule 4.6 {\n  see 4.7\n}\n', encoding="utf-8")
    rc, out, err = run(capsys, "check", str(folder))
    assert rc == 1
    # the files that parse are checked all the same: more.rules' unknown rule is reported beside the
    # syntax error (the unknown layer OSC is not: it is in the file that does not parse)
    assert [(f, c) for f, *_, c in HEAD.findall(err)] == [("rules/dak.rules", "R003"), ("rules/more.rules", "R102")]
    (folder / "dak.rules").write_text('game DAK "DAK" extends OSC\n', encoding="utf-8")
    rc, out, err = run(capsys, "check", str(folder))
    assert rc == 1
    assert [(f, c) for f, *_, c in HEAD.findall(err)] == [("rules/dak.rules", "R107"), ("rules/more.rules", "R102")]
    assert err.endswith("2 errors, 0 warnings in 3 files\n")


def test_what_follows_from_a_file_that_does_not_parse_is_left_out(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    folder = rules_dir(tmp_path)
    (folder / "broken.rules").write_text('in OCS\nrule 4.9z "X" {\n  define twice(x: int) int = x * 2\n}\n',
                                         encoding="utf-8")
    (folder / "uses.rules").write_text('in OCS\nrule 4.9y "Y" {\n  define four() -> int = twice(2)\n'
                                       '  define five() -> int = thrice(2)\n}\n', encoding="utf-8")
    rc, out, err = run(capsys, "check", str(folder))
    assert rc == 1
    # twice is declared in the file that does not parse: not reported; thrice is declared nowhere
    assert [(f, c) for f, *_, c in HEAD.findall(err)] == [("rules/broken.rules", "R001"), ("rules/uses.rules", "R101")]
    assert "'thrice'" in err and "'twice'" not in err


def test_a_layer_declared_in_a_file_that_does_not_parse_is_not_unknown(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "a.rules").write_text('series S "S" version "1"\n\nenum Mode "M" {\n  - a\n  - b\n\n'
                                    'const k "K" = 1\n', encoding="utf-8")
    (folder / "b.rules").write_text('game G "G"\n  extends S "1"\n', encoding="utf-8")
    (folder / "c.rules").write_text('game H "H extends S"\n  extends T\n', encoding="utf-8")
    (folder / "d.rules").write_text('option O "O" extends S\n', encoding="utf-8")
    rc, out, err = run(capsys, "check", str(folder))
    assert rc == 1
    # S is declared in a.rules, which does not parse: G and O extend no unknown layer; T is declared nowhere
    assert [(f, c) for f, *_, c in HEAD.findall(err)] == [("rules/a.rules", "R001"), ("rules/c.rules", "R107")]
    assert "H extends unknown layer 'T'" in err


def test_a_ruleset_without_mistakes_runs_its_examples_beside_one_with(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    folder = rules_dir(tmp_path)
    (folder / "dak.rules").write_text('game DAK "DAK" extends OCS\noverride 4.5z F: not negatable\n',
                                      encoding="utf-8")
    (folder / "wrong.rules").write_text('in OCS\nrule 4.9z "X" {\n  define two() -> int = 2\n'
                                        '  example { expect two() == 3 }\n}\n', encoding="utf-8")
    rc, out, err = run(capsys, "check", str(folder))
    assert rc == 1
    # DAK's mistake does not stop OCS (which DAK does not change) from running its examples
    assert [(f, c) for f, *_, c in HEAD.findall(err)] == [("rules/dak.rules", "R105"), ("rules/wrong.rules", "R401")]


def test_a_warning_alone_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    case = ROOT / "tests" / "fixtures" / "diagnostics" / "R304-condition-not-decided"
    rc, out, err = run(capsys, "check", str(case))
    assert rc == 0 and out.startswith("ok: ")
    assert "warning R304" in err and err.endswith("0 errors, 1 warning in 1 file\n")


def test_strict_makes_a_warning_fail_the_check(capsys: pytest.CaptureFixture[str]) -> None:
    case = ROOT / "tests" / "fixtures" / "diagnostics" / "R304-condition-not-decided"
    rc, out, err = run(capsys, "check", "--strict", str(case))
    assert rc == 1 and out == ""
    assert "warning R304" in err and err.endswith("rulec: 1 warning, and --strict was asked\n")
    rc, out, err = run(capsys, "check", "--strict", str(ROOT / "rules"))
    assert rc == 0 and out.startswith("ok: ")  # the shipped rules give no warning


# ---- usage errors: exit 2 --------------------------------------------------------------------


@pytest.mark.parametrize("argv, message", [
    (["check", "--bogus"], "rulec: unrecognized arguments: --bogus"),
    (["build", "--outt", "x"], "rulec: unrecognized arguments: --outt x"),
    (["bogus"], "rulec: argument COMMAND: invalid choice: 'bogus'"),
    ([], "rulec: the following arguments are required: COMMAND"),
])
def test_unknown_options_and_commands_exit_2(argv: list[str], message: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run(capsys, *argv)
    assert rc == 2
    assert message in err
    assert err.startswith("usage: rulec")


def test_a_missing_path_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope"
    assert run(capsys, "check", str(missing)) == (2, "", f"rulec: no such file or folder: {missing}\n")
    out_dir = tmp_path / "out"
    rc, out, err = run(capsys, "build", "--rules", str(missing), "--out", str(out_dir))
    assert (rc, err) == (2, f"rulec: no such file or folder: {missing}\n")
    assert not out_dir.exists()


def test_a_folder_without_rules_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "check", str(tmp_path)) == (2, "", f"rulec: no .rules files in {tmp_path}\n")


# ---- build ---------------------------------------------------------------------------------------


def test_build_writes_the_ir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules, out_dir = rules_dir(tmp_path), tmp_path / "generated"
    rc, out, err = run(capsys, "build", "--rules", str(rules), "--out", str(out_dir))
    assert rc == 0, err
    assert re.fullmatch(rf"built (\d+) files into {re.escape(str(out_dir))}/ for OCS \(\1 changed\)\n", out)
    written = json.loads((out_dir / "ir" / "ocs.json").read_text(encoding="utf-8"))
    assert ir.validation_errors(written) == []
    assert written["manifest"]["ruleset"] == "OCS"
    assert [d["name"] for d in written["defines"]] == ["has_zoc"]
    # byte for byte what the compiler produces for these rules
    sources, _ = find_sources([rules])
    assert (out_dir / "ir" / "ocs.json").read_text(encoding="utf-8") == \
        ir.dumps(ir.of(compile_sources(sources).models["OCS"]))
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary folder left


def test_build_replaces_stale_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules, out_dir = rules_dir(tmp_path), tmp_path / "generated"
    (out_dir / "ir").mkdir(parents=True)
    (out_dir / "ir" / "old.json").write_text("{}\n", encoding="utf-8")
    assert run(capsys, "build", "--rules", str(rules), "--out", str(out_dir))[0] == 0
    assert not (out_dir / "ir" / "old.json").exists()
    assert (out_dir / "ir" / "ocs.json").is_file()


def test_build_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules, out_dir = rules_dir(tmp_path), tmp_path / "generated"
    args = ("build", "--rules", str(rules), "--out", str(out_dir))
    # nothing built yet: every file is missing, and --check writes nothing
    rc, out, err = run(capsys, *args, "--check")
    assert rc == 1
    assert f"{out_dir}/ is not what the rules produce; run 'rulec build':\n" in err
    assert "  missing: ir/ocs.json\n" in err
    assert not out_dir.exists()

    assert run(capsys, *args)[0] == 0
    built = files_of(out_dir)
    rc, out, err = run(capsys, *args, "--check")
    assert rc == 0 and "is not what the rules produce" not in err
    assert re.fullmatch(rf"ok: {re.escape(str(out_dir))}/ is up to date \(\d+ files\)\n", out)

    ocs_json = out_dir / "ir" / "ocs.json"
    ocs_json.write_bytes(built["ir/ocs.json"].replace(b'"Zone of Control"', b'"Zone of Kontrol"'))
    rc, out, err = run(capsys, *args, "--check")
    assert (rc, out) == (1, "")
    assert "  differs: ir/ocs.json\n" in err
    assert ocs_json.read_bytes() != built["ir/ocs.json"]  # --check repairs nothing

    ocs_json.unlink()
    rc, out, err = run(capsys, *args, "--check")
    assert rc == 1 and "  missing: ir/ocs.json\n" in err

    assert run(capsys, *args)[0] == 0
    (out_dir / "ir" / "extra.json").write_text("{}\n", encoding="utf-8")
    rc, out, err = run(capsys, *args, "--check")
    assert rc == 1 and "  not produced by the rules: ir/extra.json\n" in err

    # the rules change: the output is stale
    (out_dir / "ir" / "extra.json").unlink()
    assert run(capsys, *args, "--check")[0] == 0
    (rules / "ocs.rules").write_text(GOOD.replace('version "4.3"', 'version "4.4"'), encoding="utf-8")
    rc, out, err = run(capsys, *args, "--check")
    assert rc == 1 and "  differs: ir/ocs.json\n" in err


def test_a_failed_build_leaves_the_output_untouched(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules, out_dir = rules_dir(tmp_path), tmp_path / "generated"
    args = ("build", "--rules", str(rules), "--out", str(out_dir))
    assert run(capsys, *args)[0] == 0
    before, beside = files_of(out_dir), sorted(p.name for p in tmp_path.iterdir())
    assert "ir/ocs.json" in before

    (rules / "ocs.rules").write_text(THREE_MISTAKES, encoding="utf-8")
    rc, out, err = run(capsys, *args)
    assert (rc, out) == (1, "")
    assert len(HEAD.findall(err)) == 3
    assert err.endswith(f"build failed; {out_dir}/ was left as it was\n")
    assert files_of(out_dir) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == beside

    # a rules mistake that only the analysis finds (a failing example) fails the build as well
    (rules / "ocs.rules").write_text(GOOD.replace("expect not has_zoc(Unit { mode: move })",
                                                  "expect has_zoc(Unit { mode: move })"), encoding="utf-8")
    rc, out, err = run(capsys, *args)
    assert rc == 1 and "error R401" in err
    assert files_of(out_dir) == before


def test_an_internal_error_is_exit_3_without_a_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    rules, out_dir = rules_dir(tmp_path), tmp_path / "generated"
    args = ("build", "--rules", str(rules), "--out", str(out_dir))
    assert run(capsys, *args)[0] == 0
    before = files_of(out_dir)

    def broken(*_: object) -> Iterator[tuple[str, str]]:  # fails after writing a first file
        yield "ir/ocs.json", "{}\n"
        raise KeyError("manifest")

    monkeypatch.setattr(build, "iter_outputs", broken)
    rc, out, err = run(capsys, *args, "--no-cache")  # the same rules again: not a no-op, a real build
    assert rc == 3
    assert err.startswith("rulec: internal error (KeyError: 'manifest'). This is a bug in rulec")
    assert files_of(out_dir) == before


# ---- as a program ----------------------------------------------------------------------------------


def rulec(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "RULEC_CHROMIUM": "no-such-chromium-for-rulec-tests"}
    return subprocess.run([sys.executable, "-m", "rulec", *argv], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def test_exit_codes_of_the_program(tmp_path: Path) -> None:
    rules_dir(tmp_path)
    bad = tmp_path / "bad.rules"
    bad.write_text(THREE_MISTAKES, encoding="utf-8")
    runs = {
        "clean": rulec("check", "rules", cwd=tmp_path),
        "mistakes": rulec("check", "bad.rules", cwd=tmp_path),
        "unknown option": rulec("check", "--bogus", cwd=tmp_path),
        "missing path": rulec("check", "nope", cwd=tmp_path),
        "build": rulec("build", cwd=tmp_path),
        "fresh": rulec("build", "--check", cwd=tmp_path),
    }
    assert {k: r.returncode for k, r in runs.items()} == {
        "clean": 0, "mistakes": 1, "unknown option": 2, "missing path": 2, "build": 0, "fresh": 0}
    for r in runs.values():
        assert "Traceback" not in r.stdout + r.stderr
    assert runs["mistakes"].stderr.startswith("bad.rules:14:86: error R101: unknown name 'out_of_suply'\n")
    assert (tmp_path / "generated" / "ir" / "ocs.json").is_file()


def test_a_reader_that_stops_early_is_not_a_bug_in_rulec() -> None:
    """`rulec eval ... --json | head -1` once ended in 'internal error (BrokenPipeError)'."""
    import subprocess
    import sys

    run = subprocess.run(f"{sys.executable} -m rulec eval --rules {ROOT / 'rules'} OCS "
                         "'re_size(Unit { size: battalion })' --json | head -c 1", shell=True,
                         capture_output=True, text=True, executable="/bin/bash")
    assert run.stdout == "{", run.stderr
    assert "internal error" not in run.stderr and "Traceback" not in run.stderr


def test_the_rulec_process_says_all_it_printed_and_ends_with_the_commands_code(tmp_path: Path) -> None:
    """cli.run ends the process at once when the command is done (os._exit, sparing the interpreter
    the freeing of a build's objects): what the command printed to a pipe is all there first, and
    the process's exit code is the command's."""
    shutil.copytree(ROOT / "rules" / "zoc-classes", tmp_path / "rules")
    # As a designer runs it: standard output a buffered pipe (this machine may set PYTHONUNBUFFERED)
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}, "PYTHONPATH": str(ROOT)}
    ok = subprocess.run([sys.executable, "-m", "rulec", "check", str(tmp_path / "rules")], capture_output=True,
                        text=True, env=env, timeout=300)
    assert ok.returncode == 0 and ok.stdout.startswith("ok: 1 file, rulesets "), ok.stderr
    listed = subprocess.run([sys.executable, "-m", "rulec", "check", "--format", "json", str(tmp_path / "rules")],
                            capture_output=True, text=True, env=env, timeout=300)
    assert listed.returncode == 0 and json.loads(listed.stdout)["diagnostics"] == []
    (tmp_path / "rules" / "zoc.rules").write_text("series X \"X\"\nrule 1 \"A\" {\n  const a = b\n}\n", "utf-8")
    wrong = subprocess.run([sys.executable, "-m", "rulec", "check", str(tmp_path / "rules")], capture_output=True,
                           text=True, env=env, timeout=300)
    assert wrong.returncode == 1 and "R101" in wrong.stderr
