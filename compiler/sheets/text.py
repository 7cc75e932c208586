"""Words for the page: rule numbers and anchors, rule text split into blocks, values and expressions in words."""

from __future__ import annotations

import functools
import re
import textwrap
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

from .. import model as m
from ..types import EnumT, IntT, NumberT, RecordT

RULE_NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.[0-9A-Za-z]+)+)(?![\w])")
_PART = re.compile(r"^(\d*)(.*)$")


@functools.lru_cache(maxsize=65536)
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


def _anchor_char(ch: str) -> str:
    """What one character of a heading becomes in its id (hugo_anchor)."""
    if ch.isalnum():
        return ch.lower()
    if ch in "-_":
        return ch
    return "-" if ch.isspace() else ""


_ASCII_ANCHOR = {i: _anchor_char(chr(i)) for i in range(128)}  # str.translate's table, made by the same rule


def hugo_anchor(heading: str) -> str:
    """The id Hugo (goldmark) gives a heading: '4.5 Zone of Control' -> '45-zone-of-control'.
    An ASCII heading (nearly all) goes through one translate; any other a character at a time (a
    whole string's lower() is not its characters' own: a final capital sigma becomes ς)."""
    heading = heading.strip()
    if heading.isascii():
        return heading.translate(_ASCII_ANCHOR)
    return "".join(_anchor_char(ch) for ch in heading)


def slug(text: str) -> str:
    """A file-name slug: lower case letters, digits and single dashes."""
    norm = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    return re.sub(r"[^a-z0-9]+", "-", norm).strip("-") or "x"


def chapter_page(chapter: str, title: str) -> str:
    """The page (folder) name of a chapter in the online rulebook: 4, General Concepts -> 4-0-general-concepts."""
    return f"{chapter}-0-{slug(title)[:60].rstrip('-')}"  # a long title must not make a name no disk takes


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


# The one escaper of Markdown text: everything a rules file says that lands in a Markdown page
# (titles, texts, notes, list values, layer names and versions) passes through md_escape. It puts a
# backslash before every ASCII punctuation mark CommonMark (and Hugo's Goldmark extensions: tables,
# strikethrough, task lists, footnotes, definitions) reads as markup: '&' too, so that '&lt;b&gt;'
# stays those characters, and '#', so that a heading's title cannot end in a closing '##'. It writes
# '{' as a character reference, so that no text holds '{{' (a Hugo shortcode, '{{< x >}}' or
# '{{% x %}}', which Hugo runs before Markdown sees the page) nor any '{' (a Goldmark heading
# attribute block, '{#id .class}').
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|~&#])")
_MD_LINE_START = re.compile(r"^(\s*)([+=>:-]|\d+(?=[.)]))")


def _escape_start(m: re.Match[str]) -> str:
    lead, mark = m.groups()
    return lead + (mark + "\\" if mark[0].isdigit() else "\\" + mark)  # '1.' -> '1\.', '#' -> '\#'


def md_escape(text: str, line_start: bool = False) -> str:
    """Plain text as Markdown that shows exactly that text (no emphasis, links, HTML, character
    references, headings or Hugo shortcodes); runs of white space read as one space.

    With line_start, the text opens a line, so a leading '-', '+', '=', '>', ':', '1.' is escaped too
    (a list, a heading underline, a quote, a definition)."""
    text = _MD_SPECIAL.sub(r"\\\1", re.sub(r"\s+", " ", text))
    if line_start:
        text = _MD_LINE_START.sub(_escape_start, text)
    return text.replace("{", "&#123;")


def md_link_target(url: str) -> str:
    """A link's address as a Markdown link destination that Markdown decodes back to exactly url.

    '&' is written '&amp;', so a character reference in the address ('javascript&#58;...') stays
    those characters instead of becoming what it names; R113 allows no space, bracket, quote or
    backslash in an external link, and internal links are made of rule numbers and slugs. A '{'
    (R113 allows none; an anchor has none) would be percent-encoded, as a browser sends it, so no
    link holds a shortcode's '{{'."""
    return url.replace("&", "&amp;").replace("{", "%7B")


def pieces(text: str, refs: dict[str, str]) -> list[tuple[str, str | None]]:
    """Split text at the rule numbers it cites: (text, link or None) pieces, for templates to escape."""
    out: list[tuple[str, str | None]] = []
    pos = 0
    for hit in RULE_NUMBER.finditer(text):
        if hit.group(1) in refs:
            if hit.start() > pos:
                out.append((text[pos:hit.start()], None))
            out.append((hit.group(1), refs[hit.group(1)]))
            pos = hit.end()
    if pos < len(text):
        out.append((text[pos:], None))
    return out


# ---- values and expressions -----------------------------------------------------------------

_VULGAR = {Fraction(1, 2): "½", Fraction(1, 4): "¼", Fraction(3, 4): "¾", Fraction(1, 3): "⅓",
           Fraction(2, 3): "⅔"}


def number_words(value: Any, pretty: bool = False) -> str:
    """A number (3, a Fraction, or '1/2' as JSON writes one) as text: '1/2', or '½' when pretty;
    below zero with a minus sign when pretty ('−1½', not '-2½' as the whole part of -3/2 is -2)."""
    q = Fraction(value) if isinstance(value, (str, Fraction)) else Fraction(int(value))
    if q < 0 and pretty:
        return "−" + number_words(-q, pretty)
    if q.denominator == 1:
        return str(q.numerator)
    whole, part = divmod(q, 1)
    if pretty and Fraction(part) in _VULGAR:
        return (str(whole) if whole else "") + _VULGAR[Fraction(part)]
    return f"{q.numerator}/{q.denominator}"


# abbreviations a player reads in capitals (transported_ma -> transported MA)
_CAPITALS = {"ma", "mp", "sp", "re", "zoc", "ezoc", "hq", "tp", "alt", "drm", "aa", "at", "dg", "rp", "eq"}
_IDENTIFIER = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


def player_words(text: Any) -> Any:
    """A text as a player reads it: every name written the rules' way (transported_ma, in_dead_pile)
    as words (transported MA, in dead pile). Cards show it wherever a rule's title, text or value
    could hold a name; markup already made safe, and anything not text, is left as it is."""
    if not isinstance(text, str) or hasattr(text, "__html__") or "_" not in text:
        return text
    return _IDENTIFIER.sub(lambda m: " ".join(w.upper() if w in _CAPITALS else w for w in m.group().split("_")), text)


def _humanize(name: str) -> str:
    return name.replace("_", " ")


def lower_first(text: str) -> str:
    """'In reserve' -> 'in reserve' inside a sentence; 'AA or AT unit' keeps its capitals."""
    first = text.split(" ")[0]
    if re.fullmatch(r"[A-Z][a-z]*", first):
        return text[0].lower() + text[1:]
    return text


def short_title(title: str | None, limit: int = 26) -> str | None:
    """A declaration's title as a name inside an expression: the words before ':' when short and not a question."""
    if not title:
        return None
    head = title.split(":")[0].strip()
    if not head or len(head) > limit or head.endswith("?"):
        return None
    return head


_OPS = {"and": "and", "or": "or", "==": "=", "!=": "≠", "<": "<", "<=": "≤", ">": ">", ">=": "≥",
        "in": "in", "not in": "not in", "+": "+", "-": "−", "*": "×", "/": "/"}
_PLAIN_OPS = {"==": "==", "!=": "!=", "<=": "<=", ">=": ">=", "-": "-", "*": "*"}  # for exports: ASCII
_PREC = {"or": 1, "and": 2, "not": 3, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4, "in": 4,
         "not in": 4, "+": 5, "-": 5, "*": 6, "/": 6, "neg": 7}
# How tightly a phrase in words binds, for parentheses: 'for every x in xs: ...' and 'a, at most 8'
# read to the end of what holds them; 'the number of xs where ...' reads like a comparison.
_PHRASE, _NOUN, _ATOM = 0, 4, 9
_AGG_WORDS = {"sum": "the total {body} of {over}", "product": "the product of {body} over {over}",
              "min": "the lowest {body} of {over}", "max": "the highest {body} of {over}",
              "first": "the {body} of the first of {over}"}
_AGG_SELF = {"count": "the number of {over}", "sum": "the total of {over}", "product": "the product of {over}",
             "min": "the lowest of {over}", "max": "the highest of {over}", "first": "the first of {over}",
             "any": "any of {over}", "all": "all of {over}"}


_PER_MODEL: list[tuple[m.Resolved, str, Any]] = []
T = TypeVar("T")


def per_model(model: m.Resolved, what: str, make: Callable[[m.Resolved], T]) -> T:
    """make(model), made once per model and kept for the last few (the lookups every clause, list,
    card or page asks for: made each time, they made the sheets quadratic in the number of clauses).
    Callers only read what they get. A model is known by identity (it is frozen)."""
    for known, name, found in _PER_MODEL:
        if known is model and name == what:
            return found  # type: ignore[no-any-return]
    found = make(model)
    remember(model, what, found)
    return found


def remember(model: m.Resolved, what: str, found: Any) -> None:
    """per_model's answer for the model from now on (made by it, or kept by a build's cache): the
    newest answer is found first."""
    _PER_MODEL.insert(0, (model, what, found))
    del _PER_MODEL[32:]  # a few models: every kind of lookup of each


def forget_models() -> None:
    """Let go of every model per_model knows, and of what was made for them: a new compile makes
    new models, and once a command is done nothing asks about its models again. Kept, the last
    build's models lived on through the next one in a process that builds again (rulec build
    --watch, the language server, a program calling rulec.cli.main): twice the objects for the
    garbage collector to go over (a full round of 0.5 to 0.65 s at 10,000 clauses), twice the memory."""
    _PER_MODEL.clear()


@dataclass(frozen=True)
class _Index:
    """The lookups of Words (a card asks for Words once per clause)."""

    members: dict[tuple[str, str], m.EnumMember]
    consts: dict[str, m.ConstDef]
    titles: dict[str, str]
    fields: dict[tuple[str, str], m.RecordField]


def _word_index(model: m.Resolved) -> _Index:
    named: tuple[m.Table | m.Define, ...] = (*model.tables, *model.defines)
    return _Index(
        members={(e.name, mb.name): mb for e in model.enums for mb in e.members},
        consts={c.name: c for c in model.consts},
        titles={t.name: t.title for t in named if t.title},
        fields={(r.name, f.name): f for r in model.records for f in r.fields},
    )


def _magnitude(e: m.Expr) -> tuple[m.Expr, bool]:
    """An amount and whether it is taken away: -r and 0 - r are (r, True), anything else (e, False)."""
    if isinstance(e, m.Op) and e.op == "neg":
        return e.args[0], True
    if isinstance(e, m.Op) and e.op == "-" and isinstance(e.args[0], m.Lit) and e.args[0].v == 0 \
            and not isinstance(e.args[0].v, bool):
        return e.args[1], True
    return e, False


class Words:
    """Expressions of one model in words a player reads: list values by title, constants by value.

    `pretty=False` gives the plain, ASCII form of the rules language (for exports and diffs);
    `pretty=True` the words of a card.  With `field_titles`, a yes/no field of a record reads as
    the field's title ('In reserve'), for the conditions a card lists one per line."""

    def __init__(self, model: m.Resolved, field_titles: bool = False):
        ix = per_model(model, "words", _word_index)
        self.members, self.consts, self.titles, self.fields = ix.members, ix.consts, ix.titles, ix.fields
        self.field_titles = field_titles

    def member(self, enum: str, name: str) -> str:
        mb = self.members.get((enum, name))
        return str(mb.title or name) if mb else _humanize(name)

    def value(self, e: m.Expr, pretty: bool = True) -> str:
        """A value expression: a constant folded to a number, anything else in words."""
        const = self.constant(e)
        return number_words(const, pretty) if const is not None else self.expr(e, pretty)

    def constant(self, e: m.Expr) -> Fraction | None:
        """The number an expression of literals and named numbers comes to, else None."""
        match e:
            case m.Lit(t=IntT() | NumberT(), v=v) if not isinstance(v, str):
                return Fraction(v)
            case m.Const(name=name) if name in self.consts:
                return self.constant(self.consts[name].value)
            case m.Op(op="neg", args=(a,)):
                x = self.constant(a)
                return None if x is None else -x
            case m.Op(op="/" | "*" | "+" | "-" as op, args=(a, b)):
                x, y = self.constant(a), self.constant(b)
                if x is None or y is None or op == "/" and y == 0:
                    return None
                return x / y if op == "/" else x * y if op == "*" else x + y if op == "+" else x - y
        return None

    def expr(self, e: m.Expr, pretty: bool = True, outer: int = 0) -> str:
        if pretty and isinstance(e, m.Const):  # a named number reads as its value: 'at most 8'
            const = self.constant(e)
            if const is not None:
                return number_words(const, pretty)
        match e:
            case m.Lit(t=t, v=v):
                if isinstance(v, bool):
                    return ("yes" if v else "no") if pretty else ("true" if v else "false")
                if isinstance(t, (IntT, NumberT)):
                    return number_words(v, pretty)
                return str(v)
            case m.Var(name=name) | m.Const(name=name):
                return _humanize(name)
            case m.Member(enum=enum, name=name):
                return self.member(enum, name)
            case m.Field(of=of, name=name) | m.Attr(of=of, name=name):
                if not pretty:
                    return f"{self.expr(of, pretty, 9)}.{name}"
                if self.field_titles and isinstance(e, m.Field):
                    field = self.fields.get((str(of.t).removeprefix("record "), name))
                    if field is not None and field.title and len(field.title) <= 80:
                        return lower_first(str(field.title))
                if isinstance(of, m.Var):  # u.printed_re -> "printed re"
                    return _humanize(name)
                return f"{self.expr(of, pretty, 9)} {_humanize(name)}"
            case m.Call(fn=fn, args=args) if pretty:
                title = short_title(self.titles.get(fn))
                if title is not None:  # re_size(u) -> "RE size"
                    return lower_first(title)
                shown = [a for a in args if not (isinstance(a, m.Var) and isinstance(a.t, RecordT))]
                if len(shown) == len(args) and shown:
                    return self._called(fn, [self.expr(a, pretty, _NOUN) for a in shown], outer)
                return _humanize(fn)  # terrain_reductions(u, x) -> "terrain reductions"
            case m.Builtin() if pretty:
                return self._builtin(e, outer)
            case m.Call(fn=fn, args=args) | m.Builtin(fn=fn, args=args):
                return f"{fn}({', '.join(self.expr(a, pretty) for a in args)})"
            case m.ListLit(items=items) | m.SetLit(items=items):
                return "{" + ", ".join(self.expr(a, pretty) for a in items) + "}"
            case m.If(cond=cond, then=then, else_=else_):
                text = f"if {self.expr(cond, pretty)} then {self.expr(then, pretty)} else {self.expr(else_, pretty)}"
                return f"({text})" if pretty and outer > _PHRASE else text
            case m.Let(name=name, value=value, body=body):
                if not pretty:
                    return f"let {name} = {self.expr(value, pretty)}; {self.expr(body, pretty)}"
                text = f"{self.expr(body, pretty)}, where {_humanize(name)} = {self.expr(value, pretty)}"
                return f"({text})" if outer > _PHRASE else text
            case m.Agg(fn=fn, var=var, over=over, where=where, body=body):
                if pretty:
                    return self._agg(e, outer)
                held = f" where {self.expr(where, pretty)}" if where is not None else ""
                return f"{fn}({self.expr(body, pretty)} for {var} in {self.expr(over, pretty)}{held})"
            case m.RecordLit(record=record, fields=fields):
                shown_fields = ", ".join(f"{n}: {self.expr(v, pretty)}"
                                         for n, v in sorted(fields, key=lambda f: f[0]))
                return f"{record} {{{shown_fields}}}"
            case m.Op():
                return self._op(e, pretty, outer)
            case m.Error():
                return "error"

    def _op(self, e: m.Op, pretty: bool, outer: int) -> str:
        op = e.op
        prec = _PREC[op]
        if op == "not":
            text = f"not {self.expr(e.args[0], pretty, prec)}"
        elif op == "neg":
            text = f"{'−' if pretty else '-'}{self.expr(e.args[0], pretty, prec)}"  # exports: ASCII
        elif pretty and op in ("in", "not in") and isinstance(e.args[1], (m.ListLit, m.SetLit)) \
                and 0 < len(e.args[1].items) <= 4:
            a, b = e.args
            assert isinstance(b, (m.ListLit, m.SetLit))
            names = [self.expr(x, pretty, _ATOM) for x in b.items]
            if op == "in":
                choice = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
                text = f"{self.expr(a, pretty, prec)} is {choice}"
            elif len(names) == 1:
                text = f"{self.expr(a, pretty, prec)} is not {names[0]}"
            elif len(names) == 2:
                text = f"{self.expr(a, pretty, prec)} is neither {names[0]} nor {names[1]}"
            else:
                text = f"{self.expr(a, pretty, prec)} is none of {', '.join(names)}"
        elif pretty and op in ("+", "-") and (k := self.constant(e.args[1])) is not None and k < 0:
            # base + -1 reads 'base − 1', and base - -1 'base + 1'
            text = f"{self.expr(e.args[0], pretty, prec)} {'−' if op == '+' else '+'} {number_words(-k, pretty)}"
        else:
            a, b = e.args
            sym = _OPS[op] if pretty else _PLAIN_OPS.get(op, _OPS[op])
            text = f"{self.expr(a, pretty, prec)} {sym} {self.expr(b, pretty, prec + 1)}"
        return f"({text})" if prec < outer else text

    # ---- the newer constructs in words -------------------------------------------------------

    def _called(self, fn: str, args: list[str], outer: int) -> str:
        """A call of a definition without a short title, in words: rounded(a / d) -> 'a / d, rounded';
        screened_class_in_reaction(enemy, stays) -> 'screened class in reaction, for enemy and stays'."""
        if len(args) == 1 and fn.endswith("ed") and "_" not in fn:
            text = f"{args[0]}, {fn}"
        else:
            text = f"{_humanize(fn)}, for {' and '.join(args)}"
        return f"({text})" if outer > _PHRASE else text

    def _builtin(self, e: m.Builtin, outer: int) -> str:
        fn, args = e.fn, e.args
        if fn in ("floor", "ceil") and len(args) == 1:  # floor(ma) -> 'ma, rounded down'
            text = f"{self.expr(args[0], True, _NOUN)}, rounded {'down' if fn == 'floor' else 'up'}"
            return f"({text})" if outer > _PHRASE else text
        if fn == "abs" and len(args) == 1:
            return f"the size of {self.expr(args[0], True, _ATOM)}"
        if fn == "step" and len(args) == 2:
            return self._step(e, outer)
        if fn in ("min", "max") and len(args) >= 2:
            levels = isinstance(e.t, EnumT)
            if len(args) == 2 and not levels:
                consts = [self.constant(a) for a in args]
                if (consts[0] is None) != (consts[1] is None):  # min(x, 8): 'x, at most 8'
                    var, cap = (args[0], consts[1]) if consts[1] is not None else (args[1], consts[0])
                    assert cap is not None
                    bound = "at most" if fn == "min" else "at least"
                    text = f"{self.expr(var, True, _NOUN)}, {bound} {number_words(cap, True)}"
                    return f"({text})" if outer > _PHRASE else text
            if levels:
                word = "lower" if fn == "min" else "higher"
            else:
                word = "smaller" if fn == "min" else "larger"
            if len(args) > 2:
                word = {"lower": "lowest", "higher": "highest", "smaller": "smallest", "larger": "largest"}[word]
            names = [self.expr(a, True, _NOUN) for a in args]
            text = f"the {word} of {', '.join(names[:-1])} and {names[-1]}"
            return f"({text})" if outer > _PHRASE else text
        if fn == "len" and len(args) == 1:
            return f"the number of {self.expr(args[0], True, _ATOM)}"
        return f"{fn}({', '.join(self.expr(a, True) for a in args)})"

    def _step(self, e: m.Builtin, outer: int) -> str:
        """step(zoc, -1) -> 'the level below zoc'; around a cyclic list, 'the one after side'."""
        level, by = e.args
        n = self.constant(by)
        cyclic = bool(e.cyclic)
        of = self.expr(level, True, _ATOM)
        if n is not None and n.denominator == 1 and int(n) != 0:
            k = int(n)
            if cyclic:
                where = "after" if k > 0 else "before"
                text = f"the one {where} {of}" if abs(k) == 1 else f"{abs(k)} {where} {of}"
            else:
                where = "above" if k > 0 else "below"
                text = f"the level {where} {of}" if abs(k) == 1 else f"{abs(k)} levels {where} {of}"
        else:  # step(base, -reductions) -> 'base lowered by reductions levels'
            amount, down = _magnitude(by)
            said = self.expr(amount, True, _NOUN)
            if cyclic:
                text = f"{said} steps {'before' if down else 'after'} {of}"
            else:
                chained = isinstance(level, m.Builtin) and level.fn == "step" and len(level.args) == 2 \
                    and not level.cyclic and self.constant(level.args[1]) is None
                if chained:  # step(step(base, -r), i) -> 'base lowered by r levels, then raised by i levels'
                    of = self.expr(level, True, _PHRASE) + ", then"
                text = f"{of} {'lowered' if down else 'raised'} by {said} levels"
        return f"({text})" if outer > _NOUN else text

    def _agg(self, e: m.Agg, outer: int) -> str:
        fn, var = e.fn, e.var
        over = self.expr(e.over, True, _ATOM)
        where = f" where {self.expr(e.where, True, _NOUN)}" if e.where is not None else ""
        body = e.body
        itself = isinstance(body, m.Var) and body.name == var
        if fn in ("any", "all") and not itself:
            some = "some" if fn == "any" else "every"
            text = f"for {some} {_humanize(var)} in {over}{where}: {self.expr(body, True, _PHRASE)}"
            return f"({text})" if outer > _PHRASE else text
        w = e.where
        if fn == "count" and isinstance(w, m.Var) and w.name == var:  # count(c for c in cs where c)
            text = f"how many of {over} hold"
        elif itself or fn == "count":
            text = _AGG_SELF[fn].format(over=over) + where
        else:
            text = _AGG_WORDS[fn].format(body=self.expr(body, True, _ATOM), over=over) + where
        return f"({text})" if where and outer > _NOUN else text

    # ---- a long expression as a list of lines ---------------------------------------------

    def outline(self, e: m.Expr) -> list[str] | None:
        """What a sum of counted conditions counts, one line each (a card's bullet list), else None.

        reductions = terrain + count(c for c in [a, b, c] where c) + markers  ->  [terrain, a, b, c, markers]"""
        terms = _flatten(e, "+")
        items: list[str] = []
        counted = False
        for t in terms:
            listed = _counted_conditions(t)
            if listed is not None:
                items += [self.expr(x, True) for x in listed]
                counted = True
            else:
                items.append(self.expr(t, True))
        return items if counted else None


def _flatten(e: m.Expr, op: str) -> list[m.Expr]:
    if isinstance(e, m.Op) and e.op == op and len(e.args) == 2:
        return _flatten(e.args[0], op) + _flatten(e.args[1], op)
    return [e]


def _counted_conditions(e: m.Expr) -> list[m.Expr] | None:
    """The conditions of count(c for c in [a, b, ...] where c), else None."""
    match e:
        case m.Agg(fn="count", var=var, over=m.ListLit(items=items) | m.SetLit(items=items), where=m.Var(name=w)) \
                if w == var:
            return list(items)
    return None
