"""Card themes: the designer's own style, logo and fonts for a layer's player aid cards, kept in a
folder beside the rules (`theme "theme"` in the layer), made safe to print.

A theme folder may hold:

* `card.css`: CSS added after the cards' own; it may use the theme's fonts and images by a
  relative url() (`src: url("fonts/Body.woff2")`), which are inlined as data: URIs;
* `logo.png` or `logo.jpg`: shown in the card's header.

Nothing in a theme can reach outside it: no @import, no url() but to a file of the theme, no
backslash escapes (which could spell either), nothing that ends the style element, no script.
A theme that breaks one of these is refused with R122, at the `theme` line; the card keeps its
own style. The files are read with the rules (sources.find_assets), so a theme is part of what a
build's cache key and `rulec build --check` cover.
"""

from __future__ import annotations

import base64
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass

ASSET_SUFFIXES = (".css", ".png", ".jpg", ".jpeg", ".woff2", ".woff", ".ttf", ".otf")
MAX_ASSET = 2_000_000  # bytes: a font or a logo; larger files are not read
MEDIA = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".woff2": "font/woff2",
         ".woff": "font/woff", ".ttf": "font/ttf", ".otf": "font/otf"}
MAGIC = {".png": (b"\x89PNG\r\n\x1a\n",), ".jpg": (b"\xff\xd8\xff",), ".jpeg": (b"\xff\xd8\xff",),
         ".woff2": (b"wOF2",), ".woff": (b"wOFF",), ".ttf": (b"\x00\x01\x00\x00", b"true"), ".otf": (b"OTTO",)}
_URL = re.compile(r"url\(\s*(?:\"([^\"]*)\"|'([^']*)'|([^)\s]*))\s*\)", re.IGNORECASE)
_FORBIDDEN = [
    (re.compile(r"@import", re.IGNORECASE), "@import, which loads another style sheet"),
    (re.compile(r"\\"), "a backslash escape, which could spell @import or url( in disguise"),
    (re.compile(r"<\s*/|<!--|-->", re.IGNORECASE), "'</', '<!--' or '-->', which could end the style element"),
    (re.compile(r"expression\s*\(|javascript:|behavior\s*:|-moz-binding", re.IGNORECASE), "script"),
    (re.compile(r"image-set\s*\(|@namespace|@document", re.IGNORECASE), "a rule that could load from elsewhere"),
]


@dataclass(frozen=True)
class Theme:
    folder: str  # the assets' name of the folder, e.g. rules/dak/theme
    css: str  # safe to put in a style element: fonts and images inlined
    logo: str | None  # a data: URI of a PNG or JPEG


def folder_of(declared_in: str, path: str) -> str:
    """The assets' name of a theme folder written `theme "path"` in the rules file declared_in."""
    return posixpath.normpath(posixpath.join(posixpath.dirname(declared_in), path))


def load(folder: str, assets: Mapping[str, bytes]) -> tuple[Theme | None, list[str]]:
    """The theme in folder (an assets' name), or None and what is wrong with it."""
    inside = {name[len(folder) + 1:]: data for name, data in assets.items() if name.startswith(folder + "/")}
    if not inside:
        return None, [f"the theme folder {folder}/ holds no card.css, logo or font"]
    problems: list[str] = []
    css = ""
    if "card.css" in inside:
        try:
            css = inside["card.css"].decode("utf-8")
        except UnicodeDecodeError:
            problems.append("card.css is not UTF-8 text")
        css, found = _safe_css(css, inside)
        problems += found
    logo = None
    for name in ("logo.png", "logo.jpg", "logo.jpeg"):
        if name in inside:
            logo, found_logo = _data_uri(name, inside[name])
            problems += found_logo
            break
    if problems:
        return None, problems
    return Theme(folder, css, logo), []


def _safe_css(css: str, files: Mapping[str, bytes]) -> tuple[str, list[str]]:
    problems = [f"card.css holds {why}" for pattern, why in _FORBIDDEN if pattern.search(css)]
    if problems:
        return "", problems

    def inline(m: re.Match[str]) -> str:
        target = next(g for g in m.groups() if g is not None)
        clean = posixpath.normpath(target) if target else ""
        if (not target or ":" in target or target.startswith(("/", "#")) or clean.startswith("..")
                or clean not in files):
            problems.append(f"card.css has url({target!r}): a url() may only name a file of the theme folder")
            return "none"
        uri, found = _data_uri(clean, files[clean])
        problems.extend(found)
        return f'url("{uri}")' if uri else "none"

    out = _URL.sub(inline, css)
    if re.search(r"url\s*\(", _URL.sub("", css), re.IGNORECASE):
        problems.append("card.css has a url( that is not url(\"file\"), url('file') or url(file)")
    return out, problems


def _data_uri(name: str, data: bytes) -> tuple[str | None, list[str]]:
    suffix = posixpath.splitext(name)[1].lower()
    if suffix not in MEDIA:
        return None, [f"{name} is not a font (.woff2, .woff, .ttf, .otf) or an image (.png, .jpg)"]
    if not data.startswith(MAGIC[suffix]):
        return None, [f"{name} is not the {MEDIA[suffix]} its name says"]
    return f"data:{MEDIA[suffix]};base64,{base64.b64encode(data).decode('ascii')}", []
