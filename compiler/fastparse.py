"""Parse a rules file straight into compiler.ast: Lark's LALR tables, our own reductions.

Letting Lark build a parse tree (positions carried up through every node), walking that tree for
the limits and the escapes, then transforming it took 1.7 times as long as Lark's own parse. Here
each reduction of the LALR parser makes its compiler.ast node at once, with the span Lark would have
given it, so no parse tree is made at all.

This is the plain path only. At the first sign of anything a diagnostic is about (a syntax error,
a limit reached, an unknown escape, a zero denominator) it raises Unusual, and compiler.parser
parses the file again the careful way, which words the diagnostics. So every diagnostic still has
one source, and this path only has to agree with the careful one on files without a mistake
(tests/test_parser_fast.py compares the two).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, partial
from operator import itemgetter
from typing import Any

from lark import Lark, Token
from lark.exceptions import UnexpectedInput
from lark.grammar import Rule, Terminal

from .astbuild import AstBuilder, BadLiteral
from .diagnostics import Span
from .limits import MAX_DEPTH, MAX_DIGITS, MAX_LIST, MAX_PARTS, MAX_RULENUM


class Unusual(Exception):
    """This file needs the careful path: it has a mistake, or comes near a limit."""


def parse_items(lark: Lark, text: str, path: str) -> list[Any]:
    """The top-level items of a file without a mistake; raises Unusual for any other file."""
    reductions = _Reductions(path, _plans(lark))
    interactive = lark.parse_interactive(text, start="start")
    # The parse's own configuration, made afresh for each parse: only this parse sees our callbacks.
    interactive.parser_state.parse_conf.callbacks = reductions.callbacks
    try:
        node: _Node = interactive.resume_parse()  # type: ignore[no-untyped-call]
    except (UnexpectedInput, BadLiteral) as e:
        raise Unusual from e
    items: list[Any] = node.value
    return items


# ---- how each grammar rule is reduced -------------------------------------------------

TOKEN, NODE, SPLICE = "token", "node", "splice"  # what a kept child is


@dataclass(frozen=True)
class _Plan:
    """How to reduce one grammar rule, worked out once, as Lark's tree builder would shape it
    (lark.parse_tree_builder: maybe_create_child_filter, ExpandSingleChild)."""

    kind: str     # "node": a node of Lark's tree, made by the AstBuilder method `method`;
                  # "splice": a _rule, whose children go into its parent's;
                  # "pass": a ?rule left with one child, which stands for it
    method: str
    keep: tuple[tuple[int, str, int], ...]  # (index among the rule's symbols, TOKEN/NODE/SPLICE, Nones before it)
    nones_after: int
    bare: bool    # "pass": the one child is all the rule matched (no brackets around it)


@cache
def _plans(lark: Lark) -> dict[Rule, _Plan]:
    starts = set(lark.options.start)
    return {rule: _plan(rule, starts) for rule in lark.rules}


def _plan(rule: Rule, starts: set[str]) -> _Plan:
    """Raises NotImplementedError for a rule shape the grammar does not use (so a change to the
    grammar that needs more here fails every test at once, rather than parse differently)."""
    name, options = rule.origin.name, rule.options
    keep, nones_after = _kept(rule)
    method = rule.alias or name
    if not rule.expansion and name not in starts:
        raise NotImplementedError(f"a rule that can match nothing: {rule}")
    if options.template_source is not None:
        raise NotImplementedError(f"a template rule: {rule}")
    if name.startswith("_"):
        if options.expand1:
            raise NotImplementedError(f"an inlined ?_rule: {rule}")
        return _Plan("splice", method, keep, nones_after, False)
    if options.expand1 and not rule.alias:
        if len(keep) != 1 or keep[0][1] != NODE or keep[0][2] or nones_after:
            raise NotImplementedError(f"a ?rule that is not one rule, bare or in brackets: {rule}")
        return _Plan("pass", method, keep, 0, len(rule.expansion) == 1)
    if not hasattr(AstBuilder, method):
        raise NotImplementedError(f"no AstBuilder method for {method}")
    return _Plan("node", method, keep, nones_after, False)


def _kept(rule: Rule) -> tuple[tuple[tuple[int, str, int], ...], int]:
    """The children Lark keeps (anonymous tokens such as "rule" and "{" dropped), each with the
    number of None placeholders put before it for [optional] parts left out; and those after."""
    expansion = rule.expansion
    if rule.options.empty_indices:  # one flag per position: True where a left-out part was
        flags = "".join(str(int(b)) for b in rule.options.empty_indices)
        nones = [len(ones) for ones in flags.split("0")]
    else:
        nones = [0] * (len(expansion) + 1)
    keep = []
    pending = 0
    for i, sym in enumerate(expansion):
        pending += nones[i]
        if isinstance(sym, Terminal) and sym.filter_out and not rule.options.keep_all_tokens:
            continue
        what = TOKEN if sym.is_term else SPLICE if sym.name.startswith("_") else NODE
        keep.append((i, what, pending))
        pending = 0
    return tuple(keep), pending + nones[len(expansion)]


# ---- the reductions ---------------------------------------------------------------------


class _Node:
    """A reduced rule's value and the place of its text. The place has a Token's attribute names,
    so a parent reads its first and last child's place alike from either. For a rule written in
    brackets, the place takes in the brackets (Lark's "container"), while the value's span does not.
    height: the levels of Lark's tree this value stands for (for MAX_DEPTH)."""

    __slots__ = ("value", "line", "column", "end_line", "end_column", "height")

    def __init__(self, value: Any, first: Any, last: Any, height: int):
        self.value = value
        self.line, self.column = first.line, first.column
        self.end_line, self.end_column = last.end_line, last.end_column
        self.height = height


_NOWHERE = Token("NOWHERE", "", line=1, column=1, end_line=1, end_column=1)  # the place of an empty file


class _Reductions:
    """The LALR parser's callbacks for one file: a reduction for each grammar rule, and checks on
    the tokens whose limits a diagnostic is about."""

    def __init__(self, path: str, plans: dict[Rule, _Plan]):
        self.path = path
        self.build = AstBuilder(path)
        self.parts = 0
        self.callbacks: dict[Any, Callable[[Any], Any]] = {
            "NUMBER": _check_number, "RULENUM": _check_rulenum, "STRING": _check_string}
        for rule, plan in plans.items():
            self.callbacks[rule] = self._reduction(plan)

    def _reduction(self, plan: _Plan) -> Callable[[list[Any]], Any]:
        if plan.kind == "pass":
            return itemgetter(0) if plan.bare else partial(_bracketed, plan.keep[0][0])
        if plan.kind == "splice":
            return partial(_splice, plan.keep, plan.nones_after)
        return partial(self._node, plan.keep, plan.nones_after, getattr(self.build, plan.method))

    def _node(self, keep: tuple[tuple[int, str, int], ...], nones_after: int,
              method: Callable[[Span, list[Any]], Any], s: list[Any]) -> _Node:
        """A node of Lark's tree, made into compiler.ast at once; Unusual if it passes a limit."""
        c, height = _children(keep, nones_after, s)
        self.parts += 1
        # This node is height + 1 levels high: more than MAX_DEPTH, and the root is too. A list
        # counts its None placeholders too: a few more files than need it take the careful path.
        if height >= MAX_DEPTH or len(c) > MAX_LIST or self.parts > MAX_PARTS:
            raise Unusual
        first: Any = s[0] if s else _NOWHERE
        last: Any = s[-1] if s else _NOWHERE
        span = Span(self.path, first.line, first.column, last.end_line, last.end_column)
        return _Node(method(span, c), first, last, height + 1)


def _children(keep: tuple[tuple[int, str, int], ...], nones_after: int, s: list[Any]) -> tuple[list[Any], int]:
    """The children a transformer would see (placeholders in, _rules spliced), and their height."""
    c: list[Any] = []
    height = 0
    for i, what, nones in keep:
        if nones:
            c += [None] * nones
        x = s[i]
        if what == TOKEN:
            c.append(x)
            continue
        if x.height > height:
            height = x.height
        if what == NODE:
            c.append(x.value)
        elif c:
            c += x.value
        else:  # a left-recursive list (item*): take it over rather than copy it for every item
            c = x.value
    if nones_after:
        c += [None] * nones_after
    return c, height


def _splice(keep: tuple[tuple[int, str, int], ...], nones_after: int, s: list[Any]) -> _Node:
    c, height = _children(keep, nones_after, s)
    return _Node(c, s[0], s[-1], height)


def _bracketed(index: int, s: list[Any]) -> _Node:
    """( expr ): the expression itself, in a place that takes in the brackets."""
    inner = s[index]
    return _Node(inner.value, s[0], s[-1], inner.height)


# ---- tokens -------------------------------------------------------------------------------


def _check_number(tok: Token) -> Token:
    if not tok.isascii() or len(tok) > MAX_DIGITS:  # the grammar's \d takes any digit
        raise Unusual
    return tok


def _check_rulenum(tok: Token) -> Token:
    if not tok.isascii() or len(tok) > MAX_RULENUM:
        raise Unusual
    return tok


def _check_string(tok: Token) -> Token:
    if "\\" in tok and _bad_escape(tok):
        raise Unusual
    return tok


def _bad_escape(raw: str) -> bool:
    """Whether a quoted text has an escape other than \\" \\\\ \\n \\t."""
    i = raw.find("\\")
    while i != -1:
        if i + 1 < len(raw) and raw[i + 1] not in '"\\nt':
            return True
        i = raw.find("\\", i + 2)
    return False
