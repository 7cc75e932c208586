"""Words for the page: rule numbers and anchors, rule text split into blocks, values and expressions in words."""

from __future__ import annotations

import re
import textwrap
import unicodedata
from fractions import Fraction
from typing import Any

RULE_NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.[0-9A-Za-z]+)+)(?![\w])")
_PART = re.compile(r"^(\d*)(.*)$")


def rule_key(number: str) -> tuple[tuple[int, str], ...]:
    """Sort key for rule numbers: 4.5 < 4.5a < 4.5b < 4.10 < 13.1."""
    out = []
    for part in number.split("."):
        m = _PART.match(part)
        assert m is not None
        digits, rest = m.groups()
        out.append((int(digits) if digits else -1, rest))
    return tuple(out)


def chapter_of(number: str) -> str:
    return number.split(".")[0]


def section_of(number: str) -> str:
    """The numbered section a clause belongs to: 4.5a -> 4.5, 4.5 -> 4.5, 19.0f -> 19.0, 5 -> 5."""
    if "." not in number:
        return number
    first, second = number.split(".")[:2]
    m = _PART.match(second)
    assert m is not None
    return f"{first}.{m.group(1) or second}"


def hugo_anchor(heading: str) -> str:
    """The id Hugo (goldmark) gives a heading: '4.5 Zone of Control' -> '45-zone-of-control'."""
    out = []
    for ch in heading.strip():
        if ch.isalnum():
            out.append(ch.lower())
        elif ch in "-_":
            out.append(ch)
        elif ch.isspace():
            out.append("-")
    return "".join(out)


def slug(text: str) -> str:
    """A file-name slug: lower case letters, digits and single dashes."""
    norm = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    return re.sub(r"[^a-z0-9]+", "-", norm).strip("-") or "x"


def chapter_page(chapter: str, title: str) -> str:
    """The page (folder) name of a chapter in the online rulebook: 4, General Concepts -> 4-0-general-concepts."""
    return f"{chapter}-0-{slug(title)}"


# ---- rule text ----------------------------------------------------------------------------


def blocks(text: str) -> list[dict[str, Any]]:
    """A rule text as paragraphs and bullet lists.

    Texts are written as plain prose: a blank line starts a paragraph and a
    line that opens with '* ' is a list item (its following lines continue it)."""
    out: list[dict[str, Any]] = []
    for chunk in re.split(r"\n\s*\n", textwrap.dedent(text).strip()):
        items: list[str] = []
        para: list[str] = []
        for line in chunk.splitlines():
            line = line.strip()
            if line.startswith("* "):
                if para and not items:
                    out.append({"kind": "p", "text": " ".join(para)})
                    para = []
                items.append(line[2:].strip())
            elif items:
                items[-1] += " " + line
            else:
                para.append(line)
        if items:
            out.append({"kind": "ul", "items": items})
        elif para:
            out.append({"kind": "p", "text": " ".join(para)})
    return out


def flat(text: str) -> str:
    """A rule text on one line (for table cells and exports)."""
    parts: list[str] = []
    for b in blocks(text):
        parts += [b["text"]] if b["kind"] == "p" else b["items"]
    return " ".join(parts)


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|~])")
_MD_LINE_START = re.compile(r"^(\s*)([#+=>-]|\d+(?=[.)]))")


def _escape_start(m: re.Match[str]) -> str:
    lead, mark = m.groups()
    return lead + (mark + "\\" if mark[0].isdigit() else "\\" + mark)  # '1.' -> '1\.', '#' -> '\#'


def md_escape(text: str, line_start: bool = False) -> str:
    """Plain text as Markdown that shows exactly that text (no emphasis, links, HTML or headings).

    With line_start, the text opens a line, so a leading '#', '-', '>', '1.' is escaped too."""
    text = _MD_SPECIAL.sub(r"\\\1", re.sub(r"\s+", " ", text))
    if line_start:
        text = _MD_LINE_START.sub(_escape_start, text)
    return text


def pieces(text: str, refs: dict[str, str]) -> list[tuple[str, str | None]]:
    """Split text at the rule numbers it cites: (text, link or None) pieces, for templates to escape."""
    out: list[tuple[str, str | None]] = []
    pos = 0
    for m in RULE_NUMBER.finditer(text):
        if m.group(1) in refs:
            if m.start() > pos:
                out.append((text[pos:m.start()], None))
            out.append((m.group(1), refs[m.group(1)]))
            pos = m.end()
    if pos < len(text):
        out.append((text[pos:], None))
    return out


# ---- values and expressions -----------------------------------------------------------------

_VULGAR = {Fraction(1, 2): "½", Fraction(1, 4): "¼", Fraction(3, 4): "¾", Fraction(1, 3): "⅓",
           Fraction(2, 3): "⅔"}


def number_words(value: Any, pretty: bool = False) -> str:
    """An IR number ('1/2', 3) as text: '1/2', or '½' when pretty."""
    q = Fraction(value) if isinstance(value, str) else Fraction(int(value))
    if q.denominator == 1:
        return str(q.numerator)
    whole, part = divmod(q, 1)
    if pretty and Fraction(part) in _VULGAR:
        return (str(whole) if whole else "") + _VULGAR[Fraction(part)]
    return f"{q.numerator}/{q.denominator}"


def _humanize(name: str) -> str:
    return name.replace("_", " ")


_OPS = {"and": "and", "or": "or", "==": "=", "!=": "≠", "<": "<", "<=": "≤", ">": ">", ">=": "≥",
        "in": "in", "not in": "not in", "+": "+", "-": "−", "*": "×", "/": "/"}
_PLAIN_OPS = {"==": "==", "!=": "!=", "<=": "<=", ">=": ">=", "-": "-", "*": "*"}  # for exports: ASCII
_PREC = {"or": 1, "and": 2, "not": 3, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4, "in": 4,
         "not in": 4, "+": 5, "-": 5, "*": 6, "/": 6, "neg": 7}


class Words:
    """Expressions of one model in words a player reads: list values by title, constants by value."""

    def __init__(self, model: dict[str, Any]):
        self.members = {(e["name"], m["name"]): m for e in model["enums"] for m in e["members"]}
        self.consts = {c["name"]: c for c in model["consts"]}
        self.defines = {d["name"]: d for d in model["defines"]}
        self.titles = {t["name"]: t["title"] for t in model["tables"] + model["defines"] if t["title"]}

    def member(self, enum: str, name: str) -> str:
        m = self.members.get((enum, name))
        return str(m["title"] or name) if m else _humanize(name)

    def value(self, e: dict[str, Any], pretty: bool = True) -> str:
        """A value expression: a constant folded to a number, anything else in words."""
        const = self.constant(e)
        return number_words(const, pretty) if const is not None else self.expr(e, pretty)

    def constant(self, e: dict[str, Any]) -> Any:
        k = e["k"]
        if k == "lit" and e["t"] in ("int", "number"):
            return e["v"]
        if k == "const" and e["name"] in self.consts:
            return self.constant(self.consts[e["name"]]["value"])
        if k == "op" and e["op"] in ("/", "*", "+", "-") and len(e["args"]) == 2:
            a, b = (self.constant(x) for x in e["args"])
            if a is None or b is None:
                return None
            x, y = Fraction(a), Fraction(b)
            if e["op"] == "/" and y == 0:
                return None
            q = {"/": lambda: x / y, "*": lambda: x * y, "+": lambda: x + y, "-": lambda: x - y}[e["op"]]()
            return int(q) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"
        return None

    def expr(self, e: dict[str, Any], pretty: bool = True, outer: int = 0) -> str:
        k = e["k"]
        if k == "lit":
            v = e["v"]
            if isinstance(v, bool):
                return "true" if v else "false"
            if e["t"] in ("int", "number"):
                return number_words(v, pretty)
            return str(v)
        if k in ("var", "const"):
            return _humanize(e["name"])
        if k == "member":
            return self.member(e["enum"], e["name"])
        if k in ("field", "attr"):
            if not pretty:
                return f"{self.expr(e['of'], pretty, 9)}.{e['name']}"
            if e["of"]["k"] == "var":  # u.printed_re -> "printed re"
                return _humanize(e["name"])
            return f"{self.expr(e['of'], pretty, 9)} {_humanize(e['name'])}"
        if k == "call" and pretty and e["fn"] in self.titles:  # re_size(u) -> "RE size"
            return str(self.titles[e["fn"]])
        if k in ("call", "builtin"):
            return f"{e['fn']}({', '.join(self.expr(a, pretty) for a in e['args'])})"
        if k in ("list", "set"):
            return "{" + ", ".join(self.expr(a, pretty) for a in e["items"]) + "}"
        if k == "if":
            return (f"if {self.expr(e['cond'], pretty)} then {self.expr(e['then'], pretty)} "
                    f"else {self.expr(e['else'], pretty)}")
        if k == "agg":
            where = f" where {self.expr(e['where'], pretty)}" if e["where"] is not None else ""
            return f"{e['fn']}({self.expr(e['body'], pretty)} for {e['var']} in {self.expr(e['over'], pretty)}{where})"
        if k == "record":
            fields = ", ".join(f"{n}: {self.expr(v, pretty)}" for n, v in sorted(e["fields"].items()))
            return f"{e['record']} {{{fields}}}"
        if k == "op":
            op = e["op"]
            prec = _PREC[op]
            if op == "not":
                text = f"not {self.expr(e['args'][0], pretty, prec)}"
            elif op == "neg":
                text = f"−{self.expr(e['args'][0], pretty, prec)}"
            else:
                a, b = e["args"]
                sym = _OPS[op] if pretty else _PLAIN_OPS.get(op, _OPS[op])
                text = f"{self.expr(a, pretty, prec)} {sym} {self.expr(b, pretty, prec + 1)}"
            return f"({text})" if prec < outer else text
        return str(k)
