"""Build rulec.ast as the parser reduces each grammar rule: Lark's inline transformer.

The LALR parser calls `Reductions` at each reduction (Lark's `transformer=` option), so no parse
tree is made: each rule's node is made at once from its children, with the span Lark's
propagate_positions would give it (from its first token to its last, an expression in brackets
placed with them). The parser keeps every token (keep_all_tokens), so that span can be read off
the children, and each AstBuilder method reads its parts at fixed places: keywords and
punctuation are there too, and a None stands for each part of an [optional] group left out.

Alongside the tree, the reductions note what a diagnostic is about: whether the file comes near an
input limit (rulec.limits says which, if any, it passes), every unknown escape in a quoted text,
and a literal the language does not accept (1/0).
"""

from __future__ import annotations

import re
import textwrap
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from functools import partial
from typing import Any

from lark import Token, Transformer, Tree

from . import ast
from .diagnostics import Diagnostic, Span
from .limits import BRACKETS, near, token_passes


class Dotted(tuple[str, ...]):
    """A dotted name (re_size.battalion) while the tree is built: a tuple that knows its span."""

    span: Span


_DECLS = (ast.EnumDecl, ast.RecordDecl, ast.DefineDecl, ast.ConstDecl, ast.TableDecl, ast.LimitsDecl)

# ---- quoted texts ----------------------------------------------------------------------------

_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_DECODED = {'"': '"', "\\": "\\", "n": "\n", "t": "\t"}
ESCAPE_HINT = 'write \\\\ for a backslash, \\" for a quote'


def unquote(raw: str) -> tuple[str, list[int]]:
    """The value of a quoted text as written (a STRING token): the quotes taken off, a triple-quoted
    text dedented, the escapes \\" \\\\ \\n \\t decoded. And where every other escape's backslash
    is in `raw`: the language has no other, so any is a mistake."""
    if raw.startswith('"""'):
        body = raw[3:-3]
        if body.startswith("\n"):
            body = body[1:]
        body = textwrap.dedent(body).strip()
    else:
        body = raw[1:-1]
    if "\\" not in body:  # most texts: nothing to decode
        return body, []
    unknown = [m.start() for m in _ESCAPE.finditer(raw) if m.group(1) not in _DECODED]
    return _ESCAPE.sub(lambda m: _DECODED.get(m.group(1), m.group(0)), body), unknown


# ---- the reductions ----------------------------------------------------------------------------


class _Reduced:
    """A reduced rule: its rulec.ast value, the place of its text (Token's attribute names, so
    a parent reads its first and last child's place alike from either; for an expression in
    brackets, the brackets included, while the value's own span leaves them out), and the levels
    of the syntax tree it stands for."""

    __slots__ = ("value", "line", "column", "end_line", "end_column", "height")

    def __init__(self, value: Any, first: Any, last: Any, height: int):
        self.value = value
        self.line, self.column = first.line, first.column
        self.end_line, self.end_column = last.end_line, last.end_column
        self.height = height


_NOWHERE = Token("NOWHERE", "", line=1, column=1, end_line=1, end_column=1)  # the place of an empty file
_NUMBERS = frozenset({"NUMBER", "RULENUM"})


def _first(children: Any) -> Any:
    return next((c for c in children if c is not None), _NOWHERE)


class Reductions(Transformer[Token, Any]):
    """The one inline transformer of the rules grammar's parser. Lark takes each rule's callback
    from it once, when the parser is built: an attribute named after the rule (or its alias) for
    each AstBuilder method, __default__ for the rest. The file being parsed (its AstBuilder) is
    set per thread for the length of a parse, by `building`."""

    def __init__(self) -> None:
        super().__init__(visit_tokens=False)
        self._local = threading.local()
        for name, method in vars(AstBuilder).items():
            if callable(method) and not name.startswith("_"):
                setattr(self, name, partial(self._node, method))

    @contextmanager
    def building(self, builder: AstBuilder) -> Iterator[AstBuilder]:
        self._local.builder = builder
        try:
            yield builder
        finally:
            del self._local.builder

    def _node(self, method: Callable[[AstBuilder, Span, list[Any]], Any], c: list[Any]) -> _Reduced:
        """A node of the syntax tree, made by the AstBuilder method of its rule."""
        first = c[0] if c and c[0] is not None else _first(c)
        last = c[-1] if c and c[-1] is not None else _first(reversed(c))
        build: AstBuilder = self._local.builder
        height = 0
        for i, x in enumerate(c):
            if x.__class__ is _Reduced:
                if x.height > height:
                    height = x.height
                c[i] = x.value
            elif x.__class__ is Token and x.type in _NUMBERS and token_passes(x):
                build.near_limit = True
        build.parts += 1
        if near(height + 1, len(c), build.parts):
            build.near_limit = True
        span = Span(build.path, first.line, first.column, last.end_line, last.end_column)
        return _Reduced(method(build, span, c), first, last, height + 1)

    def __default__(self, data: str, c: list[Any], meta: Any) -> Any:
        """The rules no node is made for: brackets, and inlined rules (_item, x*), whose children
        Lark splices into their parent's."""
        if data == BRACKETS:  # ( expr ): the expression itself, placed with its brackets
            inner: _Reduced = c[1]
            return _Reduced(inner.value, c[0], c[-1], inner.height)
        assert data[0] == "_", f"no AstBuilder method for the rule {data}"
        return Tree(data, c)


# ---- the syntax tree -----------------------------------------------------------------------------


class AstBuilder:
    """Children -> rulec.ast, for one file: one method per grammar rule or alias. Notes the
    file's problems rather than raising them, so that one parse finds them all."""

    def __init__(self, path: str, first_line: int = 1):
        self.path = path
        self.first_line = first_line  # the line of the file the parsed text's first line is
        self.parts = 0  # the nodes made so far
        self.near_limit = False  # some node or token may pass an input limit (rulec.limits)
        self.escapes: list[Diagnostic] = []  # every unknown escape, at its backslash
        self.literal_errors: list[Diagnostic] = []  # bad literals, in the order they are read

    def _tok_span(self, tok: Token) -> Span:
        return Span(self.path, tok.line or 1, tok.column or 1, tok.end_line or 1, tok.end_column or 1)

    def _text(self, tok: Token) -> str:
        value, unknown = unquote(str(tok))
        if unknown:
            self._unknown_escapes(tok, unknown)
        return value

    def _number(self, tok: Token) -> Fraction:
        """A NUMBER's value; 0 for one past the limits, which reject the file (and which a
        thousand-digit number would take Python a long time, or refuse, to read)."""
        return Fraction(0) if token_passes(tok) else Fraction(str(tok))

    def _str(self, tok: Token | None) -> str | None:
        return None if tok is None else self._text(tok)

    def _unknown_escapes(self, tok: Token, unknown: list[int]) -> None:
        """Each unknown escape at its backslash; and, for a query, which reports only its first
        bad literal, the first one at the start of its text."""
        raw = str(tok)
        for i in unknown:
            newline = raw.rfind("\n", 0, i)
            line = self.first_line + (tok.line or 1) - 1 + raw.count("\n", 0, i)
            col = (tok.column or 1) + i if newline < 0 else i - newline
            self.escapes.append(Diagnostic(Span(self.path, line, col, line, col + 2), "R001",
                                           f"unknown escape '\\{raw[i + 1]}' in a quoted text", hint=ESCAPE_HINT))
        line, col = tok.line or 1, tok.column or 1
        self.literal_errors.append(Diagnostic(Span(self.path, line, col, line, col + 1), "R001",
                                              f"unknown escape '\\{raw[unknown[0] + 1]}' in a quoted text",
                                              hint=ESCAPE_HINT))

    # Each method's children are those of its grammar rule, every token kept: `series: "series"
    # NAME STRING [version]` gives [SERIES, NAME, STRING, version or None].

    # -- top level
    def start(self, span: Span, items: list[Any]) -> list[Any]:
        return items

    def series(self, span: Span, c: list[Any]) -> ast.LayerDecl:
        return ast.LayerDecl("series", str(c[1]), self._text(c[2]), None, c[3], span)

    def _layer(self, kind: str, span: Span, c: list[Any]) -> ast.LayerDecl:
        """KIND NAME STRING "extends" NAME [STRING] [version]: the STRING is the parent's version."""
        return ast.LayerDecl(kind, str(c[1]), self._text(c[2]), str(c[4]), c[6], span,
                             None if c[5] is None else self._text(c[5]))

    def game(self, span: Span, c: list[Any]) -> ast.LayerDecl:
        return self._layer("game", span, c)

    def scenario(self, span: Span, c: list[Any]) -> ast.LayerDecl:
        return self._layer("scenario", span, c)

    def option(self, span: Span, c: list[Any]) -> ast.LayerDecl:
        return self._layer("option", span, c)

    def version(self, span: Span, c: list[Any]) -> str:
        return self._text(c[1])

    def in_layer(self, span: Span, c: list[Any]) -> ast.InLayer:
        return ast.InLayer(str(c[1]), span)

    def ruleset(self, span: Span, c: list[Any]) -> ast.Ruleset:
        """"ruleset" NAME STRING "=" NAME ("with" NAME ("," NAME)*)?"""
        options = c[6::2]
        return ast.Ruleset(str(c[1]), self._text(c[2]), str(c[4]),
                           tuple(str(t) for t in options), span,
                           tuple(self._tok_span(t) for t in options))

    # -- cards
    def theme(self, span: Span, c: list[Any]) -> ast.ThemeDecl:
        """"theme" STRING"""
        return ast.ThemeDecl(self._text(c[1]), span)

    def card(self, span: Span, c: list[Any]) -> ast.Card:
        """"card" NAME STRING [card_size] [card_columns] [ILLUSTRATIVE] "{" card_show* "}"."""
        size: tuple[str, Span] | None = c[3]
        columns: tuple[int, Span] | None = c[4]
        shows = tuple(x for group in c[7:-1] for x in group)
        return ast.Card(str(c[1]), self._text(c[2]), None if size is None else size[0],
                        None if columns is None else columns[0], shows, span,
                        None if size is None else size[1], None if columns is None else columns[1],
                        illustrative=c[5] is not None)

    def card_size(self, span: Span, c: list[Any]) -> tuple[str, Span]:
        return str(c[1]), self._tok_span(c[1])

    def card_columns(self, span: Span, c: list[Any]) -> tuple[int, Span]:
        value = self._number(c[1])
        return (int(value) if value.denominator == 1 else 0), self._tok_span(c[1])

    def card_show(self, span: Span, c: list[Any]) -> list[ast.Shown]:
        return [x for x in c[1::2]]

    def shown(self, span: Span, c: list[Any]) -> ast.Shown:
        return ast.Shown(str(c[0]), None if c[1] is None else str(c[1]), span)

    # -- clauses
    def rule(self, span: Span, c: list[Any]) -> ast.Rule:
        """"rule" RULENUM [STRING] [TEXT_ONLY] [ILLUSTRATIVE] "{" _rule_item* "}"."""
        number, title, text_only, illustrative, body = c[1], c[2], c[3], c[4], c[6:-1]
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
            span=span,
            overrides=tuple(b for b in body if isinstance(b, ast.Override)),
            illustrative=illustrative is not None,
        )

    def external(self, span: Span, c: list[Any]) -> ast.External:
        """"external" RULENUM [STRING] "at" STRING ["{" _decl* "}"]"""
        decls = tuple(x for x in c[5:] if isinstance(x, _DECLS))
        return ast.External(str(c[1]), self._str(c[2]), self._text(c[4]), span, decls)

    def text(self, span: Span, c: list[Any]) -> tuple[str, str]:
        return ("text", self._text(c[1]))

    def note(self, span: Span, c: list[Any]) -> ast.Note:
        return ast.Note(None if c[1] is None else str(c[1]), self._text(c[2]), span)

    def see(self, span: Span, c: list[Any]) -> tuple[str, tuple[ast.RuleRef, ...]]:
        """"see" rule_ref ("," rule_ref)*"""
        return ("see", tuple(c[1::2]))

    def rule_ref(self, span: Span, c: list[Any]) -> ast.RuleRef:
        return ast.RuleRef(str(c[0]), None if c[1] is None else str(c[1]), span)

    def cited(self, span: Span, c: list[Any]) -> ast.RuleRef:
        layer, number, item = c
        return ast.RuleRef(str(number), None if item is None else str(item), span,
                           None if layer is None else str(layer))

    # -- declarations
    def enum(self, span: Span, c: list[Any]) -> ast.EnumDecl:
        """[ORDERED | CYCLIC] "enum" NAME [STRING] "{" _enum_item* "}"."""
        kind, name, title, items = c[0], c[2], c[3], c[5:-1]
        return ast.EnumDecl(str(name), span, self._str(title), kind is not None,
                            tuple(i for i in items if isinstance(i, ast.EnumAttr)),
                            tuple(i for i in items if isinstance(i, ast.Member)),
                            cyclic=kind is not None and str(kind) == "cyclic")

    def enum_attr(self, span: Span, c: list[Any]) -> ast.EnumAttr:
        """"has" NAME ":" type ["=" literal] [STRING]"""
        return ast.EnumAttr(str(c[1]), c[3], c[5], self._str(c[6]), span)

    def member(self, span: Span, c: list[Any]) -> ast.Member:
        """"-" NAME [STRING] setting* see? member_body?"""
        name, title, rest = c[1], c[2], c[3:]
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
        return ast.Member(str(name), self._str(title), settings, see, tuple(texts), tuple(notes), span)

    def member_body(self, span: Span, c: list[Any]) -> list[Any]:
        return c[1:-1]

    def flag_on(self, span: Span, c: list[Any]) -> ast.Setting:
        return ast.Setting(str(c[0]), ast.Bool(span, True), span)

    def flag_off(self, span: Span, c: list[Any]) -> ast.Setting:
        return ast.Setting(str(c[1]), ast.Bool(span, False), span)

    def attr_set(self, span: Span, c: list[Any]) -> ast.Setting:
        return ast.Setting(str(c[0]), c[2], span)

    def record(self, span: Span, c: list[Any]) -> ast.RecordDecl:
        """"record" NAME [STRING] "{" field* "}"."""
        return ast.RecordDecl(str(c[1]), span, self._str(c[2]), tuple(c[4:-1]))

    def field(self, span: Span, c: list[Any]) -> ast.RecordField:
        """NAME ":" type ["=" expr] [STRING]"""
        return ast.RecordField(str(c[0]), c[2], c[4], self._str(c[5]), span)

    def define(self, span: Span, c: list[Any]) -> ast.DefineDecl:
        """"define" NAME [params] ["->" type] [STRING] [says] [requires] "=" expr"""
        requires, requires_says = c[7] or (None, None)
        return ast.DefineDecl(str(c[1]), span, c[2], c[4], self._str(c[5]), c[9], says=c[6], requires=requires,
                              requires_says=requires_says)

    def invariant(self, span: Span, c: list[Any]) -> ast.DefineDecl:
        """"invariant" NAME params ["checks" NAME] [STRING] "=" expr"""
        checks = c[4]
        return ast.DefineDecl(str(c[1]), span, c[2], ast.TypeRef("bool", span), self._str(c[5]), c[7],
                              invariant=True, checks=None if checks is None else str(checks))

    def const(self, span: Span, c: list[Any]) -> ast.ConstDecl:
        """"const" NAME [STRING] [says] "=" expr"""
        return ast.ConstDecl(str(c[1]), span, self._str(c[2]), c[5], says=c[3])

    def params(self, span: Span, c: list[Any]) -> tuple[ast.Param, ...]:
        """"(" [param ("," param)*] ")"."""
        return tuple(p for p in c[1:-1:2] if p is not None)

    def param(self, span: Span, c: list[Any]) -> ast.Param:
        """NAME ":" type ["see" rule_ref]"""
        return ast.Param(str(c[0]), c[2], span, () if c[4] is None else (c[4],))

    def query(self, span: Span, c: list[Any]) -> ast.Expr:
        expr: ast.Expr = c[0]
        return expr

    def table(self, span: Span, c: list[Any]) -> ast.TableDecl:
        """"table" NAME params "->" type [STRING] [says] "{" [requires] row* "}"."""
        requires, requires_says = c[8] or (None, None)
        return ast.TableDecl(str(c[1]), span, c[2], c[4], self._str(c[5]), tuple(c[9:-1]), says=c[6],
                             requires=requires, requires_says=requires_says)

    def requires(self, span: Span, c: list[Any]) -> tuple[ast.Expr, str | None]:
        """"requires" expr [says]: the inputs a table or a definition answers, and a card's words for them."""
        return c[1], c[2]

    def row_when(self, span: Span, c: list[Any]) -> ast.Row:
        """NAME ":" "when" expr "=>" expr [STRING] [says]"""
        return ast.Row(str(c[0]), c[3], c[5], self._str(c[6]), span, says=c[7])

    def row_otherwise(self, span: Span, c: list[Any]) -> ast.Row:
        """NAME ":" "otherwise" "=>" expr [STRING] [says]"""
        return ast.Row(str(c[0]), None, c[4], self._str(c[5]), span, says=c[6])

    def limits(self, span: Span, c: list[Any]) -> ast.LimitsDecl:
        """"limits" NAME params [STRING] "{" _limit_item* "}"."""
        items = c[5:-1]
        return ast.LimitsDecl(str(c[1]), span, c[2], self._str(c[3]),
                              tuple(i for i in items if isinstance(i, ast.Unless)),
                              tuple(i for i in items if isinstance(i, ast.Limit)))

    def unless(self, span: Span, c: list[Any]) -> ast.Unless:
        return ast.Unless(c[1], self._str(c[2]), span)

    def limit(self, span: Span, c: list[Any]) -> ast.Limit:
        """NAME [STRING] [says] ":" expr "at" "most" expr"""
        return ast.Limit(str(c[0]), self._str(c[1]), c[4], c[7], span, says=c[2])

    def says(self, span: Span, c: list[Any]) -> str:
        """"says" STRING: the phrase a card prints."""
        return self._text(c[1])

    def except_table(self, span: Span, c: list[Any]) -> ast.ExceptTable:
        """"except" dotted "{" row* "}"."""
        return ast.ExceptTable(tuple(c[1]), tuple(c[3:-1]), span)

    def except_limit(self, span: Span, c: list[Any]) -> ast.ExceptLimit:
        """"except" dotted "when" expr [STRING]"""
        return ast.ExceptLimit(tuple(c[1]), c[3], self._str(c[4]), span)

    def dotted(self, span: Span, c: list[Any]) -> tuple[str, ...]:
        """NAME ("." NAME)*"""
        path = Dotted(str(t) for t in c[::2])
        path.span = span
        return path

    # -- types and literals
    def t_bool(self, span: Span, c: list[Any]) -> ast.TypeRef:
        return ast.TypeRef("bool", span)

    def t_int(self, span: Span, c: list[Any]) -> ast.TypeRef:
        return ast.TypeRef("int", span)

    def t_number(self, span: Span, c: list[Any]) -> ast.TypeRef:
        return ast.TypeRef("number", span)

    def t_text(self, span: Span, c: list[Any]) -> ast.TypeRef:
        return ast.TypeRef("text", span)

    def t_named(self, span: Span, c: list[Any]) -> ast.TypeRef:
        return ast.TypeRef("named", span, name=str(c[0]))

    def t_list(self, span: Span, c: list[Any]) -> ast.TypeRef:
        return ast.TypeRef("list", span, item=c[2])

    def t_set(self, span: Span, c: list[Any]) -> ast.TypeRef:
        return ast.TypeRef("set", span, item=c[2])

    def lit_number(self, span: Span, c: list[Any]) -> ast.Number:
        return ast.Number(span, self._number(c[0]), str(c[0]))

    def lit_negative(self, span: Span, c: list[Any]) -> ast.Number:
        return ast.Number(span, -self._number(c[1]), "-" + str(c[1]))

    def lit_fraction(self, span: Span, c: list[Any]) -> ast.Number:
        return self._fraction(span, c[0], c[2], 1)

    def lit_negative_fraction(self, span: Span, c: list[Any]) -> ast.Number:
        return self._fraction(span, c[1], c[3], -1)

    def _fraction(self, span: Span, top: Token, bottom: Token, sign: int) -> ast.Number:
        text = ("-" if sign < 0 else "") + f"{top}/{bottom}"
        denominator = self._number(bottom)
        if denominator == 0:
            self.literal_errors.append(Diagnostic(span, "R205", f"{top}/{bottom} divides by zero"))
            return ast.Number(span, Fraction(0), text)
        return ast.Number(span, sign * self._number(top) / denominator, text)

    def lit_string(self, span: Span, c: list[Any]) -> ast.Text:
        return ast.Text(span, self._text(c[0]))

    def lit_true(self, span: Span, c: list[Any]) -> ast.Bool:
        return ast.Bool(span, True)

    def lit_false(self, span: Span, c: list[Any]) -> ast.Bool:
        return ast.Bool(span, False)

    def lit_name(self, span: Span, c: list[Any]) -> ast.Name:
        return ast.Name(span, str(c[0]))

    # -- overrides
    def override(self, span: Span, c: list[Any]) -> ast.Override:
        """"override" RULENUM [dotted] ":" change+"""
        number, target = c[1], c[2]
        return ast.Override(str(number), tuple(target or ()), tuple(c[4:]), span,
                            self._tok_span(number), None if target is None else target.span)

    def ch_value(self, span: Span, c: list[Any]) -> ast.Change:
        return ast.Change("value", span, expr=c[0])

    def ch_set(self, span: Span, c: list[Any]) -> ast.Change:
        return ast.Change("set", span, name=str(c[0]), expr=c[2])

    def ch_row(self, span: Span, c: list[Any]) -> ast.Change:
        """"when" expr "=>" expr"""
        return ast.Change("row", span, expr=c[1], expr2=c[3])

    def ch_bound(self, span: Span, c: list[Any]) -> ast.Change:
        return ast.Change("bound", span, expr=c[2])

    def ch_requires(self, span: Span, c: list[Any]) -> ast.Change:
        """`requires CONDITION [says "..."]`: the inputs a table or definition answers, anew."""
        cond, words = c[0]
        return ast.Change("requires", span, expr=cond, text=words or "")

    def ch_title(self, span: Span, c: list[Any]) -> ast.Change:
        return ast.Change("title", span, text=self._text(c[1]))

    def ch_says(self, span: Span, c: list[Any]) -> ast.Change:
        """`says "..."`: the phrase a card prints for the new value."""
        return ast.Change("says", span, text=c[0])

    def ch_text(self, span: Span, c: list[Any]) -> ast.Change:
        return ast.Change("text", span, text=c[0][1])

    def ch_note(self, span: Span, c: list[Any]) -> ast.Change:
        return ast.Change("note", span, note=c[0])

    def ch_see(self, span: Span, c: list[Any]) -> ast.Change:
        return ast.Change("see", span, refs=c[0][1])

    # -- examples
    def example(self, span: Span, c: list[Any]) -> ast.Example:
        """"example" [STRING] "{" example_stmt* "}"."""
        return ast.Example(self._str(c[1]), tuple(c[3:-1]), span)

    def let(self, span: Span, c: list[Any]) -> ast.Let:
        """"let" NAME "=" expr"""
        return ast.Let(str(c[1]), c[3], span)

    def expect(self, span: Span, c: list[Any]) -> ast.Expect:
        """"expect" expr ("by" cited ("," cited)*)?"""
        return ast.Expect(c[1], tuple(c[3::2]), span)

    # -- expressions
    def _op(self, op: str, span: Span, args: list[Any]) -> ast.Op:
        return ast.Op(span, op, tuple(args))

    def let_in(self, span: Span, c: list[Any]) -> ast.LetIn:
        """"let" NAME "=" expr ";" expr"""
        return ast.LetIn(span, str(c[1]), c[3], c[5])

    def if_(self, span: Span, c: list[Any]) -> ast.If:
        """"if" expr "then" expr "else" expr"""
        return ast.If(span, c[1], c[3], c[5])

    def _binary(self, op: str, span: Span, c: list[Any]) -> ast.Op:
        """left OPERATOR right"""
        return ast.Op(span, op, (c[0], c[2]))

    def or_(self, span: Span, c: list[Any]) -> ast.Op:
        return self._binary("or", span, c)

    def and_(self, span: Span, c: list[Any]) -> ast.Op:
        return self._binary("and", span, c)

    def not_(self, span: Span, c: list[Any]) -> ast.Op:
        return ast.Op(span, "not", (c[1],))

    def compare(self, span: Span, c: list[Any]) -> ast.Op:
        return self._binary(str(c[1]), span, c)

    def in_(self, span: Span, c: list[Any]) -> ast.Op:
        return self._binary("in", span, c)

    def not_in(self, span: Span, c: list[Any]) -> ast.Op:
        return self._binary("not in", span, c)

    def add(self, span: Span, c: list[Any]) -> ast.Op:
        return self._binary("+", span, c)

    def sub(self, span: Span, c: list[Any]) -> ast.Op:
        return self._binary("-", span, c)

    def mul(self, span: Span, c: list[Any]) -> ast.Op:
        return self._binary("*", span, c)

    def div(self, span: Span, c: list[Any]) -> ast.Op:
        return self._binary("/", span, c)

    def neg(self, span: Span, c: list[Any]) -> ast.Op:
        return ast.Op(span, "neg", (c[1],))

    def field_of(self, span: Span, c: list[Any]) -> ast.Field:
        """expr "." NAME"""
        return ast.Field(span, c[0], str(c[2]))

    def number(self, span: Span, c: list[Any]) -> ast.Number:
        return ast.Number(span, self._number(c[0]), str(c[0]))

    def string(self, span: Span, c: list[Any]) -> ast.Text:
        return ast.Text(span, self._text(c[0]))

    def true(self, span: Span, c: list[Any]) -> ast.Bool:
        return ast.Bool(span, True)

    def false(self, span: Span, c: list[Any]) -> ast.Bool:
        return ast.Bool(span, False)

    def name(self, span: Span, c: list[Any]) -> ast.Name:
        return ast.Name(span, str(c[0]))

    def call(self, span: Span, c: list[Any]) -> ast.Call:
        """NAME "(" [expr ("," expr)*] ")"."""
        return ast.Call(span, str(c[0]), tuple(a for a in c[2:-1:2] if a is not None))

    def comprehension(self, span: Span, c: list[Any]) -> ast.Comprehension:
        """NAME "(" expr "for" NAME "in" expr ["where" expr] ")"."""
        return ast.Comprehension(span, str(c[0]), c[2], str(c[4]), c[6], c[8])

    def record_lit(self, span: Span, c: list[Any]) -> ast.RecordLit:
        """NAME "{" [field_init ("," field_init)*] "}"."""
        return ast.RecordLit(span, str(c[0]), tuple(f for f in c[2:-1:2] if f is not None))

    def field_init(self, span: Span, c: list[Any]) -> tuple[str, Any, Span]:
        return (str(c[0]), c[2], span)

    def list_lit(self, span: Span, c: list[Any]) -> ast.ListLit:
        """"[" [expr ("," expr)*] "]"."""
        return ast.ListLit(span, tuple(i for i in c[1:-1:2] if i is not None))

    def set_lit(self, span: Span, c: list[Any]) -> ast.SetLit:
        return ast.SetLit(span, tuple(i for i in c[1:-1:2] if i is not None))
