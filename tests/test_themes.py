"""Card themes (compiler/themes.py): a layer's style, logo and fonts from a folder beside its rules,
inlined into its cards, and never a way to load anything from outside that folder."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulec import printing, themes
from rulec.build import compile_sources, find_assets, find_sources

TTF = b"\x00\x01\x00\x00" + b"\x00" * 60  # the start of a TrueType font: what the theme checks
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 40

SERIES = '''series S "Styled" version "1"
theme "theme"

rule 1.1 "Terrain" {
  text "Every hex has one terrain type."
  define cost(rough: bool) -> int "MP to enter" = if rough then 2 else 1
  example {
    expect cost(true) == 2
  }
}
'''


def load(css: str, extra: dict[str, bytes] | None = None) -> tuple[themes.Theme | None, list[str]]:
    assets = {"rules/s/theme/card.css": css.encode("utf-8"), "rules/s/theme/fonts/Body.ttf": TTF,
              **(extra or {})}
    return themes.load("rules/s/theme", assets)


def test_fonts_and_images_the_css_names_are_inlined_and_the_logo_too() -> None:
    theme, problems = load('@font-face { font-family: B; src: url("fonts/Body.ttf") format("truetype"); }\n'
                           "html { font-family: B; }", {"rules/s/theme/logo.png": PNG})
    assert problems == [] and theme is not None
    assert 'url("data:font/ttf;base64,' in theme.css and "fonts/Body.ttf" not in theme.css
    assert theme.logo is not None and theme.logo.startswith("data:image/png;base64,")


@pytest.mark.parametrize("css, said", [
    ('@import url("https://example.com/x.css");', "@import"),
    ("@IMPORT 'x.css';", "@import"),
    ('body { background: url("https://example.com/a.png"); }', "may only name a file of the theme"),
    ("body { background: url(//example.com/a.png); }", "may only name a file of the theme"),
    ('body { background: url("../../secret.png"); }', "may only name a file of the theme"),
    ('body { background: url("/etc/passwd"); }', "may only name a file of the theme"),
    ('body { background: url("data:image/png;base64,AAAA"); }', "may only name a file of the theme"),
    ('body { background: url("missing.png"); }', "may only name a file of the theme"),
    ("@\\69mport 'x.css';", "backslash"),
    ("body { background: u\\72l(x.png); }", "backslash"),
    ("</style><script>alert(1)</script>", "end the style element"),
    ("body { width: expression(alert(1)); }", "script"),
    ("body { background: image-set('a.png' 1x); }", "load from elsewhere"),
    ('body { background: url( "x.png" ) }', "may only name a file of the theme"),
])
def test_nothing_in_a_theme_reaches_outside_it(css: str, said: str) -> None:
    theme, problems = load(css)
    assert theme is None and any(said in p for p in problems), problems


def test_a_file_that_is_not_what_its_name_says_is_refused() -> None:
    theme, problems = load('@font-face { src: url("fonts/Body.ttf"); }', {"rules/s/theme/fonts/Body.ttf": b"<svg>"})
    assert theme is None and "not the font/ttf its name says" in problems[0]
    _, logo = load("", {"rules/s/theme/logo.png": b"GIF89a"})
    assert "logo.png is not the image/png its name says" in logo[0]
    assert themes.load("rules/s/none", {})[1] == ["the theme folder rules/s/none/ holds no card.css, logo or font"]


def test_a_game_s_theme_replaces_its_series_and_the_folder_is_beside_the_file() -> None:
    game = 'game G "G" extends S "1"\ntheme "../g-theme"\n'
    result = compile_sources({"rules/s/s.rules": SERIES, "rules/g/g.rules": game})
    assert result.ok
    assert result.models["S"].theme is not None and result.models["S"].theme.folder == "rules/s/theme"
    assert result.models["G"].theme is not None and result.models["G"].theme.folder == "rules/g-theme"


def test_check_and_build_report_an_unsafe_theme_at_its_line(tmp_path: Path) -> None:
    rules = tmp_path / "rules" / "s"
    (rules / "theme").mkdir(parents=True)
    (rules / "s.rules").write_text(SERIES, encoding="utf-8")
    (rules / "theme" / "card.css").write_text('@import "https://example.com/x.css";', encoding="utf-8")
    sources, _ = find_sources([tmp_path / "rules"])
    result = compile_sources(sources, assets=find_assets([tmp_path / "rules"]))
    r122 = [d for d in result.diagnostics if d.code == "R122"]
    assert len(r122) == 1 and r122[0].span.line == 2 and not result.ok
    build = subprocess.run([sys.executable, "-m", "rulec", "build", "--no-print", "--rules", str(tmp_path / "rules"),
                            "--out", str(tmp_path / "out"), "--cache", str(tmp_path / "cache")],
                           capture_output=True, text=True, timeout=600)
    assert build.returncode == 1 and "R122" in build.stderr and not (tmp_path / "out").exists()


def test_a_theme_s_files_are_read_only_inside_the_rules_folder(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    (rules / "theme").mkdir(parents=True)
    outside = tmp_path / "secret.css"
    outside.write_text("html { color: red }", encoding="utf-8")
    (rules / "theme" / "card.css").symlink_to(outside)
    (rules / "theme" / "logo.png").write_bytes(PNG)
    assert find_assets([rules]) == {"rules/theme/logo.png": PNG}


def test_a_changed_theme_file_makes_a_new_build() -> None:
    from rulec.manifest import tree_key
    a = tree_key({"x.rules": SERIES}, False, (), {"rules/s/theme/card.css": b"a"})
    b = tree_key({"x.rules": SERIES}, False, (), {"rules/s/theme/card.css": b"b"})
    assert a != b and a == tree_key({"x.rules": SERIES}, False, (), {"rules/s/theme/card.css": b"a"})


@pytest.mark.skipif(printing.find_chromium() is None or shutil.which("pdfinfo") is None,
                    reason="chromium and pdfinfo are not installed (Debian packages 'chromium' and 'poppler-utils')")
def test_a_themed_card_prints_with_its_font_and_logo(tmp_path: Path) -> None:
    font = Path("/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf")
    if not font.exists():
        pytest.skip("Debian's fonts-liberation is not installed")
    rules = tmp_path / "rules" / "s"
    (rules / "theme" / "fonts").mkdir(parents=True)
    # issue #19's test game: two cards (a poker card with bleed, a page), 'says' phrases and a theme
    said = SERIES.replace('"MP to enter" =', '"MP to enter" says "2 in rough, else 1" =')
    (rules / "s.rules").write_text(said + '\ncard terrain "Terrain" size poker {\n  show 1.1\n}\n'
                                   '\ncard rules "All the rules" {\n  show 1.1 text, 1.1\n}\n', encoding="utf-8")
    shutil.copy(font, rules / "theme" / "fonts" / "Body.ttf")
    (rules / "theme" / "logo.png").write_bytes((Path(__file__).parent.parent / "generated" / "cards" / "acw"
                                                / "card-combat.png").read_bytes())
    (rules / "theme" / "card.css").write_text('@font-face { font-family: "Body"; src: url("fonts/Body.ttf"); }\n'
                                              'html { font-family: "Body", monospace; }\n', encoding="utf-8")
    out = tmp_path / "out"
    run = subprocess.run([sys.executable, "-m", "rulec", "build", "--rules", str(tmp_path / "rules"), "--out",
                          str(out), "--cache", str(tmp_path / "cache")], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    for name in ("card-terrain", "card-rules"):
        html = out / "cards" / "s" / f"{name}.html"
        assert "2 in rough, else 1" in html.read_text(encoding="utf-8")  # the designer's phrase, not the rule
        with printing.Browser.launch() as b, b.page(html.as_uri()) as p:
            used = p.evaluate("""(async () => { await document.fonts.ready;
              return {body: [...document.fonts].some(f => f.family.replace(/"/g, '') === 'Body'
                                                          && f.status === 'loaded'),
                      logo: document.querySelector('img.logo').naturalWidth > 0,
                      overflow: """ + printing.OVERFLOWS + """}; })()""")
        assert used == {"body": True, "logo": True, "overflow": False}, name
    for paper, size in (("letter", "(letter)"), ("a4", "(A4)")):  # the page card on both papers
        page = printing.pdf_info(out / "cards" / "s" / f"card-rules.{paper}.pdf")
        assert page["Pages"] == "1" and page["Page size"].endswith(size), page
    poker = printing.pdf_info(out / "cards" / "s" / "card-terrain.pdf")
    w, h = (float(x) / 72 * 25.4 for x in poker["Page size"].split()[0:3:2])
    assert abs(w - 69) < 0.8 and abs(h - 94) < 0.8  # 63 x 88 mm and 3 mm of bleed on each side
    assert "fonts.googleapis" not in html.read_text(encoding="utf-8")
    info = printing.pdf_info(out / "cards" / "s" / "card-terrain.pdf")
    fonts = subprocess.run(["pdffonts", str(out / "cards" / "s" / "card-terrain.pdf")], capture_output=True,
                           text=True).stdout
    assert info["Pages"] == "1" and "LiberationMono" in fonts  # the theme's font, embedded in the print


@pytest.mark.skipif(printing.find_chromium() is None, reason="chromium is not installed")
def test_the_printing_browser_fetches_nothing_from_a_network(tmp_path: Path) -> None:
    """Belt and braces: even a page that names a web address (no card does) fetches nothing."""
    import http.server
    import threading

    asked: list[str] = []

    class Count(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
            asked.append(self.path)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Count)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        page = tmp_path / "page.html"
        port = server.server_address[1]
        page.write_text(f'<img src="http://127.0.0.1:{port}/logo.png"><link rel="stylesheet" '
                        f'href="http://127.0.0.1:{port}/x.css"><p>x</p>', encoding="utf-8")
        with printing.Browser.launch() as b:
            b.pdf(page.as_uri(), "letter")
    finally:
        server.shutdown()
    assert asked == []
