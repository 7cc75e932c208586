"""Parse rules text into the syntax tree (rulec.ast), or into located syntax diagnostics.

The one place the grammar's Lark parser is made (`lark_parser`): LALR, every token kept. parse()
and parse_query() run it with rulec.astbuild's reductions, which build the syntax tree as the
parser goes (no parse tree) and note anything a diagnostic is about; only a file with a mistake
is looked at again, to word and place its diagnostics.
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import re
import sys
import threading
from collections.abc import Iterator, Mapping
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Any, Literal

import lark
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.lexer import PatternStr

from . import ast, limits
from .astbuild import AstBuilder, Reductions
from .diagnostics import Diagnostic, Span
from .manifest import user_cache_folder

TOP_KEYWORDS = (
    "series game scenario option in ruleset rule external override except "
    "enum ordered cyclic record define const table limits invariant"
).split()
_TOP_LINE = re.compile(r"^(?:{})\b".format("|".join(TOP_KEYWORDS)))
# Where parse_reusing splits a file: quoted texts, comments and braces, and the keywords (at the start
# of a line) that start a top-level item and cannot continue the item before it: not `in`.
_PIECES = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""|"(?:[^"\\\n]|\\.)*"|#[^\n]*|[{{}}]|^(?:{})\b'.format(
    "|".join(k for k in TOP_KEYWORDS if k != "in")), re.MULTILINE)
# Quoted texts, comments and brackets, as rules.lark's STRING and COMMENT read them: where
# open_brackets finds the brackets a text leaves open.
_BRACKETS = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""|"(?:[^"\\\n]|\\.)*"|#[^\n]*|[()\[\]{}]')
_CLOSER = {"(": ")", "[": "]", "{": "}"}
_CLOSER_TERMINAL = {")": "RPAR", "]": "RSQB", "}": "RBRACE"}
_TERMINAL_WORDS = {
    "NAME": "a name",
    "RULENUM": "a rule number such as 4.5a",
    "NUMBER": "a number",
    "STRING": 'a quoted text ("...")',
    "COMP": "a comparison (==, !=, <, <=, >, >=)",
    "NOT_IN": "'not in'",
    "TEXT_ONLY": "'text-only'",
    "ORDERED": "'ordered'",
    "CYCLIC": "'cyclic'",
    "$END": "the end of the file",
}


@cache
def grammar_text() -> str:
    """The grammar, compiler/rules.lark: package data, read the same way from a checkout and from
    an installed wheel."""
    return resources.files(__package__ or "rulec").joinpath("rules.lark").read_text(encoding="utf-8")


@cache
def kept_terminals() -> frozenset[str]:
    """The terminals the grammar names (NAME, STRING, ...): the tokens the syntax tree holds. The
    strings a rule writes in quotes ("rule", "{") are its keywords and punctuation."""
    return frozenset(re.findall(r"^([A-Z][A-Z0-9_]*)(?:\.\d+)?\s*:", grammar_text(), re.MULTILINE))


# ---- the parser ------------------------------------------------------------------------------

_REDUCTIONS = Reductions()
_COMMENTS = threading.local()  # the comments a concrete parse finds, for concrete_tree


def _comment(tok: Token) -> Token:
    found: list[Token] | None = getattr(_COMMENTS, "found", None)
    if found is not None:
        found.append(tok)
    return tok


def lark_parser(mode: Literal["tree", "ast"] = "tree") -> Lark:
    """The grammar's LALR parser, made once per process. Every token is kept (keep_all_tokens)
    and an [optional] part left out is a None (maybe_placeholders), so a node's children are the
    same in both modes:

    "ast": the parser reduces straight into rulec.ast (Lark's inline transformer, astbuild's
    Reductions), with no parse tree: what parse() and parse_query() run.
    "tree": Lark's concrete parse tree, the comments set aside as the lexer meets them: what
    `rulec fmt` lays out, and where rulec.limits looks for the limits a file passes."""
    return _made(mode)


@cache
def _made(mode: str) -> Lark:
    options: dict[str, Any] = ({"transformer": _REDUCTIONS} if mode == "ast"
                               else {"lexer_callbacks": {"COMMENT": _comment}})
    return Lark(grammar_text(), parser="lalr", lexer="contextual", keep_all_tokens=True,
                maybe_placeholders=True, start=["start", "query"], cache=_cache_file(mode), **options)


def _cache_file(mode: str) -> str | bool:
    """Where Lark keeps the parser's tables between runs (a fifth of a second to make anew): the
    user's cache folder, never the installed package; no cache where that folder cannot be made.
    Lark checks an entry against the grammar and options, and makes the tables afresh, and tries
    to keep them, when it is stale, damaged or unreadable."""
    folder = user_cache_folder()
    if folder is None:
        return False
    key = f"{grammar_text()}\0{lark.__version__}\0{sys.version_info[:2]}"
    return str(folder / f"lark-{mode}-{hashlib.sha256(key.encode()).hexdigest()[:16]}.cache")


def concrete_tree(text: str, start: str = "start") -> tuple[Tree[Token], list[Token]]:
    """Lark's parse tree with every token (keywords and punctuation too), and the comments."""
    found: list[Token] = []
    _COMMENTS.found = found
    try:
        tree = lark_parser("tree").parse(text, start=start)
    finally:
        _COMMENTS.found = None
    return tree, found


def _reduce(text: str, path: str, start: str, line: int = 1) -> tuple[Any, AstBuilder]:
    """The syntax tree of a text (which starts at line `line` of the file), and what the
    reductions noted about it. Raises UnexpectedInput on a syntax error."""
    with _REDUCTIONS.building(AstBuilder(path, line)) as build:
        root: Any = lark_parser("ast").parse(text, start=start)
    return root.value, build


def _limit_errors(build: AstBuilder, text: str, path: str, start: str, line: int = 1) -> list[Diagnostic]:
    """The input limits the text passes, if the reductions saw it come near one."""
    if not build.near_limit:
        return []
    tree, _ = concrete_tree(text, start)
    return limits.tree_errors(tree, path, line, kept_terminals())


# ---- parsing --------------------------------------------------------------------------------


def parse(text: str, path: str) -> tuple[ast.File | None, list[Diagnostic]]:
    """Parse one file. Of its mistakes, the first kind found is reported: the input limits, then
    unknown escapes, then a literal that divides by zero. On syntax errors, every top-level item
    is parsed on its own so that all of them are reported, each at its own line."""
    too_big = limits.too_large(text, path) or limits.too_deep(text, path)
    if too_big:
        return None, [too_big]
    try:
        items, build = _reduce(text, path, "start")
    except UnexpectedInput:
        return None, _collect_errors(text, path)
    bad = _limit_errors(build, text, path, "start") or sorted(build.escapes) or build.literal_errors[:1]
    if bad:
        return None, bad
    return ast.File(path, tuple(items)), []


# ---- parsing again after an edit ----------------------------------------------------------------

# A file's top-level stretches (_split) parsed each on its own: (the file line it starts at, its
# items, the syntax tree nodes it made), under a hash of its text. An edit parses again only the
# stretches it changed; the others are taken as they were, moved down or up by the lines it added
# or took away.
Piece = tuple[int, tuple[Any, ...], int]


def parse_reusing(text: str, path: str, earlier: Mapping[str, Piece]) -> tuple[
        tuple[ast.File | None, list[Diagnostic]], dict[str, Piece]]:
    """parse(text, path), and the file's pieces for the next time, taking those in `earlier`
    (the pieces of an earlier version of the file) whose text did not change.

    The result is parse()'s, node for node: a file is split only before a line that starts,
    unindented, with a keyword that begins a top-level item and cannot continue the one before it
    (`in` can: `x` then `in OCS` on the next line is `x in OCS`); when every piece parses, the
    grammar's parse of the whole is theirs put together, and the lexer reads the first word of
    each piece as the same keyword (tests/test_parse_pieces.py checks every shipped file and
    random programs). A piece with a mistake, an unknown escape or a bad literal, or a file
    near an input limit, is parsed whole by parse(), which words and places every diagnostic;
    no pieces are kept for it."""
    if limits.too_large(text, path) or limits.too_deep(text, path):
        return parse(text, path), {}
    pieces: dict[str, Piece] = {}
    items: list[Any] = []
    parts = 0
    for start, chunk in _split(text):
        key = hashlib.sha256(chunk.encode("utf-8", "surrogatepass")).hexdigest()
        piece = pieces.get(key) or earlier.get(key)
        if piece is None:
            piece = _piece(chunk, path, start)
            if piece is None:
                return parse(text, path), {}
        elif piece[0] != start:
            piece = (start, shifted(piece[1], start - piece[0]), piece[2])
        pieces[key] = piece
        items += piece[1]
        parts += piece[2]
    if limits.near(0, 0, parts):  # the file has as many nodes as a file may: parse() says where
        return parse(text, path), {}
    return (ast.File(path, tuple(items)), []), pieces


def _split(text: str) -> Iterator[tuple[int, str]]:
    """The file's stretches for parse_reusing: (the line each starts at, its text), split before
    each line that starts a top-level item outside braces and quoted texts. (A split in the wrong
    place only makes a stretch that does not parse, and the file is parsed whole.)"""
    depth, begin, line = 0, 0, 1
    for found in _PIECES.finditer(text):
        what = found.group()
        if what == "{":
            depth += 1
        elif what == "}":
            depth = max(0, depth - 1)
        elif depth == 0 and what[0] not in "\"#" and found.start() > begin:
            yield line, text[begin:found.start()]
            line += text.count("\n", begin, found.start())
            begin = found.start()
    yield line, text[begin:]


def _piece(chunk: str, path: str, start: int) -> Piece | None:
    """One stretch of a file (its first line the file's line `start`) parsed alone, or None when
    it has anything parse() would report. Lark reads line numbers off the text: the stretch is
    parsed below start - 1 empty lines, so that every span is the file's."""
    try:
        found, build = _reduce("\n" * (start - 1) + chunk, path, "start")
    except UnexpectedInput:
        return None
    if build.near_limit or build.escapes or build.literal_errors:
        return None
    return start, tuple(found), build.parts


def shifted(node: Any, lines: int) -> Any:
    """A syntax tree (or tuple of them) moved `lines` lines down (up, when negative): every span's
    lines changed, nothing else. (The nodes are frozen dataclasses: each is made anew, as
    copy.copy would, from its fields.)"""
    kind = type(node)
    if kind is Span:
        return Span(node.file, node.line + lines, node.col, node.end_line + lines, node.end_col)
    if kind is tuple:
        return tuple([shifted(x, lines) for x in node])
    if kind in _UNMOVED:
        return node
    assert dataclasses.is_dataclass(node), kind
    moved = object.__new__(kind)
    moved.__dict__.update({name: shifted(value, lines) for name, value in node.__dict__.items()})
    return moved


_UNMOVED = {str, int, bool, Fraction, type(None)}


def parse_query(text: str, path: str = "<query>") -> tuple[ast.Expr | None, list[Diagnostic]]:
    """Parse one expression, as `rulec eval` takes it."""
    deep = limits.too_deep(text, path)
    if deep:
        return None, [deep]
    try:
        expr, build = _reduce(text, path, "query")
    except UnexpectedInput as e:
        return None, [_syntax_diagnostic(e, text, 1, path)]
    bad = _limit_errors(build, text, path, "query") or build.literal_errors[:1]
    if bad:
        return None, bad
    return expr, []


# ---- error recovery ------------------------------------------------------------


# Keywords that never start a line inside a rule's braces: such a line always starts a new item,
# even after a '{' that was never closed.  The others (define, table, except ...) may also be
# written unindented inside a rule, so they start a new item only outside braces.
_ONLY_TOP = {"series", "game", "scenario", "option", "ruleset", "rule", "external", "override"}


def _chunks(text: str) -> list[tuple[int, str]]:
    """Split the text into top-level items: (first line number, text) pairs.
    A new item starts at a line that begins, unindented, with a top-level keyword
    outside a quoted text (and, for keywords a rule may hold, outside braces)."""
    chunks: list[tuple[int, list[str]]] = [(1, [])]
    depth, in_triple = 0, False
    for number, line in enumerate(text.split("\n"), start=1):
        top = None if in_triple else _TOP_LINE.match(line)
        if top and chunks[-1][1] and (depth == 0 or top.group(0) in _ONLY_TOP):
            chunks.append((number, []))
            depth = 0
        chunks[-1][1].append(line)
        depth, in_triple = _scan_line(line, depth, in_triple)
    return [(start, "\n".join(lines)) for start, lines in chunks]


def _scan_line(line: str, depth: int, in_triple: bool) -> tuple[int, bool]:
    """The brace depth after a line, and whether a triple-quoted text is still open;
    braces in quoted texts and comments do not count."""
    i = 0
    while i < len(line):
        if in_triple:
            if line.startswith('"""', i):
                in_triple, i = False, i + 3
            else:
                i += 2 if line[i] == "\\" else 1
            continue
        ch = line[i]
        if line.startswith('"""', i):
            in_triple, i = True, i + 3
            continue
        if ch == '"':
            i += 1
            while i < len(line) and line[i] != '"':
                i += 2 if line[i] == "\\" else 1
        elif ch == "#":
            break
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        i += 1
    return depth, in_triple


def _collect_errors(text: str, path: str) -> list[Diagnostic]:
    diags = []
    others: list[Diagnostic] = []
    for start, chunk in _chunks(text):
        try:
            _, build = _reduce(chunk, path, "start", start)
        except UnexpectedInput as e:
            diags.append(_syntax_diagnostic(e, chunk, start, path))
            diags += _later_errors(e, chunk, start, path)
        else:
            others += _limit_errors(build, chunk, path, "start", start) or build.escapes
    if not diags:  # the split itself hid the error; report the whole-file one
        try:
            _reduce(text, path, "start")
        except UnexpectedInput as e:
            diags.append(_syntax_diagnostic(e, text, 1, path))
    return sorted(diags + others)


MAX_LATER = 20  # more mistakes reported in one item, after its first


def _later_errors(first: UnexpectedInput, chunk: str, start: int, path: str) -> list[Diagnostic]:
    """The mistakes in an item after its first (`a && b` on one line of a rule, `c || d` on the
    next): the line of each mistake is left out and the item read again, for as long as that line
    closes what it opens (so leaving it out cannot unbalance the item's brackets) and the next
    mistake is on a later line, part of a line (a mistake at a line's first word may only be
    what the line left out began: not reported), and not at the item's end."""
    found: list[Diagnostic] = []
    error: UnexpectedInput = first
    lines = chunk.split("\n")
    for _ in range(MAX_LATER):
        at = (error.line or 0) - 1
        if not 0 < at < len(lines) or isinstance(error, UnexpectedToken) and error.token.type == "$END" \
                or open_brackets(lines[at]) or _closes_more(lines[at]):
            break
        lines[at] = ""  # the same line numbers for what follows
        text = "\n".join(lines)
        try:
            _reduce(text, path, "start", start)
            break
        except UnexpectedInput as again:
            if (again.line or 0) - 1 <= at or _at_line_start(again, text):
                break
            found.append(_syntax_diagnostic(again, text, start, path))
            error = again
    return found


def _closes_more(line: str) -> bool:
    """Whether a line closes a bracket it did not open."""
    depth = 0
    for found in _BRACKETS.finditer(line):
        depth += 1 if found.group() in _CLOSER else -1 if found.group() in _CLOSER_TERMINAL else 0
        if depth < 0:
            return True
    return False


def _at_line_start(error: UnexpectedInput, text: str) -> bool:
    """Whether the mistake is at the first word of its line."""
    line = text.split("\n")[(error.line or 1) - 1]
    return (error.column or 1) - 1 <= len(line) - len(line.lstrip())


def _context(chunk: str) -> str:
    words = chunk.split("\n", 1)[0].split()
    if not words:
        return "this item"
    if words[0] in ("rule", "override", "external", "except") and len(words) > 1:
        return f"{words[0]} {words[1].rstrip(':{')}"
    if len(words) > 1:
        return f"{words[0]} {words[1].split('(')[0].rstrip(':{')}"
    return words[0]


def _describe(terminal: str) -> str:
    if terminal in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[terminal]
    for t in lark_parser("ast").terminals:
        if t.name == terminal and isinstance(t.pattern, PatternStr):
            return f"'{t.pattern.value}'"
    return terminal


def _expected(expected: set[str], closer: str = "}") -> str:
    """What the parser would have taken, in words; `closer` (the bracket most likely missing) first."""
    if {"NAME", "NUMBER", "STRING"} <= expected:
        return "an expression"
    words = sorted((_describe(t) for t in expected), key=lambda w: (w != f"'{closer}'", w))
    if len(words) > 6:
        words = words[:6] + ["..."]
    return ", ".join(words)


# Operators from other languages the rules language writes as words.
_WORD_OPERATORS = {"&": "write 'and' between two conditions (a.sp > 3 and a.mode == combat)",
                   "|": "write 'or' between two conditions (a.sp <= 1 or a.mode != combat)",
                   "!": "write 'not' before a condition (not u.loaded); '!=' is 'is not equal to'",
                   "%": "the rules have no remainder operator: a - b * floor(a / b) is what is left of a over b"}


def _syntax_diagnostic(e: UnexpectedInput, chunk: str, start: int, path: str) -> Diagnostic:
    where = _context(chunk)
    if isinstance(e, UnexpectedCharacters):
        line = start + e.line - 1
        pos = e.pos_in_stream or 0
        ch = chunk[pos] if pos < len(chunk) else ""
        hint = None
        col = e.column
        if chunk[max(0, pos - 2):pos + 1] == '"""':  # read as "" and a stray quote: point at the """
            col -= 2
            hint = 'this """ text is never closed; end it with """'
        elif ch == '"':
            hint = "a quoted text must close on the same line; use \"\"\"...\"\"\" for text over several lines"
        elif ch in _WORD_OPERATORS:
            hint = _WORD_OPERATORS[ch]
        return Diagnostic(Span(path, line, col, line, col + 1), "R002",
                          f"unexpected character {ch!r} in {where}", hint=hint)
    assert isinstance(e, UnexpectedToken)
    token = e.token
    if token.type == "$END":
        last = chunk.rstrip().split("\n")
        line = start + len(last) - 1
        col = len(last[-1]) + 1 if last else 1
        closer = _closer_awaited(chunk)
        hint = f"add the missing '{closer}'" if _CLOSER_TERMINAL[closer] in e.expected else None
        return Diagnostic(Span(path, line, col, line, col + 1), "R003",
                          f"{where} ends too early; expected {_expected(set(e.expected), closer)}", hint=hint)
    line = start + (token.line or 1) - 1
    col = token.column or 1
    end = col + max(1, len(str(token)))
    shown = str(token).split("\n")[0]
    what = _describe(token.type)
    if token.type == "STRING":
        what = "quoted text"
    elif not what.startswith("'"):  # a name, a number, a rule number, a comparison: show it
        what = repr(shown)
    expected = set(e.expected)
    pos = token.start_pos or 0
    if _between_items(chunk, pos):  # an unindented word after an item closed: not inside that item
        place = "between items"
        expected.discard("RBRACE")  # what follows an item inside a rule may be its '}'; not here
        hint = _item_hint(token)
    else:
        place = f"in {where}"
        hint = _unclosed_hint(chunk, pos, start, path) or _hint_for(token, expected, where, chunk[:pos])
    return Diagnostic(Span(path, line, col, line, end), "R001",
                      f"unexpected {what} {place}; expected {_expected(expected)}", hint=hint)


def _between_items(chunk: str, pos: int) -> bool:
    """Whether the token at pos starts an unindented line with every bracket before it closed."""
    line_start = chunk.rfind("\n", 0, pos) + 1
    return pos == line_start and line_start > 0 and not open_brackets(chunk[:line_start])


# Words a newcomer writes where an item starts, and the keyword the language has for each.
# (Only names: `let` and `list` are keywords, which the lexer never gives as a name.)
_ITEM_WORDS = {"clause": "rule", "section": "rule", "chapter": "rule", "def": "define", "function": "define",
               "fn": "define", "constant": "const", "type": "record", "struct": "record", "class": "record",
               "lookup": "table", "check": "invariant", "assert": "invariant"}
_ITEM_SHAPES = {"rule": 'rule 4.5a "Title" { ... }', "define": 'define name(u: Unit) -> int "Title" = ...',
                "const": 'const name "Title" = 3', "enum": 'enum Name "Title" { - member "Title" }',
                "record": 'record Name "Title" { field: int = 0 "Title" }'}


def _item_hint(token: Token) -> str | None:
    """What an unknown word where an item starts may have meant: `clause 4.5` -> rule."""
    word = str(token)
    if token.type != "NAME":
        return None
    meant = _ITEM_WORDS.get(word.lower())
    if meant is None:
        close = difflib.get_close_matches(word.lower(), TOP_KEYWORDS, n=1, cutoff=0.75)
        meant = close[0] if close else None
    if meant is None:
        return "each item starts with its keyword: rule, define, const, enum, record, table, override, ..."
    shape = _ITEM_SHAPES.get(meant)
    return f"did you mean '{meant}'?" + (f" it is written {shape}" if shape else "")


def open_brackets(text: str) -> list[tuple[str, int]]:
    """The brackets ((, [ and {) the text opens and leaves open, outermost first, each with where it
    is (its offset in the text). Those in quoted texts and comments do not count."""
    still_open: list[tuple[str, int]] = []
    for found in _BRACKETS.finditer(text):
        what = found.group()
        if what in _CLOSER:
            still_open.append((what, found.start()))
        elif what in _CLOSER_TERMINAL and still_open:
            still_open.pop()
    return still_open


def _closer_awaited(text: str) -> str:
    """The bracket that closes the innermost one the text leaves open: what a text that ends too
    early most likely lacks; '}' when none is open."""
    still_open = open_brackets(text)
    return _CLOSER[still_open[-1][0]] if still_open else "}"


def _unclosed_hint(chunk: str, pos: int, start: int, path: str) -> str | None:
    """Where a '}' may be missing, when the mistake (at `pos`) is on a line that starts, unindented,
    with a keyword that starts an item (`const k "K" = 1` after an enum left open) while a '{' is
    still open, and the text parses past the mistake with a '}' put before that line. (That test
    keeps the hint off an unindented `const` in a rule's body, which is no mistake.)"""
    line_start = chunk.rfind("\n", 0, pos) + 1
    still_open = open_brackets(chunk[:line_start])
    if not _TOP_LINE.match(chunk[line_start:]) or not still_open or still_open[-1][0] != "{":
        return None
    try:
        _reduce(f"{chunk[:line_start]}}} {chunk[line_start:]}", path, "start")
    except UnexpectedInput as again:
        at_end = isinstance(again, UnexpectedToken) and again.token.type == "$END"
        if not at_end and (again.pos_in_stream or 0) <= pos + 2:
            return None
    opened = start + chunk.count("\n", 0, still_open[-1][1])
    return f"is a '}}' missing before this line? the '{{' on line {opened} is still open here"


def _hint_for(token: Token, expected: set[str], where: str = "", before: str = "") -> str | None:
    kind = where.split(" ")[0]
    if expected == {"EXTENDS"} and kind in ("game", "scenario", "option"):
        return (f"a {kind} names the layer it is over first, then its own version: "
                f'{kind} NAME "Title" extends LAYER version "1"')
    if kind == "override" and token.type == "STRING" and "COLON" in expected:
        return 'a new title is one of the changes, after the colon: override 4.8 stacking: title "..."'
    if str(token) == "for" and "RSQB" in expected:  # [u.sp for u in h.units]
        return ("a list is written item by item ([5, 4]); to go over a list's items, use sum, count, min, max, "
                "first, any or all: sum(u.sp for u in h.units)")
    if str(token) == "*" and {"NAME", "NUMBER"} <= expected:  # u.sp ** 3
        return "the rules have no power operator: multiply (u.sp * u.sp * u.sp)"
    if token.type == "NUMBER" and "RULENUM" in expected:
        return "rule numbers carry a dot and a part after it, such as 4.5a or 13.0"
    if str(token) == "=" and ("COMP" in expected or "STRING" not in expected and re.search(r"[\w\")\]]\s*$", before)):
        # after a value: a comparison written with one '=' (where a definition may say what it
        # `requires` before its '=', the parser has taken the value as the whole body by then)
        return "compare with '==' ('=' is only for settings)"
    if "RBRACE" in expected and token.type in ("RULE", "OVERRIDE", "ENUM", "TABLE", "DEFINE"):
        return "a '}' may be missing before this line"
    return None
