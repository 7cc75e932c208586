"""Build compiler.ast nodes from a grammar rule's children: one method per rule or alias.

Two drivers call the same methods, so both give the same syntax tree: the inline reductions of
`compiler.fastparse` (no parse tree at all) and, when a file has a mistake, the walk over Lark's
parse tree in `compiler.parser`. Each method takes the node's span and its children as Lark
hands them to a transformer (anonymous tokens dropped, None for a missing optional part).
"""

from __future__ import annotations

import textwrap
from fractions import Fraction
from typing import Any

from lark import Token

from . import ast
from .diagnostics import Diagnostic, Span


class Dotted(tuple[str, ...]):
    """A dotted name (re_size.battalion) while the tree is built: a tuple that knows its span."""

    span: Span


_DECLS = (ast.EnumDecl, ast.RecordDecl, ast.DefineDecl, ast.ConstDecl, ast.TableDecl, ast.LimitsDecl)


class BadLiteral(Exception):
    """A literal the grammar accepts but the language does not (1/0, an unknown escape)."""

    def __init__(self, diagnostic: Diagnostic):
        self.diagnostic = diagnostic


def unquote(token: Token, path: str) -> str:
    """The text of a quoted STRING token: triple-quoted texts dedented, escapes decoded."""
    raw = str(token)
    if raw.startswith('"""'):
        body = raw[3:-3]
        if body.startswith("\n"):
            body = body[1:]
        body = textwrap.dedent(body).strip()
    else:
        body = raw[1:-1]
    if "\\" not in body:  # most texts: nothing to decode, and no loop over every character
        return body
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
                raise BadLiteral(Diagnostic(span, "R001", f"unknown escape '\\{nxt}' in a quoted text",
                                             hint='write \\\\ for a backslash, \\" for a quote'))
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


class AstBuilder:
    """Children -> compiler.ast, for one file.  One method per grammar rule or alias."""

    def __init__(self, path: str):
        self.path = path

    def _tok_span(self, tok: Token) -> Span:
        return Span(self.path, tok.line or 1, tok.column or 1, tok.end_line or 1, tok.end_column or 1)

    def _str(self, tok: Token | None) -> str | None:
        return None if tok is None else unquote(tok, self.path)

    # -- top level
    def start(self, span: Span, items: list[Any]) -> list[Any]:
        return items

    def series(self, span: Span, c: list[Any]) -> ast.LayerDecl:
        return ast.LayerDecl("series", str(c[0]), unquote(c[1], self.path), None, c[2], span)

    def _layer(self, kind: str, span: Span, c: list[Any]) -> ast.LayerDecl:
        return ast.LayerDecl(kind, str(c[0]), unquote(c[1], self.path), str(c[2]), c[3], span)

    def game(self, span: Span, c: list[Any]) -> ast.LayerDecl:
        return self._layer("game", span, c)

    def scenario(self, span: Span, c: list[Any]) -> ast.LayerDecl:
        return self._layer("scenario", span, c)

    def option(self, span: Span, c: list[Any]) -> ast.LayerDecl:
        return self._layer("option", span, c)

    def version(self, span: Span, c: list[Any]) -> str:
        return unquote(c[0], self.path)

    def in_layer(self, span: Span, c: list[Any]) -> ast.InLayer:
        return ast.InLayer(str(c[0]), span)

    def ruleset(self, span: Span, c: list[Any]) -> ast.Ruleset:
        options = [t for t in c[3:] if t is not None]
        return ast.Ruleset(str(c[0]), unquote(c[1], self.path), str(c[2]),
                           tuple(str(t) for t in options), span,
                           tuple(self._tok_span(t) for t in options))

    # -- clauses
    def rule(self, span: Span, c: list[Any]) -> ast.Rule:
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
            span=span,
            overrides=tuple(b for b in body if isinstance(b, ast.Override)),
        )

    def external(self, span: Span, c: list[Any]) -> ast.External:
        return ast.External(str(c[0]), self._str(c[1]), unquote(c[2], self.path), span)

    def text(self, span: Span, c: list[Any]) -> tuple[str, str]:
        return ("text", unquote(c[0], self.path))

    def note(self, span: Span, c: list[Any]) -> ast.Note:
        return ast.Note(None if c[0] is None else str(c[0]), unquote(c[1], self.path), span)

    def see(self, span: Span, c: list[Any]) -> tuple[str, tuple[ast.RuleRef, ...]]:
        return ("see", tuple(c))

    def rule_ref(self, span: Span, c: list[Any]) -> ast.RuleRef:
        return ast.RuleRef(str(c[0]), None if c[1] is None else str(c[1]), span)

    def cited(self, span: Span, c: list[Any]) -> ast.RuleRef:
        layer, number, item = c
        return ast.RuleRef(str(number), None if item is None else str(item), span,
                           None if layer is None else str(layer))

    # -- declarations
    def enum(self, span: Span, c: list[Any]) -> ast.EnumDecl:
        kind, name, title, *items = c
        return ast.EnumDecl(str(name), span, self._str(title), kind is not None,
                            tuple(i for i in items if isinstance(i, ast.EnumAttr)),
                            tuple(i for i in items if isinstance(i, ast.Member)),
                            cyclic=kind is not None and str(kind) == "cyclic")

    def enum_attr(self, span: Span, c: list[Any]) -> ast.EnumAttr:
        return ast.EnumAttr(str(c[0]), c[1], c[2], self._str(c[3]), span)

    def member(self, span: Span, c: list[Any]) -> ast.Member:
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
        return ast.Member(str(name), self._str(title), settings, see, tuple(texts), tuple(notes), span)

    def member_body(self, span: Span, c: list[Any]) -> list[Any]:
        return c

    def flag_on(self, span: Span, c: list[Any]) -> ast.Setting:
        return ast.Setting(str(c[0]), ast.Bool(span, True), span)

    def flag_off(self, span: Span, c: list[Any]) -> ast.Setting:
        return ast.Setting(str(c[0]), ast.Bool(span, False), span)

    def attr_set(self, span: Span, c: list[Any]) -> ast.Setting:
        return ast.Setting(str(c[0]), c[1], span)

    def record(self, span: Span, c: list[Any]) -> ast.RecordDecl:
        return ast.RecordDecl(str(c[0]), span, self._str(c[1]), tuple(c[2:]))

    def field(self, span: Span, c: list[Any]) -> ast.RecordField:
        return ast.RecordField(str(c[0]), c[1], c[2], self._str(c[3]), span)

    def define(self, span: Span, c: list[Any]) -> ast.DefineDecl:
        name, params, returns, title, body = c
        return ast.DefineDecl(str(name), span, params, returns, self._str(title), body)

    def invariant(self, span: Span, c: list[Any]) -> ast.DefineDecl:
        name, params, checks, title, body = c
        return ast.DefineDecl(str(name), span, params, ast.TypeRef("bool", span), self._str(title), body,
                              invariant=True, checks=None if checks is None else str(checks))

    def const(self, span: Span, c: list[Any]) -> ast.ConstDecl:
        return ast.ConstDecl(str(c[0]), span, self._str(c[1]), c[2])

    def params(self, span: Span, c: list[Any]) -> tuple[ast.Param, ...]:
        return tuple(p for p in c if p is not None)

    def param(self, span: Span, c: list[Any]) -> ast.Param:
        return ast.Param(str(c[0]), c[1], span, () if c[2] is None else (c[2],))

    def query(self, span: Span, c: list[Any]) -> ast.Expr:
        expr: ast.Expr = c[0]
        return expr

    def table(self, span: Span, c: list[Any]) -> ast.TableDecl:
        name, params, returns, title, *rows = c
        return ast.TableDecl(str(name), span, params, returns, self._str(title), tuple(rows))

    def row_when(self, span: Span, c: list[Any]) -> ast.Row:
        return ast.Row(str(c[0]), c[1], c[2], self._str(c[3]), span)

    def row_otherwise(self, span: Span, c: list[Any]) -> ast.Row:
        return ast.Row(str(c[0]), None, c[1], self._str(c[2]), span)

    def limits(self, span: Span, c: list[Any]) -> ast.LimitsDecl:
        name, params, title, *items = c
        return ast.LimitsDecl(str(name), span, params, self._str(title),
                              tuple(i for i in items if isinstance(i, ast.Unless)),
                              tuple(i for i in items if isinstance(i, ast.Limit)))

    def unless(self, span: Span, c: list[Any]) -> ast.Unless:
        return ast.Unless(c[0], self._str(c[1]), span)

    def limit(self, span: Span, c: list[Any]) -> ast.Limit:
        return ast.Limit(str(c[0]), self._str(c[1]), c[2], c[3], span)

    def except_table(self, span: Span, c: list[Any]) -> ast.ExceptTable:
        return ast.ExceptTable(tuple(c[0]), tuple(c[1:]), span)

    def except_limit(self, span: Span, c: list[Any]) -> ast.ExceptLimit:
        return ast.ExceptLimit(tuple(c[0]), c[1], self._str(c[2]), span)

    def dotted(self, span: Span, c: list[Any]) -> tuple[str, ...]:
        path = Dotted(str(t) for t in c)
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
        return ast.TypeRef("list", span, item=c[0])

    def t_set(self, span: Span, c: list[Any]) -> ast.TypeRef:
        return ast.TypeRef("set", span, item=c[0])

    def lit_number(self, span: Span, c: list[Any]) -> ast.Number:
        return ast.Number(span, Fraction(str(c[0])), str(c[0]))

    def lit_negative(self, span: Span, c: list[Any]) -> ast.Number:
        return ast.Number(span, -Fraction(str(c[0])), "-" + str(c[0]))

    def lit_fraction(self, span: Span, c: list[Any]) -> ast.Number:
        return self._fraction(span, c, 1)

    def lit_negative_fraction(self, span: Span, c: list[Any]) -> ast.Number:
        return self._fraction(span, c, -1)

    def _fraction(self, span: Span, c: list[Any], sign: int) -> ast.Number:
        if Fraction(str(c[1])) == 0:
            raise BadLiteral(Diagnostic(span, "R205", f"{c[0]}/{c[1]} divides by zero"))
        text = ("-" if sign < 0 else "") + f"{c[0]}/{c[1]}"
        return ast.Number(span, sign * Fraction(str(c[0])) / Fraction(str(c[1])), text)

    def lit_string(self, span: Span, c: list[Any]) -> ast.Text:
        return ast.Text(span, unquote(c[0], self.path))

    def lit_true(self, span: Span, c: list[Any]) -> ast.Bool:
        return ast.Bool(span, True)

    def lit_false(self, span: Span, c: list[Any]) -> ast.Bool:
        return ast.Bool(span, False)

    def lit_name(self, span: Span, c: list[Any]) -> ast.Name:
        return ast.Name(span, str(c[0]))

    # -- overrides
    def override(self, span: Span, c: list[Any]) -> ast.Override:
        number, target, *changes = c
        return ast.Override(str(number), tuple(target or ()), tuple(changes), span,
                            self._tok_span(number), None if target is None else target.span)

    def ch_value(self, span: Span, c: list[Any]) -> ast.Change:
        return ast.Change("value", span, expr=c[0])

    def ch_set(self, span: Span, c: list[Any]) -> ast.Change:
        return ast.Change("set", span, name=str(c[0]), expr=c[1])

    def ch_row(self, span: Span, c: list[Any]) -> ast.Change:
        return ast.Change("row", span, expr=c[0], expr2=c[1])

    def ch_bound(self, span: Span, c: list[Any]) -> ast.Change:
        return ast.Change("bound", span, expr=c[0])

    def ch_title(self, span: Span, c: list[Any]) -> ast.Change:
        return ast.Change("title", span, text=unquote(c[0], self.path))

    def ch_text(self, span: Span, c: list[Any]) -> ast.Change:
        return ast.Change("text", span, text=c[0][1])

    def ch_note(self, span: Span, c: list[Any]) -> ast.Change:
        return ast.Change("note", span, note=c[0])

    def ch_see(self, span: Span, c: list[Any]) -> ast.Change:
        return ast.Change("see", span, refs=c[0][1])

    # -- examples
    def example(self, span: Span, c: list[Any]) -> ast.Example:
        return ast.Example(self._str(c[0]), tuple(c[1:]), span)

    def let(self, span: Span, c: list[Any]) -> ast.Let:
        return ast.Let(str(c[0]), c[1], span)

    def expect(self, span: Span, c: list[Any]) -> ast.Expect:
        return ast.Expect(c[0], tuple(r for r in c[1:] if r is not None), span)

    # -- expressions
    def _op(self, op: str, span: Span, args: list[Any]) -> ast.Op:
        return ast.Op(span, op, tuple(args))

    def let_in(self, span: Span, c: list[Any]) -> ast.LetIn:
        return ast.LetIn(span, str(c[0]), c[1], c[2])

    def if_(self, span: Span, c: list[Any]) -> ast.If:
        return ast.If(span, c[0], c[1], c[2])

    def or_(self, span: Span, c: list[Any]) -> ast.Op:
        return self._op("or", span, c)

    def and_(self, span: Span, c: list[Any]) -> ast.Op:
        return self._op("and", span, c)

    def not_(self, span: Span, c: list[Any]) -> ast.Op:
        return self._op("not", span, c)

    def compare(self, span: Span, c: list[Any]) -> ast.Op:
        return self._op(str(c[1]), span, [c[0], c[2]])

    def in_(self, span: Span, c: list[Any]) -> ast.Op:
        return self._op("in", span, c)

    def not_in(self, span: Span, c: list[Any]) -> ast.Op:
        return self._op("not in", span, [c[0], c[2]])

    def add(self, span: Span, c: list[Any]) -> ast.Op:
        return self._op("+", span, c)

    def sub(self, span: Span, c: list[Any]) -> ast.Op:
        return self._op("-", span, c)

    def mul(self, span: Span, c: list[Any]) -> ast.Op:
        return self._op("*", span, c)

    def div(self, span: Span, c: list[Any]) -> ast.Op:
        return self._op("/", span, c)

    def neg(self, span: Span, c: list[Any]) -> ast.Op:
        return self._op("neg", span, c)

    def field_of(self, span: Span, c: list[Any]) -> ast.Field:
        return ast.Field(span, c[0], str(c[1]))

    def number(self, span: Span, c: list[Any]) -> ast.Number:
        return ast.Number(span, Fraction(str(c[0])), str(c[0]))

    def string(self, span: Span, c: list[Any]) -> ast.Text:
        return ast.Text(span, unquote(c[0], self.path))

    def true(self, span: Span, c: list[Any]) -> ast.Bool:
        return ast.Bool(span, True)

    def false(self, span: Span, c: list[Any]) -> ast.Bool:
        return ast.Bool(span, False)

    def name(self, span: Span, c: list[Any]) -> ast.Name:
        return ast.Name(span, str(c[0]))

    def call(self, span: Span, c: list[Any]) -> ast.Call:
        return ast.Call(span, str(c[0]), tuple(a for a in c[1:] if a is not None))

    def comprehension(self, span: Span, c: list[Any]) -> ast.Comprehension:
        fn, body, var, source, where = c
        return ast.Comprehension(span, str(fn), body, str(var), source, where)

    def record_lit(self, span: Span, c: list[Any]) -> ast.RecordLit:
        return ast.RecordLit(span, str(c[0]), tuple(f for f in c[1:] if f is not None))

    def field_init(self, span: Span, c: list[Any]) -> tuple[str, Any, Span]:
        return (str(c[0]), c[1], span)

    def list_lit(self, span: Span, c: list[Any]) -> ast.ListLit:
        return ast.ListLit(span, tuple(i for i in c if i is not None))

    def set_lit(self, span: Span, c: list[Any]) -> ast.SetLit:
        return ast.SetLit(span, tuple(i for i in c if i is not None))
