"""Reading rules files: only regular files, only inside the rules folder once links are followed,
never more than the size limit. A link to /proc/self/environ once put the whole environment in a
diagnostic; a pipe named *.rules hung check, build and fmt; a link to /dev/zero ate all memory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulec.build import find_sources
from rulec.cli import main
from rulec.limits import MAX_FILE_BYTES
from rulec.sources import read_rules_file
from rulec.watch import snapshot

GOOD = 'series S "S"\nrule 1.1 "One" {\n  define two() -> int = 2\n  example { expect two() == 2 }\n}\n'


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "s.rules").write_text(GOOD)
    secret = tmp_path / "secret.txt"
    secret.write_text("TOKEN=hunter2\n")
    (rules / "environ.rules").symlink_to("/proc/self/environ")
    (rules / "secret.rules").symlink_to(secret)
    (rules / "zero.rules").symlink_to("/dev/zero")
    os.mkfifo(rules / "pipe.rules")
    (rules / "dir.rules").mkdir()
    return rules


def test_only_regular_files_inside_the_folder_are_read(hostile: Path) -> None:
    sources, diags = find_sources([hostile])
    assert list(sources) == ["rules/s.rules"]
    found = {d.span.file: (d.code, d.message) for d in diags}
    assert found["rules/environ.rules"][0] == "R004" and "outside the rules folder" in found["rules/environ.rules"][1]
    assert found["rules/secret.rules"][0] == "R004"
    assert found["rules/zero.rules"][0] == "R004"
    assert "not a regular file" in found["rules/pipe.rules"][1]
    assert "hunter2" not in repr(diags)


def test_check_and_fmt_say_so_and_show_nothing_of_what_is_behind(hostile: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(hostile)]) == 1
    out, err = capsys.readouterr()
    assert "R004" in err and "hunter2" not in out + err and "PATH=" not in out + err
    assert main(["fmt", "--check", str(hostile)]) == 1
    out, err = capsys.readouterr()
    assert "outside the rules folder" in err and "hunter2" not in out + err and "PATH=" not in out + err


def test_watch_takes_no_pipe_or_device(hostile: Path) -> None:
    assert Path(hostile / "s.rules") in snapshot(hostile, {})  # and returns: the pipe is not opened for reading


def test_a_link_inside_the_folder_is_followed(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    (rules / "real").mkdir(parents=True)
    (rules / "real" / "s.rules").write_text(GOOD)
    (rules / "alias.rules").symlink_to(rules / "real" / "s.rules")
    sources, diags = find_sources([rules])
    assert diags == [] and sorted(sources) == ["rules/alias.rules", "rules/real/s.rules"]


def test_a_file_over_the_limit_is_refused_after_reading_one_byte_more(tmp_path: Path) -> None:
    big = tmp_path / "big.rules"
    big.write_bytes(b"#" * (MAX_FILE_BYTES + 10))
    assert read_rules_file(big) == ("R005", f"it is larger than {MAX_FILE_BYTES:,} bytes; split the rules into "
                                            "several files")
    bad = tmp_path / "bad.rules"
    bad.write_bytes(b"\xff\xfe")
    assert read_rules_file(bad) == ("R004", "it is not UTF-8 text")


def test_csv_cells_a_spreadsheet_would_run_are_quoted(tmp_path: Path) -> None:
    """OWASP's CSV injection advice: a cell starting =, +, -, @, tab or CR gets an apostrophe."""
    from rulec.sheets.export import _csv

    rows = [["4.6", '=HYPERLINK("http://x","y")', 1], ["4.7", "+1", -2], ["4.8", "-1", "+2+3"],
            ["4.8", "@SUM(A1)", "plain"], ["4.9", "\tx", "-x"]]
    text = _csv(["rule", "title", "value"], rows)
    assert text.splitlines() == ["rule,title,value", "4.6,\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",1",
                                 "4.7,+1,-2", "4.8,-1,'+2+3", "4.8,'@SUM(A1),plain", "4.9,'\tx,'-x"]
