"""The input limits: how big a rules file and its parts may be, and the diagnostics that say so.

Every limit is checked here, and only here. rulec.parser asks three things: whether the text
itself is too big to parse (`too_large`, `too_deep`), whether a parse comes near a limit (`near`,
asked of each node as the parse reduces it, and `token_passes`), and, only for a parse that does,
which limits it passes and where (`tree_errors`, over the file's concrete parse tree).
"""

from __future__ import annotations

import re
from typing import Any

from lark import Token, Tree

from .diagnostics import Diagnostic, Span
from .sources import MAX_FILE_BYTES as MAX_FILE_BYTES  # read no further (sources.read_rules_file)

MAX_NESTING = 100
# Limits that keep every later stage (all of them recursive over the tree) clear of Python's
# recursion limit and of work that grows faster than the input.
MAX_DEPTH = 60        # levels of the syntax tree: an expression of about 50 operators
MAX_DIGITS = 100      # digits of one number
MAX_RULENUM = 24      # characters of one rule number (19.A.1.a): it names a page of the rule sheet
MAX_PARTS = 100_000   # parts of a file: clauses, declarations, rows, values, expressions (ch13: 2,900;
                      # the 100k-clause benchmark's game file: 22,000)
MAX_LIST = 1_000      # items of one list: values of an enum, rows, arguments, [a, b, ...]

BRACKETS = "atom"  # the grammar's rule for an expression in brackets: no node of the syntax tree


# ---- before parsing -----------------------------------------------------------------------


def too_large(text: str, path: str) -> Diagnostic | None:
    if len(text.encode("utf-8", "surrogatepass")) <= MAX_FILE_BYTES:
        return None
    return Diagnostic(Span(path, 1, 1, 1, 2), "R005", f"file is larger than {MAX_FILE_BYTES:,} bytes",
                      hint="split the rules into several files")


_BRACKET = re.compile(r"[()\[\]{}]")


def too_deep(text: str, path: str) -> Diagnostic | None:
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


# ---- while parsing: a quick look that never misses --------------------------------------------


def near(height: int, children: int, parts: int) -> bool:
    """Whether a node may pass a limit: it is `height` levels high, has `children` children as the
    parse gives them (punctuation and placeholders counted, so never fewer than tree_errors
    counts), and is the file's `parts`-th node. False means tree_errors finds nothing."""
    return height > MAX_DEPTH or children > MAX_LIST or parts > MAX_PARTS


def token_passes(tok: Token) -> bool:
    """Whether a NUMBER or RULENUM token passes a limit (tree_errors says which, and where)."""
    if tok.isascii() and len(tok) <= (MAX_RULENUM if tok.type == "RULENUM" else MAX_DIGITS):
        return False  # the common case, answered without making a diagnostic
    return _token_error(tok, "", 1) is not None


# ---- the diagnostics ------------------------------------------------------------------------


def tree_errors(tree: Tree[Token], path: str, start: int, kept: frozenset[str]) -> list[Diagnostic]:
    """Inputs too big for the compiler, each at its place: nesting deeper than MAX_DEPTH, a number
    longer than MAX_DIGITS, more than MAX_PARTS parts in the file or MAX_LIST items in one list.

    `tree` is the concrete parse tree (every token kept); the limits are on the syntax tree, in
    which a node's items are its nodes and the tokens of the terminals the grammar names (`kept`),
    and brackets are no node. `start` is the line of the file the tree's first line is. Walks
    the tree without recursion: this is what makes the recursive stages after it safe."""
    out: list[Diagnostic] = []
    parts, deep = 0, False
    stack: list[tuple[Tree[Token] | Token, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, Token):
            bad = _token_error(node, path, start)
            if bad:
                out.append(bad)
            continue
        if depth > MAX_DEPTH and not deep:
            deep = True
            out.append(Diagnostic(_node_span(node, path, start), "R008",
                                  f"nested more than {MAX_DEPTH} levels deep",
                                  hint="split the expression into named definitions; "
                                       "write a long chain of 'or' tests as 'x in {a, b, ...}'"))
            continue
        kids = _items(node, kept)
        if _listed(kids) > MAX_LIST:
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


def _listed(kids: list[Tree[Token] | Token]) -> int:
    """How many items the list a node holds has: its items after the name, title, parameters and
    type that lead it (`enum E "E" { ... }`: the values; `table t(u: Unit) -> int "T" { ... }`: the
    rows; `f(...)`: the arguments). A node of tokens only (`see 1.1, 1.2`) is all list."""
    lead = 0
    for k in kids:
        if isinstance(k, Tree) and k.data != "params" and not k.data.startswith("t_"):
            break
        lead += 1
    return len(kids) - lead if lead < len(kids) else len(kids)


def _items(node: Tree[Token], kept: frozenset[str]) -> list[Tree[Token] | Token]:
    """A node's items in the syntax tree: its nodes (an expression in brackets standing for the
    brackets) and its named tokens; punctuation, keywords and placeholders left out."""
    out: list[Tree[Token] | Token] = []
    for c in node.children:
        if isinstance(c, Tree):
            while c.data == BRACKETS:  # "(" expr ")"
                inner = c.children[1]
                assert isinstance(inner, Tree)
                c = inner
            out.append(c)
        elif isinstance(c, Token) and c.type in kept:
            out.append(c)
    return out


def _token_error(tok: Token, path: str, start: int) -> Diagnostic | None:
    if tok.type not in ("NUMBER", "RULENUM"):
        return None
    line = start + (tok.line or 1) - 1
    span = Span(path, line, tok.column or 1, line, (tok.column or 1) + len(tok))
    if not tok.isascii():  # the grammar's \d takes any digit
        return Diagnostic(span, "R002", f"a number written with digits other than 0-9: {str(tok)!r}")
    if tok.type == "RULENUM" and len(tok) > MAX_RULENUM:
        return Diagnostic(span, "R006", f"a rule number of more than {MAX_RULENUM} characters",
                          hint="no rulebook numbers its rules like this; check for a typing slip")
    if len(tok) > MAX_DIGITS and sum(c.isdigit() for c in tok) > MAX_DIGITS:
        return Diagnostic(span, "R006", f"a number of more than {MAX_DIGITS} digits",
                          hint="no rule needs a number this long; check for a typing slip")
    return None


def _node_span(node: Tree[Token], path: str, start: int) -> Span:
    """The place of a node's first token (where the syntax tree's node starts)."""
    first = _first_token(node)
    if first is None:
        return Span(path, start, 1, start, 2)
    line = start + (first.line or 1) - 1
    return Span(path, line, first.column or 1, line, (first.column or 1) + 1)


def _first_token(node: Any) -> Token | None:
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Token):
            return n
        if isinstance(n, Tree):
            stack += reversed(n.children)
    return None
