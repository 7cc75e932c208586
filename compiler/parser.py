"""Parse rules text into the syntax tree (compiler.ast), or into located syntax diagnostics."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import Any

from lark import Lark, Token, Transformer, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.lexer import PatternStr

from . import ast, fastparse
from .astbuild import AstBuilder, BadLiteral
from .diagnostics import Diagnostic, Span
from .limits import MAX_DEPTH, MAX_DIGITS, MAX_FILE_BYTES, MAX_LIST, MAX_NESTING, MAX_PARTS, MAX_RULENUM

TOP_KEYWORDS = (
    "series game scenario option in ruleset rule external override except "
    "enum ordered cyclic record define const table limits invariant"
).split()
_TOP_LINE = re.compile(r"^(?:{})\b".format("|".join(TOP_KEYWORDS)))
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


def grammar_text() -> str:
    """The grammar, compiler/rules.lark: package data, read the same way from a checkout and from
    an installed wheel."""
    return resources.files("compiler").joinpath("rules.lark").read_text(encoding="utf-8")


@cache
def lark_parser() -> Lark:
    """The one LALR parser (built once per process)."""
    return Lark(
        grammar_text(),
        parser="lalr",
        lexer="contextual",
        propagate_positions=True,
        maybe_placeholders=True,
        start=["start", "query"],
    )


def parse(text: str, path: str) -> tuple[ast.File | None, list[Diagnostic]]:
    """Parse one file. A file without a mistake takes the fast path (compiler.fastparse: no parse
    tree); any other is parsed again carefully. On syntax errors, every top-level item is parsed on
    its own so that all of them are reported, each at its own line."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        span = Span(path, 1, 1, 1, 2)
        return None, [Diagnostic(span, "R005", f"file is larger than {MAX_FILE_BYTES:,} bytes",
                                 hint="split the rules into several files")]
    deep = _too_deep(text, path)
    if deep:
        return None, [deep]
    try:
        return ast.File(path, tuple(fastparse.parse_items(lark_parser(), text, path))), []
    except fastparse.Unusual:
        return _parse_carefully(text, path)


def _parse_carefully(text: str, path: str) -> tuple[ast.File | None, list[Diagnostic]]:
    """Parse through Lark's parse tree, checking it for every diagnostic the parser gives: the path
    of a file with a mistake (and of any file fastparse finds unusual), and the reference for fastparse."""
    try:
        tree = lark_parser().parse(text, start="start")
    except UnexpectedInput:
        return None, _collect_errors(text, path)
    bad = _limit_errors(tree, path, 1) or _escape_errors(tree, path, 1)
    if bad:
        return None, bad
    try:
        items = _TreeToAst(path).transform(tree)
    except BadLiteral as e:
        return None, [e.diagnostic]
    return ast.File(path, tuple(items)), []


def parse_query(text: str, path: str = "<query>") -> tuple[ast.Expr | None, list[Diagnostic]]:
    """Parse one expression, as `rulec eval` takes it."""
    deep = _too_deep(text, path)
    if deep:
        return None, [deep]
    try:
        tree = lark_parser().parse(text, start="query")
    except UnexpectedInput as e:
        return None, [_syntax_diagnostic(e, text, 1, path)]
    bad = _limit_errors(tree, path, 1)
    if bad:
        return None, bad
    try:
        expr: ast.Expr = _TreeToAst(path).transform(tree)
    except BadLiteral as e:
        return None, [e.diagnostic]
    return expr, []


_BRACKET = re.compile(r"[()\[\]{}]")


def _too_deep(text: str, path: str) -> Diagnostic | None:
    """Brackets nested more than MAX_NESTING deep, at the first one too deep (a regular expression
    finds the brackets: a loop over every character took a twentieth of the whole parse)."""
    depth = 0
    for m in _BRACKET.finditer(text):
        if m.group() in "([{":
            depth += 1
            if depth > MAX_NESTING:
                pos = m.start()
                line, col = text.count("\n", 0, pos) + 1, pos - text.rfind("\n", 0, pos)
                return Diagnostic(Span(path, line, col, line, col + 1), "R005",
                                  f"brackets nested more than {MAX_NESTING} deep",
                                  hint="split the expression into named definitions")
        else:
            depth = max(0, depth - 1)
    return None


def _limit_errors(tree: Tree[Token], path: str, start: int) -> list[Diagnostic]:
    """Inputs too big for the compiler, each at its place: nesting deeper than MAX_DEPTH, a number
    longer than MAX_DIGITS, more than MAX_PARTS parts in the file or MAX_LIST items in one list.
    Walks the tree without recursion: this is what makes the recursive stages after it safe."""
    out: list[Diagnostic] = []
    parts, deep = 0, False
    stack: list[tuple[Tree[Token] | Token, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, Token):
            if node.type in ("NUMBER", "RULENUM") and not node.isascii():  # the grammar's \d takes any digit
                out.append(Diagnostic(_token_span(node, path, start), "R002",
                                      f"a number written with digits other than 0-9: {str(node)!r}"))
            elif node.type == "RULENUM" and len(node) > MAX_RULENUM:
                out.append(Diagnostic(_token_span(node, path, start), "R006",
                                      f"a rule number of more than {MAX_RULENUM} characters",
                                      hint="no rulebook numbers its rules like this; check for a typing slip"))
            elif node.type in ("NUMBER", "RULENUM") and sum(c.isdigit() for c in node) > MAX_DIGITS:
                out.append(Diagnostic(_token_span(node, path, start), "R006",
                                      f"a number of more than {MAX_DIGITS} digits",
                                      hint="no rule needs a number this long; check for a typing slip"))
            continue
        if depth > MAX_DEPTH and not deep:
            deep = True
            out.append(Diagnostic(_node_span(node, path, start), "R008",
                                  f"nested more than {MAX_DEPTH} levels deep",
                                  hint="split the expression into named definitions; "
                                       "write a long chain of 'or' tests as 'x in {a, b, ...}'"))
            continue
        kids = [c for c in node.children if c is not None]
        if len(kids) > MAX_LIST:
            out.append(Diagnostic(_node_span(node, path, start), "R007",
                                  f"more than {MAX_LIST:,} items in one list",
                                  hint="split it into several declarations"))
            continue
        parts += 1
        if parts > MAX_PARTS:
            return out + [Diagnostic(_node_span(node, path, start), "R007",
                                     f"more than {MAX_PARTS:,} parts (clauses, declarations, rows, values, "
                                     "expressions) in one file",
                                     hint="split the rules into several files")]
        stack += [(c, depth + 1) for c in reversed(kids)]
    return sorted(out)


def _token_span(tok: Token, path: str, start: int) -> Span:
    line = start + (tok.line or 1) - 1
    return Span(path, line, tok.column or 1, line, (tok.column or 1) + len(tok))


def _node_span(node: Tree[Token], path: str, start: int) -> Span:
    meta = node.meta
    if getattr(meta, "empty", True):
        return Span(path, start, 1, start, 2)
    return Span(path, start + meta.line - 1, meta.column, start + meta.line - 1, meta.column + 1)


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
    escapes = []
    for start, chunk in _chunks(text):
        try:
            tree = lark_parser().parse(chunk, start="start")
        except UnexpectedInput as e:
            diags.append(_syntax_diagnostic(e, chunk, start, path))
        else:
            escapes += _limit_errors(tree, path, start) or _escape_errors(tree, path, start)
    if not diags:  # the split itself hid the error; report the whole-file one
        try:
            lark_parser().parse(text, start="start")
        except UnexpectedInput as e:
            diags.append(_syntax_diagnostic(e, text, 1, path))
    return sorted(diags + escapes)


def _escape_errors(tree: Tree[Token], path: str, start: int) -> list[Diagnostic]:
    """Every unknown escape in the quoted texts of a parsed tree, each at its backslash
    (`start` is the line of the file the tree's first line is)."""
    out = []
    for tok in tree.scan_values(lambda v: isinstance(v, Token) and v.type == "STRING"):
        raw = str(tok)
        line, col = start + (tok.line or 1) - 1, tok.column or 1
        i = 0
        while i < len(raw):
            if raw[i] == "\\" and i + 1 < len(raw):
                nxt = raw[i + 1]
                if nxt not in '"\\nt':
                    out.append(Diagnostic(Span(path, line, col, line, col + 2), "R001",
                                          f"unknown escape '\\{nxt}' in a quoted text",
                                          hint='write \\\\ for a backslash, \\" for a quote'))
                i, col = i + 2, col + 2
                continue
            if raw[i] == "\n":
                line, col = line + 1, 1
            else:
                col += 1
            i += 1
    return out


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
    for t in lark_parser().terminals:
        if t.name == terminal and isinstance(t.pattern, PatternStr):
            return f"'{t.pattern.value}'"
    return terminal


def _expected(expected: set[str]) -> str:
    if {"NAME", "NUMBER", "STRING"} <= expected:
        return "an expression"
    words = sorted((_describe(t) for t in expected), key=lambda w: (w != "'}'", w))  # a missing } first
    if len(words) > 6:
        words = words[:6] + ["..."]
    return ", ".join(words)


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
        return Diagnostic(Span(path, line, col, line, col + 1), "R002",
                          f"unexpected character {ch!r} in {where}", hint=hint)
    assert isinstance(e, UnexpectedToken)
    token = e.token
    if token.type == "$END":
        last = chunk.rstrip().split("\n")
        line = start + len(last) - 1
        col = len(last[-1]) + 1 if last else 1
        hint = "add the missing '}'" if "RBRACE" in e.expected else None
        return Diagnostic(Span(path, line, col, line, col + 1), "R003",
                          f"{where} ends too early; expected {_expected(set(e.expected))}", hint=hint)
    line = start + (token.line or 1) - 1
    col = token.column or 1
    end = col + max(1, len(str(token)))
    shown = str(token).split("\n")[0]
    what = _describe(token.type)
    if token.type == "STRING":
        what = "quoted text"
    elif not what.startswith("'"):  # a name, a number, a rule number, a comparison: show it
        what = repr(shown)
    return Diagnostic(Span(path, line, col, line, end), "R001",
                      f"unexpected {what} "
                      f"in {where}; expected {_expected(set(e.expected))}",
                      hint=_hint_for(token, set(e.expected)))


def _hint_for(token: Token, expected: set[str]) -> str | None:
    if token.type == "NUMBER" and "RULENUM" in expected:
        return "rule numbers carry a dot and a part after it, such as 4.5a or 13.0"
    if str(token) == "=" and "COMP" in expected:
        return "compare with '==' ('=' is only for settings)"
    if "RBRACE" in expected and token.type in ("RULE", "OVERRIDE", "ENUM", "TABLE", "DEFINE"):
        return "a '}' may be missing before this line"
    return None


# ---- the careful path: Lark's parse tree, then compiler.ast ----------------------------


class _TreeToAst(Transformer[Token, Any]):
    """Lark's parse tree -> compiler.ast, through the same AstBuilder as the inline reductions.
    Every rule goes to __default__, which Lark calls without wrapping errors in a VisitError:
    a BadLiteral comes out as itself."""

    def __init__(self, path: str):
        super().__init__()
        self.path = path
        self.build = AstBuilder(path)

    def __default__(self, data: str, children: list[Any], meta: Any) -> Any:
        return getattr(self.build, data)(self._span(meta), children)

    def _span(self, meta: Any) -> Span:
        if getattr(meta, "empty", True):
            return Span(self.path, 1, 1, 1, 1)
        return Span(self.path, meta.line, meta.column, meta.end_line, meta.end_column)
