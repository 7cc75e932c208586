"""Parse rules text into the syntax tree (compiler.ast), or into located syntax diagnostics."""

from __future__ import annotations

import re
import textwrap
from fractions import Fraction
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError
from lark.lexer import PatternStr

from . import ast
from .diagnostics import Diagnostic, Span

MAX_FILE_BYTES = 2_000_000
MAX_NESTING = 100
# Limits that keep every later stage (all of them recursive over the tree) clear of Python's
# recursion limit and of work that grows faster than the input.
MAX_DEPTH = 60        # levels of the syntax tree: an expression of about 50 operators
MAX_DIGITS = 100      # digits of one number
MAX_RULENUM = 24      # characters of one rule number (19.A.1.a): it names a page of the rule sheet
MAX_PARTS = 100_000   # parts of a file: clauses, declarations, rows, values, expressions (ch13: 2,900;
                      # the 100k-clause benchmark's game file: 22,000)
MAX_LIST = 1_000      # items of one list: values of an enum, rows, arguments, [a, b, ...]

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
    """The grammar: from grammar/ in a checkout, else the copy installed with the package."""
    local = Path(__file__).resolve().parent.parent / "grammar" / "rules.lark"
    if local.is_file():
        return local.read_text(encoding="utf-8")
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
    """Parse one file. On syntax errors, every top-level item is parsed on its own
    so that all of them are reported, each at its own line."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        span = Span(path, 1, 1, 1, 2)
        return None, [Diagnostic(span, "R005", f"file is larger than {MAX_FILE_BYTES:,} bytes",
                                 hint="split the rules into several files")]
    deep = _too_deep(text, path)
    if deep:
        return None, [deep]
    try:
        tree = lark_parser().parse(text, start="start")
    except UnexpectedInput:
        return None, _collect_errors(text, path)
    bad = _limit_errors(tree, path, 1) or _escape_errors(tree, path, 1)
    if bad:
        return None, bad
    try:
        items = _ToAst(path).transform(tree)
    except VisitError as e:
        if isinstance(e.orig_exc, _BadLiteral):
            return None, [e.orig_exc.diagnostic]
        raise
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
        expr: ast.Expr = _ToAst(path).transform(tree)
    except VisitError as e:
        if isinstance(e.orig_exc, _BadLiteral):
            return None, [e.orig_exc.diagnostic]
        raise
    return expr, []


def _too_deep(text: str, path: str) -> Diagnostic | None:
    depth = 0
    line, col = 1, 0
    for ch in text:
        col += 1
        if ch == "\n":
            line, col = line + 1, 0
        elif ch in "([{":
            depth += 1
            if depth > MAX_NESTING:
                return Diagnostic(Span(path, line, col, line, col + 1), "R005",
                                  f"brackets nested more than {MAX_NESTING} deep",
                                  hint="split the expression into named definitions")
        elif ch in ")]}":
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


class _Dotted(tuple[str, ...]):
    """A dotted name (re_size.battalion) while the tree is built: a tuple that knows its span."""

    span: Span


_DECLS = (ast.EnumDecl, ast.RecordDecl, ast.DefineDecl, ast.ConstDecl, ast.TableDecl, ast.LimitsDecl)

# ---- tree to syntax tree ------------------------------------------------------


class _BadLiteral(Exception):
    def __init__(self, diagnostic: Diagnostic):
        self.diagnostic = diagnostic


def _unquote(token: Token, path: str) -> str:
    raw = str(token)
    if raw.startswith('"""'):
        body = raw[3:-3]
        if body.startswith("\n"):
            body = body[1:]
        body = textwrap.dedent(body).strip()
    else:
        body = raw[1:-1]
    out = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            if nxt in '"\\':
                out.append(nxt)
            elif nxt == "n":
                out.append("\n")
            elif nxt == "t":
                out.append("\t")
            else:
                line = token.line or 1
                span = Span(path, line, token.column or 1, line, (token.column or 1) + 1)
                raise _BadLiteral(Diagnostic(span, "R001", f"unknown escape '\\{nxt}' in a quoted text",
                                             hint='write \\\\ for a backslash, \\" for a quote'))
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


@v_args(meta=True)
class _ToAst(Transformer[Token, Any]):
    """Lark tree -> compiler.ast.  One method per grammar rule or alias."""

    def __init__(self, path: str):
        super().__init__()
        self.path = path

    def _span(self, meta: Any) -> Span:
        if getattr(meta, "empty", True):
            return Span(self.path, 1, 1, 1, 1)
        return Span(self.path, meta.line, meta.column, meta.end_line, meta.end_column)

    def _tok_span(self, tok: Token) -> Span:
        return Span(self.path, tok.line or 1, tok.column or 1, tok.end_line or 1, tok.end_column or 1)

    def _str(self, tok: Token | None) -> str | None:
        return None if tok is None else _unquote(tok, self.path)

    # -- top level
    def start(self, meta: Any, items: list[Any]) -> list[Any]:
        return items

    def series(self, meta: Any, c: list[Any]) -> ast.LayerDecl:
        return ast.LayerDecl("series", str(c[0]), _unquote(c[1], self.path), None, c[2], self._span(meta))

    def _layer(self, kind: str, meta: Any, c: list[Any]) -> ast.LayerDecl:
        return ast.LayerDecl(kind, str(c[0]), _unquote(c[1], self.path), str(c[2]), c[3], self._span(meta))

    def game(self, meta: Any, c: list[Any]) -> ast.LayerDecl:
        return self._layer("game", meta, c)

    def scenario(self, meta: Any, c: list[Any]) -> ast.LayerDecl:
        return self._layer("scenario", meta, c)

    def option(self, meta: Any, c: list[Any]) -> ast.LayerDecl:
        return self._layer("option", meta, c)

    def version(self, meta: Any, c: list[Any]) -> str:
        return _unquote(c[0], self.path)

    def in_layer(self, meta: Any, c: list[Any]) -> ast.InLayer:
        return ast.InLayer(str(c[0]), self._span(meta))

    def ruleset(self, meta: Any, c: list[Any]) -> ast.Ruleset:
        options = [t for t in c[3:] if t is not None]
        return ast.Ruleset(str(c[0]), _unquote(c[1], self.path), str(c[2]),
                           tuple(str(t) for t in options), self._span(meta),
                           tuple(self._tok_span(t) for t in options))

    # -- clauses
    def rule(self, meta: Any, c: list[Any]) -> ast.Rule:
        number, title, text_only, *body = c
        return ast.Rule(
            number=str(number),
            title=self._str(title),
            text_only=text_only is not None,
            texts=tuple(b[1] for b in body if isinstance(b, tuple) and b[0] == "text"),
            notes=tuple(b for b in body if isinstance(b, ast.Note)),
            see=tuple(r for b in body if isinstance(b, tuple) and b[0] == "see" for r in b[1]),
            decls=tuple(b for b in body if isinstance(b, _DECLS)),
            excepts=tuple(b for b in body if isinstance(b, (ast.ExceptTable, ast.ExceptLimit))),
            examples=tuple(b for b in body if isinstance(b, ast.Example)),
            span=self._span(meta),
            overrides=tuple(b for b in body if isinstance(b, ast.Override)),
        )

    def external(self, meta: Any, c: list[Any]) -> ast.External:
        return ast.External(str(c[0]), self._str(c[1]), _unquote(c[2], self.path), self._span(meta))

    def text(self, meta: Any, c: list[Any]) -> tuple[str, str]:
        return ("text", _unquote(c[0], self.path))

    def note(self, meta: Any, c: list[Any]) -> ast.Note:
        return ast.Note(None if c[0] is None else str(c[0]), _unquote(c[1], self.path), self._span(meta))

    def see(self, meta: Any, c: list[Any]) -> tuple[str, tuple[ast.RuleRef, ...]]:
        return ("see", tuple(c))

    def rule_ref(self, meta: Any, c: list[Any]) -> ast.RuleRef:
        return ast.RuleRef(str(c[0]), None if c[1] is None else str(c[1]), self._span(meta))

    def cited(self, meta: Any, c: list[Any]) -> ast.RuleRef:
        layer, number, item = c
        return ast.RuleRef(str(number), None if item is None else str(item), self._span(meta),
                           None if layer is None else str(layer))

    # -- declarations
    def enum(self, meta: Any, c: list[Any]) -> ast.EnumDecl:
        kind, name, title, *items = c
        return ast.EnumDecl(str(name), self._span(meta), self._str(title), kind is not None,
                            tuple(i for i in items if isinstance(i, ast.EnumAttr)),
                            tuple(i for i in items if isinstance(i, ast.Member)),
                            cyclic=kind is not None and str(kind) == "cyclic")

    def enum_attr(self, meta: Any, c: list[Any]) -> ast.EnumAttr:
        return ast.EnumAttr(str(c[0]), c[1], c[2], self._str(c[3]), self._span(meta))

    def member(self, meta: Any, c: list[Any]) -> ast.Member:
        name, title, *rest = c
        settings = tuple(r for r in rest if isinstance(r, ast.Setting))
        see = tuple(ref for r in rest if isinstance(r, tuple) and r and r[0] == "see" for ref in r[1])
        body = [r for r in rest if isinstance(r, list)]
        texts: list[str] = []
        notes: list[ast.Note] = []
        for part in body[0] if body else []:
            if isinstance(part, ast.Note):
                notes.append(part)
            elif part[0] == "text":
                texts.append(part[1])
            else:
                see = see + part[1]
        return ast.Member(str(name), self._str(title), settings, see, tuple(texts), tuple(notes), self._span(meta))

    def member_body(self, meta: Any, c: list[Any]) -> list[Any]:
        return c

    def flag_on(self, meta: Any, c: list[Any]) -> ast.Setting:
        span = self._span(meta)
        return ast.Setting(str(c[0]), ast.Bool(span, True), span)

    def flag_off(self, meta: Any, c: list[Any]) -> ast.Setting:
        span = self._span(meta)
        return ast.Setting(str(c[0]), ast.Bool(span, False), span)

    def attr_set(self, meta: Any, c: list[Any]) -> ast.Setting:
        return ast.Setting(str(c[0]), c[1], self._span(meta))

    def record(self, meta: Any, c: list[Any]) -> ast.RecordDecl:
        return ast.RecordDecl(str(c[0]), self._span(meta), self._str(c[1]), tuple(c[2:]))

    def field(self, meta: Any, c: list[Any]) -> ast.RecordField:
        return ast.RecordField(str(c[0]), c[1], c[2], self._str(c[3]), self._span(meta))

    def define(self, meta: Any, c: list[Any]) -> ast.DefineDecl:
        name, params, returns, title, body = c
        return ast.DefineDecl(str(name), self._span(meta), params, returns, self._str(title), body)

    def invariant(self, meta: Any, c: list[Any]) -> ast.DefineDecl:
        name, params, checks, title, body = c
        span = self._span(meta)
        return ast.DefineDecl(str(name), span, params, ast.TypeRef("bool", span), self._str(title), body,
                              invariant=True, checks=None if checks is None else str(checks))

    def const(self, meta: Any, c: list[Any]) -> ast.ConstDecl:
        return ast.ConstDecl(str(c[0]), self._span(meta), self._str(c[1]), c[2])

    def params(self, meta: Any, c: list[Any]) -> tuple[ast.Param, ...]:
        return tuple(p for p in c if p is not None)

    def param(self, meta: Any, c: list[Any]) -> ast.Param:
        return ast.Param(str(c[0]), c[1], self._span(meta), () if c[2] is None else (c[2],))

    def query(self, meta: Any, c: list[Any]) -> ast.Expr:
        expr: ast.Expr = c[0]
        return expr

    def table(self, meta: Any, c: list[Any]) -> ast.TableDecl:
        name, params, returns, title, *rows = c
        return ast.TableDecl(str(name), self._span(meta), params, returns, self._str(title), tuple(rows))

    def row_when(self, meta: Any, c: list[Any]) -> ast.Row:
        return ast.Row(str(c[0]), c[1], c[2], self._str(c[3]), self._span(meta))

    def row_otherwise(self, meta: Any, c: list[Any]) -> ast.Row:
        return ast.Row(str(c[0]), None, c[1], self._str(c[2]), self._span(meta))

    def limits(self, meta: Any, c: list[Any]) -> ast.LimitsDecl:
        name, params, title, *items = c
        return ast.LimitsDecl(str(name), self._span(meta), params, self._str(title),
                              tuple(i for i in items if isinstance(i, ast.Unless)),
                              tuple(i for i in items if isinstance(i, ast.Limit)))

    def unless(self, meta: Any, c: list[Any]) -> ast.Unless:
        return ast.Unless(c[0], self._str(c[1]), self._span(meta))

    def limit(self, meta: Any, c: list[Any]) -> ast.Limit:
        return ast.Limit(str(c[0]), self._str(c[1]), c[2], c[3], self._span(meta))

    def except_table(self, meta: Any, c: list[Any]) -> ast.ExceptTable:
        return ast.ExceptTable(tuple(c[0]), tuple(c[1:]), self._span(meta))

    def except_limit(self, meta: Any, c: list[Any]) -> ast.ExceptLimit:
        return ast.ExceptLimit(tuple(c[0]), c[1], self._str(c[2]), self._span(meta))

    def dotted(self, meta: Any, c: list[Any]) -> tuple[str, ...]:
        path = _Dotted(str(t) for t in c)
        path.span = self._span(meta)
        return path

    # -- types and literals
    def t_bool(self, meta: Any, c: list[Any]) -> ast.TypeRef:
        return ast.TypeRef("bool", self._span(meta))

    def t_int(self, meta: Any, c: list[Any]) -> ast.TypeRef:
        return ast.TypeRef("int", self._span(meta))

    def t_number(self, meta: Any, c: list[Any]) -> ast.TypeRef:
        return ast.TypeRef("number", self._span(meta))

    def t_text(self, meta: Any, c: list[Any]) -> ast.TypeRef:
        return ast.TypeRef("text", self._span(meta))

    def t_named(self, meta: Any, c: list[Any]) -> ast.TypeRef:
        return ast.TypeRef("named", self._span(meta), name=str(c[0]))

    def t_list(self, meta: Any, c: list[Any]) -> ast.TypeRef:
        return ast.TypeRef("list", self._span(meta), item=c[0])

    def t_set(self, meta: Any, c: list[Any]) -> ast.TypeRef:
        return ast.TypeRef("set", self._span(meta), item=c[0])

    def lit_number(self, meta: Any, c: list[Any]) -> ast.Number:
        return ast.Number(self._span(meta), Fraction(str(c[0])), str(c[0]))

    def lit_negative(self, meta: Any, c: list[Any]) -> ast.Number:
        return ast.Number(self._span(meta), -Fraction(str(c[0])), "-" + str(c[0]))

    def lit_fraction(self, meta: Any, c: list[Any]) -> ast.Number:
        return self._fraction(meta, c, 1)

    def lit_negative_fraction(self, meta: Any, c: list[Any]) -> ast.Number:
        return self._fraction(meta, c, -1)

    def _fraction(self, meta: Any, c: list[Any], sign: int) -> ast.Number:
        span = self._span(meta)
        if Fraction(str(c[1])) == 0:
            raise _BadLiteral(Diagnostic(span, "R205", f"{c[0]}/{c[1]} divides by zero"))
        text = ("-" if sign < 0 else "") + f"{c[0]}/{c[1]}"
        return ast.Number(span, sign * Fraction(str(c[0])) / Fraction(str(c[1])), text)

    def lit_string(self, meta: Any, c: list[Any]) -> ast.Text:
        return ast.Text(self._span(meta), _unquote(c[0], self.path))

    def lit_true(self, meta: Any, c: list[Any]) -> ast.Bool:
        return ast.Bool(self._span(meta), True)

    def lit_false(self, meta: Any, c: list[Any]) -> ast.Bool:
        return ast.Bool(self._span(meta), False)

    def lit_name(self, meta: Any, c: list[Any]) -> ast.Name:
        return ast.Name(self._span(meta), str(c[0]))

    # -- overrides
    def override(self, meta: Any, c: list[Any]) -> ast.Override:
        number, target, *changes = c
        return ast.Override(str(number), tuple(target or ()), tuple(changes), self._span(meta),
                            self._tok_span(number), None if target is None else target.span)

    def ch_value(self, meta: Any, c: list[Any]) -> ast.Change:
        return ast.Change("value", self._span(meta), expr=c[0])

    def ch_set(self, meta: Any, c: list[Any]) -> ast.Change:
        return ast.Change("set", self._span(meta), name=str(c[0]), expr=c[1])

    def ch_row(self, meta: Any, c: list[Any]) -> ast.Change:
        return ast.Change("row", self._span(meta), expr=c[0], expr2=c[1])

    def ch_bound(self, meta: Any, c: list[Any]) -> ast.Change:
        return ast.Change("bound", self._span(meta), expr=c[0])

    def ch_title(self, meta: Any, c: list[Any]) -> ast.Change:
        return ast.Change("title", self._span(meta), text=_unquote(c[0], self.path))

    def ch_text(self, meta: Any, c: list[Any]) -> ast.Change:
        return ast.Change("text", self._span(meta), text=c[0][1])

    def ch_note(self, meta: Any, c: list[Any]) -> ast.Change:
        return ast.Change("note", self._span(meta), note=c[0])

    def ch_see(self, meta: Any, c: list[Any]) -> ast.Change:
        return ast.Change("see", self._span(meta), refs=c[0][1])

    # -- examples
    def example(self, meta: Any, c: list[Any]) -> ast.Example:
        return ast.Example(self._str(c[0]), tuple(c[1:]), self._span(meta))

    def let(self, meta: Any, c: list[Any]) -> ast.Let:
        return ast.Let(str(c[0]), c[1], self._span(meta))

    def expect(self, meta: Any, c: list[Any]) -> ast.Expect:
        return ast.Expect(c[0], tuple(r for r in c[1:] if r is not None), self._span(meta))

    # -- expressions
    def _op(self, op: str, meta: Any, args: list[Any]) -> ast.Op:
        return ast.Op(self._span(meta), op, tuple(args))

    def let_in(self, meta: Any, c: list[Any]) -> ast.LetIn:
        return ast.LetIn(self._span(meta), str(c[0]), c[1], c[2])

    def if_(self, meta: Any, c: list[Any]) -> ast.If:
        return ast.If(self._span(meta), c[0], c[1], c[2])

    def or_(self, meta: Any, c: list[Any]) -> ast.Op:
        return self._op("or", meta, c)

    def and_(self, meta: Any, c: list[Any]) -> ast.Op:
        return self._op("and", meta, c)

    def not_(self, meta: Any, c: list[Any]) -> ast.Op:
        return self._op("not", meta, c)

    def compare(self, meta: Any, c: list[Any]) -> ast.Op:
        return self._op(str(c[1]), meta, [c[0], c[2]])

    def in_(self, meta: Any, c: list[Any]) -> ast.Op:
        return self._op("in", meta, c)

    def not_in(self, meta: Any, c: list[Any]) -> ast.Op:
        return self._op("not in", meta, [c[0], c[2]])

    def add(self, meta: Any, c: list[Any]) -> ast.Op:
        return self._op("+", meta, c)

    def sub(self, meta: Any, c: list[Any]) -> ast.Op:
        return self._op("-", meta, c)

    def mul(self, meta: Any, c: list[Any]) -> ast.Op:
        return self._op("*", meta, c)

    def div(self, meta: Any, c: list[Any]) -> ast.Op:
        return self._op("/", meta, c)

    def neg(self, meta: Any, c: list[Any]) -> ast.Op:
        return self._op("neg", meta, c)

    def field_of(self, meta: Any, c: list[Any]) -> ast.Field:
        return ast.Field(self._span(meta), c[0], str(c[1]))

    def number(self, meta: Any, c: list[Any]) -> ast.Number:
        return ast.Number(self._span(meta), Fraction(str(c[0])), str(c[0]))

    def string(self, meta: Any, c: list[Any]) -> ast.Text:
        return ast.Text(self._span(meta), _unquote(c[0], self.path))

    def true(self, meta: Any, c: list[Any]) -> ast.Bool:
        return ast.Bool(self._span(meta), True)

    def false(self, meta: Any, c: list[Any]) -> ast.Bool:
        return ast.Bool(self._span(meta), False)

    def name(self, meta: Any, c: list[Any]) -> ast.Name:
        return ast.Name(self._span(meta), str(c[0]))

    def call(self, meta: Any, c: list[Any]) -> ast.Call:
        return ast.Call(self._span(meta), str(c[0]), tuple(a for a in c[1:] if a is not None))

    def comprehension(self, meta: Any, c: list[Any]) -> ast.Comprehension:
        fn, body, var, source, where = c
        return ast.Comprehension(self._span(meta), str(fn), body, str(var), source, where)

    def record_lit(self, meta: Any, c: list[Any]) -> ast.RecordLit:
        return ast.RecordLit(self._span(meta), str(c[0]), tuple(f for f in c[1:] if f is not None))

    def field_init(self, meta: Any, c: list[Any]) -> tuple[str, Any, Span]:
        return (str(c[0]), c[1], self._span(meta))

    def list_lit(self, meta: Any, c: list[Any]) -> ast.ListLit:
        return ast.ListLit(self._span(meta), tuple(i for i in c if i is not None))

    def set_lit(self, meta: Any, c: list[Any]) -> ast.SetLit:
        return ast.SetLit(self._span(meta), tuple(i for i in c if i is not None))
