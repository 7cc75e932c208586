"""Hostile text in every slot a rules file has for text: it comes out as text, everywhere.

A ruleset whose titles, notes, texts, list value titles, record field titles, layer titles and
versions all hold hostile strings (Python string terminators and __import__('os'), format and
f-string braces, Jinja2 tags, HTML and JavaScript, Markdown and Hugo front-matter breakers, path
traversal, bidi marks and combining characters) is built with `rulec build --out` into a temporary
folder.  Then: the Python modules import with no side effect and return each text verbatim; the
cards, opened in headless Chromium, show it as text and run no script; every Markdown page's front
matter parses and holds the title verbatim; nothing is written outside the output folder.  Names
(identifiers, ruleset names) cannot carry any of it: the grammar refuses them.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulec import cli, printing
from rulec.build import compile_sources, find_sources, outputs
from rulec.writing import write_atomic
from tests.test_sheets import front_matter

HOSTILE = [
    "'); __import__('os').system('touch PWNED'); ('",
    '"""; __import__("os").system("touch PWNED"); """',
    "\\'; print('PWNED') # \\",
    "{__import__('os').system('touch PWNED')} {0} {x!r} %s %(x)s",
    "{{ 7*7 }}{% raw %}{% endraw %}{# c #}{{ self.__init__.__globals__ }}",
    "<script>window.PWNED=1;document.title='PWNED'</script>",
    "<img src=x onerror=\"window.PWNED=1\">\" onmouseover=\"window.PWNED=1\" x='",
    "</style></title></textarea><svg onload=window.PWNED=1>",
    "[click](javascript:window.PWNED=1) <a href=\"javascript:window.PWNED=1\">a</a>",
    "a\n---\ntitle: \"PWNED\"\ndraft: true\n---\n+++\n{{< PWNED >}}",
    "../../PWNED/../../etc/passwd ..\\..\\PWNED",
    "\u202e\u200fRTL\u0301 e\u0301 \u2066isolate\u2069",
    "# heading\n* item\n| a | b |\n`code` **bold** _i_ <!-- x -->",
]
ALL = " | ".join(HOSTILE)


def quoted(text: str) -> str:
    """The text as a rules-language string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def rules(text: str) -> str:
    """A ruleset with the text in every text slot."""
    t = quoted(text)
    return f'''series S {t} version {t}

external 9.1 {t} at "../9-0-more/#91-more"

enum Kind {t} {{
  has big: bool = false {t}
  - plain {t}
  - large {t} big
}}

record Thing {t} {{
  kind: Kind = plain {t}
  size: number = 1/2 {t}
}}

record Hex {t} {{
  things: list of Thing = [] {t}
  off: bool = false {t}
}}

rule 1.0 {t} text-only {{
  text {t}
}}

rule 1.1 {t} {{
  text {t}
  note design {t}
  note play {t}
  see 9.1
  define f(t: Thing) -> bool {t} = t.kind.big
  const cap {t} = 2
  table g(t: Thing) -> number {t} {{
    half: when t.kind == plain => t.size + 1/4 {t}
    other: otherwise => 3 {t}
  }}
  example {t} {{
    expect f(Thing {{ kind: large }})
    expect g(Thing {{}}) == 3/4
  }}
}}

rule 1.2 {t} {{
  text {t}
  limits stacking(h: Hex) {t} {{
    unless h.off {t}
    many {t}: count(x for x in h.things where x.kind == large) at most cap
  }}
  example {t} {{
    expect len(stacking(Hex {{ things: [Thing {{ kind: large }}] }})) == 0
  }}
}}

game G {t} extends S version {t}

override 1.1 f: t.kind == plain or t.kind.big
  note game {t}

ruleset GX {t} = G
'''


@pytest.fixture(scope="module", params=["all"] + [str(i) for i in range(len(HOSTILE))])
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path, Path]:
    """(text, the folder holding rules/ and out/, out/) after `rulec build --no-print`."""
    text = ALL if request.param == "all" else HOSTILE[int(request.param)]
    root = tmp_path_factory.mktemp("hostile")
    (root / "rules").mkdir()
    (root / "rules" / "s.rules").write_text(rules(text), encoding="utf-8")
    (root / "cwd").mkdir()
    before = sorted(str(p) for p in root.rglob("*"))
    env = {**os.environ, "RULEC_CHROMIUM": "no-such-chromium-for-rulec-tests"}
    run = subprocess.run([sys.executable, "-m", "rulec", "build", "--no-print", "--rules", str(root / "rules"),
                          "--out", str(root / "out"), "--cache", str(root / "cache")], cwd=root / "cwd", env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    # Outside the output folder a build writes only its cache, in files named by hashes (or fixed names).
    cache = root / "cache"
    named = (r"[a-z]+-[0-9a-f]{16,64}\.json|parse/[0-9a-f]{64}\.(pickle|latest)|units/[0-9a-f]{64}\.pickle"
             r"|memo/(analyses|modules|values|examples|renders|views)\.pickle")
    kept = [p.relative_to(cache).as_posix() for p in cache.rglob("*") if p.is_file()]
    assert kept and all(re.fullmatch(named, p) for p in kept), kept
    after = sorted(str(p) for p in root.rglob("*")
                   if not p.is_relative_to(root / "out") and not p.is_relative_to(cache))
    assert after == before, "a file was written outside the output folder"
    return text, root, root / "out"


PROBE = r'''
import contextlib, importlib, io, json, os, sys
sys.path.insert(0, sys.argv[1])
printed = io.StringIO()
with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
    mods = {n: importlib.import_module(n) for n in ("s", "g", "gx")}
out = {"printed": printed.getvalue(), "files": sorted(os.listdir("."))}
for n, m in mods.items():
    big = m.Thing(kind="large")
    out[n] = {
        "TITLE": m.TITLE, "SERIES_VERSION": m.SERIES_VERSION, "GAME_VERSION": m.GAME_VERSION,
        "Kind_titles": m.Kind_titles,
        "f": [c.title for c in m.explain_f(big).rules] + [c.note for c in m.explain_f(big).rules],
        "g": [c.title for c in m.explain_g(m.Thing()).rules],
        "stacking": [v.title for v in m.stacking(m.Hex(things=(big, big, big)))],
    }
print(json.dumps(out))
'''


def test_python_imports_without_side_effect_and_keeps_text_verbatim(built: tuple[str, Path, Path]) -> None:
    text, root, out = built
    empty = root / "empty"
    empty.mkdir(exist_ok=True)
    run = subprocess.run([sys.executable, "-c", PROBE, str(out / "python")], cwd=empty, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    assert got["printed"] == "" and got["files"] == []
    assert not list(root.rglob("PWNED"))
    for name in ("s", "g", "gx"):
        m = got[name]
        assert m["SERIES_VERSION"] == text
        assert m["Kind_titles"] == {"plain": text, "large": text}
        assert text in m["f"] and text in m["g"] and m["stacking"] == [text]
    assert got["s"]["TITLE"] == got["g"]["TITLE"] == got["gx"]["TITLE"] == text
    assert got["g"]["GAME_VERSION"] == text
    assert text in got["g"]["f"]  # the game's note on its override


def test_markdown_front_matter_stays_valid_and_holds_the_title(built: tuple[str, Path, Path]) -> None:
    text, _, out = built
    pages = sorted(out.glob("sheets/**/*.md"))
    assert pages
    for page in pages:
        body = page.read_text(encoding="utf-8")
        head = front_matter(body)
        assert set(head) >= {"title"}, page
        assert all("\n" not in k for k in head)
    index = front_matter((out / "sheets" / "g" / "_index.md").read_text(encoding="utf-8"))
    assert index["title"].startswith(text + " (G ")
    chapters = [front_matter(p.read_text(encoding="utf-8")) for p in sorted(out.glob("sheets/s/1-0-*.md"))]
    assert [c["title"] for c in chapters] in ([f"1.0 {text}"], [f"1.0 {' '.join(text.split())}"])


def test_output_paths_are_plain(built: tuple[str, Path, Path]) -> None:
    _, _, out = built
    for p in out.rglob("*"):
        rel = p.relative_to(out).as_posix()
        assert re.fullmatch(r"[a-z]+(\.md)?(/[a-z0-9_.-]+)*", rel), rel  # (traceability.md at the top)
        assert ".." not in rel.split("/")


READ = """(() => ({
  pwned: window.PWNED === undefined ? null : String(window.PWNED),
  title: document.title,
  scripts: document.querySelectorAll('script').length,
  handlers: [...document.querySelectorAll('*')].filter(e =>
    [...e.attributes].some(a => a.name.startsWith('on'))).length,
  jsLinks: [...document.querySelectorAll('[href],[src]')].filter(e =>
    /^\\s*javascript:/i.test(e.getAttribute('href') || e.getAttribute('src') || '')).length,
  text: document.body.innerText,
}))()"""


@pytest.fixture(scope="module")
def browser() -> Iterator[printing.Browser]:
    if printing.find_chromium() is None:
        pytest.skip("chromium is not installed (.ci/run installs it)")
    with printing.Browser.launch() as b:
        yield b


def test_cards_show_the_text_and_run_no_script(built: tuple[str, Path, Path], browser: printing.Browser) -> None:
    text, _, out = built
    cards = sorted(out.glob("cards/*/card-*.html"))
    assert cards
    seen = False
    for card in cards:
        with browser.page(card.as_uri()) as page:
            got = page.evaluate(READ)
        assert (got["pwned"], got["scripts"], got["handlers"], got["jsLinks"]) == (None, 0, 0, 0), card
        assert got["title"] != "PWNED"  # what the hostile scripts would set
        shown = " ".join(got["text"].split())
        seen = seen or " ".join(text.split()) in shown
    assert seen, "the hostile text is on no card"


# ---- names and file names --------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["../../x", "..", "a/b", "x.y", "_x", "1x", "x\u202e", "é", "x y",
                                  "__import__('os')", "{{x}}", "<b>"])
@pytest.mark.parametrize("slot", ["series {} \"t\"", "series S \"t\"\nruleset {} \"t\" = S",
                                  "series S \"t\"\ngame {} \"t\" extends S",
                                  "series S \"t\"\nrule 1.1 \"t\" {{ define {}(x: number) -> number = x }}",
                                  "series S \"t\"\nenum E \"t\" {{ - {} \"t\" }}"])
def test_names_cannot_carry_a_path_or_code(slot: str, name: str) -> None:
    result = compile_sources({"t.rules": slot.format(name)})
    assert not result.ok
    assert {d.code for d in result.diagnostics} <= {"R001", "R002", "R003"}


@pytest.mark.parametrize("name", ["Fractions", "typing", "Random", "class", "match"])
def test_a_ruleset_cannot_hide_a_python_module(name: str) -> None:
    result = compile_sources({"t.rules": f'series {name} "t"\n'})
    assert [d.code for d in result.diagnostics] == ["R111"]
    assert "hides Python's own module" in result.diagnostics[0].message


ODD_FILE_NAMES = ["x\nimport os.rules", "x\rimport os.rules", "\u202etxt.rules", "$(touch PWNED).rules",
                  "-rf .rules", "<script>.rules", "{{x}}.rules", "\x1b[31mred.rules", "..rules", '"""x.rules']


def test_odd_file_names_stay_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "rules"
    folder.mkdir()
    for i, name in enumerate(ODD_FILE_NAMES):
        (folder / name).write_text(f'{"series S" if i == 0 else "in S"} "t"\n'.replace('in S "t"', "in S")
                                   + f'rule 1.{i + 1} "t" {{ define f{i}(x: number) -> number = x }}\n',
                                   encoding="utf-8")
    sources, errors = find_sources([folder])
    assert not errors and len(sources) == len(ODD_FILE_NAMES)
    assert all(name.isprintable() for name in sources)
    rc = cli.main(["build", "--no-print", "--rules", str(folder), "--out", str(tmp_path / "out")])
    assert rc == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "rules"]
    module = (tmp_path / "out" / "python" / "s.py").read_text(encoding="utf-8")
    compile(module, "s.py", "exec")
    assert "\nimport os" not in module and "\rimport" not in module and "\x1b" not in module
    # a mistake in such a file is reported under the escaped name, on one line
    (folder / ODD_FILE_NAMES[1]).write_text("in S\nconst x = 1 +\n", encoding="utf-8")
    assert cli.main(["check", str(folder)]) == 1
    err = capsys.readouterr().err
    assert "rules/x\\rimport os.rules:2:" in err and "\r" not in err and "\x1b" not in err


def test_write_atomic_refuses_paths_outside_the_output(tmp_path: Path) -> None:
    out = tmp_path / "out"
    for bad in ["../x", "a/../../x", "/etc/x"]:
        with pytest.raises(RuntimeError, match="outside the output folder"):
            write_atomic({"ok.txt": "ok", bad: "x"}, out)
        assert sorted(p.name for p in tmp_path.iterdir()) == [], bad


def test_every_output_path_of_the_hostile_build_is_plain() -> None:
    result = compile_sources({"s.rules": rules(ALL)})
    assert result.ok, [d.render(result.sources) for d in result.diagnostics]
    files: dict[str, Any] = outputs(result)
    assert all(re.fullmatch(r"[a-z]+(\.md)?(/[a-z0-9_.-]+)*", rel) for rel in files)
