"""docs/editors.md, tried: its Neovim setup is run as written in a headless Neovim (the 0.8+ code on 0.8 and
later, the 0.7 code on 0.7), and the server's diagnostic must reach the buffer on the right line and columns,
after four 🎲 on the line. Skipped where there is no nvim, except in CI, which installs Debian's."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "editors.md"
TEXT = ('series S "s" version "1"\n\nrule 1.1 "One" {\n  define a(n: int) -> int = n\n'
        '  define b(t: text) -> bool = t == "🎲🎲🎲🎲" and a(1) == zzz\n}\n')

PROBE = r'''
local out = vim.env.RULEC_PROBE_OUT
local ok = vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 200)
local found = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(found, { lnum = d.lnum, col = d.col, end_col = d.end_col, code = d.code, message = d.message })
end
local f = io.open(out, "w")
f:write(vim.fn.json_encode({ ok = ok, diagnostics = found }))
f:close()
vim.cmd("qa!")
'''


def _nvim() -> tuple[str, tuple[int, int]] | None:
    nvim = shutil.which("nvim")
    if nvim is None:
        return None
    first = subprocess.run([nvim, "--version"], capture_output=True, text=True, check=True).stdout.splitlines()[0]
    m = re.search(r"v(\d+)\.(\d+)", first)
    assert m, first
    return nvim, (int(m[1]), int(m[2]))


def _block(heading: str) -> str:
    """The first ```lua block under a heading of docs/editors.md."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return section.split("```lua\n", 1)[1].split("```", 1)[0]


def test_the_neovim_setup_shows_the_servers_diagnostics(tmp_path: Path) -> None:
    found = _nvim()
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("CI must install Debian's neovim to try docs/editors.md")
        pytest.skip("no nvim here")
    pytest.importorskip("pygls")
    nvim, version = found
    setup = _block("Neovim 0.8 and later" if version >= (0, 8) else "Neovim 0.7")
    (tmp_path / "rules").mkdir()
    (tmp_path / "rulec.toml").write_text('rules = ["rules"]\n', encoding="utf-8")
    (tmp_path / "rules" / "x.rules").write_text(TEXT, encoding="utf-8")
    (tmp_path / "init.lua").write_text(setup, encoding="utf-8")
    (tmp_path / "probe.lua").write_text(PROBE, encoding="utf-8")
    env = {**os.environ, "RULEC_PROBE_OUT": str(tmp_path / "out.json"), "XDG_STATE_HOME": str(tmp_path / "state"),
           "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run([nvim, "--headless", "-n", "-i", "NONE", "-u", str(tmp_path / "init.lua"),
                           "rules/x.rules", "-c", f"luafile {tmp_path / 'probe.lua'}"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert (tmp_path / "out.json").exists(), (done.returncode, done.stdout, done.stderr)
    result = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert result["ok"], result
    [diag] = result["diagnostics"]
    line = TEXT.split("\n")[4]
    # Neovim's columns are bytes of the line: the server's UTF-16 columns were converted back by the client,
    # which lands on `zzz` only if the server counted the 🎲s as two UTF-16 units each
    assert (diag["lnum"], diag["col"]) == (4, len(line[:line.index("zzz")].encode("utf-8"))), diag
    assert diag["end_col"] - diag["col"] == 3 and diag["code"] == "R101", diag
