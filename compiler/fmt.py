"""Format rules text into the one canonical layout, keeping every comment.

The layout is a function of the parse tree alone: 2 spaces of indentation inside braces,
one item per line, lines up to WIDTH columns with long expressions wrapped at `and`/`or`,
between the elements of brackets, and before `then`/`else`. Only two things are taken
from the text as written: comments (each stays on the line of the token it was written
after, or above the token it was written before) and blank lines between items (at most
one is kept). So formatting is idempotent, and it only moves whitespace and comments:
`format_text` checks that the tokens of its output are the tokens of its input.
"""

from __future__ import annotations

import argparse
import bisect
import difflib
import os
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from lark import Token, Tree
from lark.exceptions import UnexpectedInput

from .astbuild import unquote
from .diagnostics import Diagnostic
from .parser import concrete_tree, parse
from .sources import read_rules_file

WIDTH = 120

Frag = tuple[str, int]  # text, and the start position of its source token (-1 for spaces)
Piece = tuple[int, list[Frag]]  # a line of an expression: its start column and its fragments
_SP: Frag = (" ", -1)
_NO_SPACE_BEFORE = {",", ")", "]", ".", ":", ";"}
_NO_SPACE_AFTER = {"(", "[", "."}
_BRACKETED = {"call", "list_lit", "set_lit", "record_lit", "params", "comprehension"}
# Binary operators by precedence level: a long chain of one level breaks before its operators.
# (A comparison breaks inside its operands instead: `== 1` alone on a line reads badly.)
_LEVELS = [{"or_"}, {"and_"}, {"add", "sub"}, {"mul", "div"}]
_LEVEL = {data: i for i, level in enumerate(_LEVELS) for data in level}


class FormatError(Exception):
    """The text does not parse (the diagnostics say where), or formatting would change its tokens."""

    def __init__(self, message: str, diagnostics: list[Diagnostic] | None = None) -> None:
        super().__init__(message)
        self.diagnostics = diagnostics or []


# ---- flat rendering ------------------------------------------------------------------


def _kids(node: Tree[Token]) -> list[Tree[Token] | Token]:
    return [k for k in node.children if k is not None]


def _first(node: Tree[Token] | Token) -> Token:
    if isinstance(node, Token):
        return node
    return _first(_kids(node)[0])


def _last(node: Tree[Token] | Token) -> Token:
    if isinstance(node, Token):
        return node
    return _last(_kids(node)[-1])


def _is_number(node: Tree[Token] | Token) -> bool:
    return isinstance(node, Tree) and node.data == "number"


def _space(node: Tree[Token], kids: list[Tree[Token] | Token], i: int) -> bool:
    """Is there a space between kids[i-1] and kids[i] of node?"""
    a, b = _last(kids[i - 1]), _first(kids[i])
    data = node.data
    if data in ("lit_negative", "lit_fraction", "lit_negative_fraction") or (data == "neg" and str(a) == "-"):
        return False
    if data == "member" and i == 1:
        return True
    if data in ("list_lit", "set_lit") and (str(a) in "[{" or str(b) in "]}"):
        return False
    if data == "record_lit" and str(a) == "{" and str(b) == "}":
        return False
    if data == "div" and _is_number(kids[0]) and _is_number(kids[-1]):  # a fraction is written 1/2
        return False
    if str(b) in _NO_SPACE_BEFORE or str(a) in _NO_SPACE_AFTER:
        return False
    return not (str(b) == "(" and a.type == "NAME")


def _flat(node: Tree[Token] | Token) -> list[Frag]:
    if isinstance(node, Token):
        return [(str(node), node.start_pos or 0)]
    kids = _kids(node)
    out: list[Frag] = []
    for i, k in enumerate(kids):
        if i and _space(node, kids, i):
            out.append(_SP)
        out += _flat(k)
    return out


def _width(frags: list[Frag]) -> int:
    return sum(len(t.split("\n", 1)[0]) for t, _ in frags)


# ---- expressions over several lines ----------------------------------------------------


def _end(lines: list[Piece]) -> int:
    col, frags = lines[-1]
    return col + _width(frags)


def _append(lines: list[Piece], more: list[Piece], space: bool) -> None:
    """Continue the last line with the first of `more`; the rest are new lines."""
    if space:
        lines[-1][1].append(_SP)
    lines[-1][1].extend(more[0][1])
    lines.extend(more[1:])


def _brk(node: Tree[Token] | Token, col: int, cont: int, trail: int = 0) -> list[Piece]:
    """Render node starting at column col, followed on its last line by `trail` columns of
    what comes after it; lines it needs after the first start at cont (or at an alignment
    the construct chooses)."""
    flat = _flat(node)
    if isinstance(node, Token) or col + _width(flat) + trail <= WIDTH:
        return [(col, flat)]
    if node.data in _LEVEL and len(_kids(node)) == 3:
        return _chain(node, col, cont, trail)
    if node.data == "if_":
        return _if(node, col, trail)
    if node.data == "let_in":
        return _let_in(node, col, cont, trail)
    if node.data in _BRACKETED:
        return _bracketed(node, col, trail)
    if node.data == "atom" and str(_first(node)) == "(":
        kids = _kids(node)
        lines: list[Piece] = [(col, _flat(kids[0]))]
        _append(lines, _brk(kids[1], col + 1, col + 1, trail + 1), False)
        _append(lines, [(0, _flat(kids[2]))], False)
        return lines
    return _seq(node, col, cont, trail)


def _seq(node: Tree[Token], col: int, cont: int, trail: int = 0) -> list[Piece]:
    """The children in a row, each broken only if it does not fit where it starts."""
    kids = _kids(node)
    widths = [_width(_flat(k)) + (bool(i) and _space(node, kids, i)) for i, k in enumerate(kids)]
    lines: list[Piece] = [(col, [])]
    for i, k in enumerate(kids):
        space = bool(i) and _space(node, kids, i)
        _append(lines, _brk(k, _end(lines) + space, cont, sum(widths[i + 1:]) + trail), space)
    return lines


def _chain(node: Tree[Token], col: int, cont: int, trail: int) -> list[Piece]:
    """a and b and c: as many operands on a line as fit, then `and ...` on the next."""
    level = _LEVELS[_LEVEL[node.data]]
    rest: list[tuple[Token, Tree[Token] | Token]] = []
    while isinstance(node, Tree) and node.data in level and len(_kids(node)) == 3:
        left, tok, right = _kids(node)
        rest.insert(0, (tok, right))  # type: ignore[arg-type]
        node = left  # type: ignore[assignment]
    lines = _brk(node, col, cont + 2)
    for i, (tok, operand) in enumerate(rest):
        after = trail if i == len(rest) - 1 else 0
        piece = [(str(tok), tok.start_pos or 0), _SP, *_flat(operand)]
        if _end(lines) + 1 + _width(piece) + after <= WIDTH:
            _append(lines, [(0, piece)], True)
        else:
            start = cont + len(str(tok)) + 1
            more = _brk(operand, start, cont + 2, after)
            lines.append((cont, [(str(tok), tok.start_pos or 0), _SP, *more[0][1]]))
            lines.extend(more[1:])
    return lines


def _if(node: Tree[Token], col: int, trail: int) -> list[Piece]:
    """if c / then a / else b, the keywords one under the other."""
    kids = _kids(node)
    lines: list[Piece] = []
    for kw, part in zip(kids[0::2], kids[1::2], strict=True):
        start = col + len(str(kw)) + 1
        more = _brk(part, start, start + 2, trail if part is kids[-1] else 0)
        lines.append((col, [*_flat(kw), _SP, *more[0][1]]))
        lines.extend(more[1:])
    return lines


def _let_in(node: Tree[Token], col: int, cont: int, trail: int) -> list[Piece]:
    """let x = value; on one line, the body on the next."""
    kids = _kids(node)
    semi = next(i for i, k in enumerate(kids) if isinstance(k, Token) and str(k) == ";")
    head = Tree(node.data, kids[:semi + 1])
    lines = _seq(head, col, cont)
    lines.extend(_brk(kids[semi + 1], col, cont, trail))
    return lines


def _groups(node: Tree[Token]) -> tuple[list[Tree[Token] | Token], Token, list[list[Tree[Token] | Token]], Token]:
    """A bracketed construct as: what comes before the bracket, the bracket, the elements
    (each with its comma, or for a comprehension its `for`/`where` part), the closing bracket."""
    kids = _kids(node)
    open_i = next(i for i, k in enumerate(kids) if isinstance(k, Token) and str(k) in "([{")
    close = kids[-1]
    assert isinstance(close, Token)
    opener = kids[open_i]
    assert isinstance(opener, Token)
    groups: list[list[Tree[Token] | Token]] = []
    for k in kids[open_i + 1:-1]:
        starts = node.data == "comprehension" and isinstance(k, Token) and str(k) in ("for", "where")
        if not groups or starts or (groups[-1] and isinstance(groups[-1][-1], Token)
                                    and str(groups[-1][-1]) == ","):
            groups.append([])
        groups[-1].append(k)
    return kids[:open_i], opener, groups, close


def _bracketed(node: Tree[Token], col: int, trail: int) -> list[Piece]:
    """f(a, b, c), [..], {..}, Unit { .. }: elements fill each line, the next lines aligned
    after the opening bracket."""
    before, opener, groups, close = _groups(node)
    pad = node.data == "record_lit"
    lines: list[Piece] = [(col, [])]
    for i, k in enumerate(before):
        if i:
            lines[-1][1].append(_SP)
        lines[-1][1].extend(_flat(k))
    if before and node.data == "record_lit":
        lines[-1][1].append(_SP)
    lines[-1][1].append((str(opener), opener.start_pos or 0))
    align = _end(lines) + pad
    for gi, group in enumerate(groups):
        elem = Tree(node.data, group)
        frags = _flat(elem)
        last = gi == len(groups) - 1
        after = pad + 1 + trail if last else 0
        first_on_line = gi == 0
        space = pad if first_on_line else True
        here = _end(lines) + 1 + _width(frags) + after <= WIDTH
        fresh = align + _width(frags) + after <= WIDTH
        if first_on_line or here or not fresh:  # a new line only when the element then fits
            at = _end(lines) + space
            _append(lines, _seq(elem, at, at + 2, after), bool(space))
        else:
            lines.append((align, []))
            _append(lines, _seq(elem, align, align + 2, after), False)
        if last:
            lines[-1][1].extend([_SP] * pad + [(str(close), close.start_pos or 0)])
    if not groups:
        lines[-1][1].append((str(close), close.start_pos or 0))
    return lines


# ---- statements ----------------------------------------------------------------------


@dataclass
class _Line:
    indent: int
    frags: list[Frag]
    stmt: bool = False  # starts an item: may have a blank line before it
    inner: int | None = None  # a closing brace: comments written before it go at this indent


def _out(pieces: list[Piece], stmt: bool = True) -> list[_Line]:
    return [_Line(col, frags, stmt and i == 0) for i, (col, frags) in enumerate(pieces)]


def _fits(ind: int, frags: list[Frag]) -> bool:
    return ind + _width(frags) <= WIDTH


def _tok_frag(tok: Tree[Token] | Token) -> Frag:
    assert isinstance(tok, Token)
    return (str(tok), tok.start_pos or 0)


def _index(kids: list[Tree[Token] | Token], *texts: str) -> int | None:
    for i, k in enumerate(kids):
        if isinstance(k, Token) and str(k) in texts:
            return i
    return None


def _part(node: Tree[Token], kids: list[Tree[Token] | Token]) -> Tree[Token]:
    return Tree(node.data, kids)


def _items(nodes: list[Tree[Token] | Token], ind: int) -> list[_Line]:
    out: list[_Line] = []
    for n in nodes:
        if isinstance(n, Tree):
            out += _item(n, ind)
        else:  # a stray token in a block (not in today's grammar): a line of its own
            out.append(_Line(ind, [_tok_frag(n)], True))
    return out


def _item(node: Tree[Token], ind: int) -> list[_Line]:
    kids = _kids(node)
    data = node.data
    if data == "member" and isinstance(kids[-1], Tree) and kids[-1].data == "member_body":
        body = _kids(kids[-1])
        return _block(_part(node, kids[:-1]), body[0], body[1:-1], body[-1], ind, ind + 4, ind + 2)
    brace = _index(kids, "{")
    if brace is not None and data not in _BRACKETED:
        head = _part(node, kids[:brace])
        return _block(head, kids[brace], kids[brace + 1:-1], kids[-1], ind, ind + 2, ind)
    if data == "override":
        return _override(node, kids, ind)
    if _fits(ind, _flat(node)):
        return [_Line(ind, _flat(node), True)]
    if data in ("define", "invariant", "const"):
        return _define(node, kids, ind)
    if data in ("row_when", "row_otherwise"):
        return _row(node, kids, ind)
    if data == "limit":
        colon = _index(kids, ":")
        assert colon is not None
        first = _out(_seq(_part(node, kids[:colon + 1]), ind, ind + 4))
        return first + _out(_seq(_part(node, kids[colon + 1:]), ind + 2, ind + 4), stmt=False)
    if data in ("unless", "except_limit", "enum_attr", "field") and isinstance(kids[-1], Token) \
            and kids[-1].type == "STRING":
        return _out(_seq(_part(node, kids[:-1]), ind, ind + 4)) + [_Line(ind + 2, [_tok_frag(kids[-1])])]
    return _out(_seq(node, ind, ind + 4))


def _block(head: Tree[Token], opener: Tree[Token] | Token, items: list[Tree[Token] | Token],
           close: Tree[Token] | Token, ind: int, inner: int, close_ind: int) -> list[_Line]:
    """A header ending in `{`, one item per line at `inner`, and `}`."""
    kids = _kids(head)
    header = _flat(head) + [_SP, _tok_frag(opener)]
    title = next((i for i, k in enumerate(kids) if isinstance(k, Token) and k.type == "STRING"), None)
    if _fits(ind, header) or title is None or title == 0:
        lines = _out(_seq(head, ind, ind + 4)) if not _fits(ind, header) else [_Line(ind, _flat(head), True)]
        lines[-1].frags += [_SP, _tok_frag(opener)]
    else:  # the title on a line of its own
        lines = _out(_seq(_part(head, kids[:title]), ind, ind + 4))
        lines.append(_Line(ind + 4, _flat(_part(head, kids[title:])) + [_SP, _tok_frag(opener)]))
    lines += _items(items, inner)
    lines.append(_Line(close_ind, [_tok_frag(close)], True, inner))
    return lines


def _define(node: Tree[Token], kids: list[Tree[Token] | Token], ind: int) -> list[_Line]:
    """define f(..) -> t "title" = body: the body on the next line; a long header puts its
    title on a line of its own, and its `requires` on another if they do not fit on one."""
    eq = max(i for i, k in enumerate(kids) if isinstance(k, Token) and str(k) == "=")
    head = kids[:eq + 1]
    if _fits(ind, _flat(_part(node, head))):
        lines = [_Line(ind, _flat(_part(node, head)), True)]
    else:
        title = next((i for i, k in enumerate(head) if isinstance(k, Token) and k.type == "STRING"), None)
        split = title if title is not None else eq
        lines = _out(_seq(_part(node, head[:split]), ind, ind + 4))
        rest = head[split:]
        requires = next((i for i, k in enumerate(rest) if isinstance(k, Tree) and k.data == "requires"), None)
        if requires and not _fits(ind + 4, _flat(_part(node, rest))):
            lines.append(_Line(ind + 4, _flat(_part(node, rest[:requires]))))
            rest = rest[requires:]
        lines.append(_Line(ind + 4, _flat(_part(node, rest))))
    body = kids[eq + 1:]
    return lines + _out(_seq(_part(node, body), ind + 2, ind + 4), stmt=False)


def _row(node: Tree[Token], kids: list[Tree[Token] | Token], ind: int) -> list[_Line]:
    """name: when cond => value "note" says "phrase": the note and phrase, then `=> value`, go to the
    next lines."""
    arrow = _index(kids, "=>")
    assert arrow is not None
    end = len(kids)
    while end > arrow + 2 and _trails(kids[end - 1]):
        end -= 1
    tail = kids[end:]  # the note, the phrase, or both
    main = _flat(_part(node, kids[:end]))
    if _fits(ind, main):
        lines = [_Line(ind, main, True)]
    else:
        lines = _out(_seq(_part(node, kids[:arrow]), ind, ind + 4))
        rhs = _part(node, kids[arrow:])
        if _fits(ind + 2, _flat(rhs)):
            return lines + [_Line(ind + 2, _flat(rhs))]
        lines += _out(_seq(_part(node, kids[arrow:end]), ind + 2, ind + 4), stmt=False)
    if tail and _fits(ind + 2, _flat(_part(node, tail))):
        lines.append(_Line(ind + 2, _flat(_part(node, tail))))
    else:
        lines += [_Line(ind + 2, _flat(k) if isinstance(k, Tree) else [_tok_frag(k)]) for k in tail]
    return lines


def _trails(kid: Tree[Token] | Token) -> bool:
    """A row's note or its `says` phrase, which follow its value."""
    if isinstance(kid, Tree):
        return kid.data == "says"
    return kid.type == "STRING"


def _override(node: Tree[Token], kids: list[Tree[Token] | Token], ind: int) -> list[_Line]:
    """override 4.5a F: the first change, then each further change on a line of its own."""
    colon = _index(kids, ":")
    assert colon is not None
    changes = kids[colon + 1:]
    if len(changes) == 1 and _fits(ind, _flat(node)):
        return [_Line(ind, _flat(node), True)]
    lines = _out(_seq(_part(node, kids[:colon + 1] + changes[:1]), ind, ind + 4))
    for ch in changes[1:]:
        lines += _out(_brk(ch, ind + 2, ind + 4), stmt=False)
    return lines


# ---- comments and blank lines -----------------------------------------------------------


@dataclass
class _Slot:
    own: list[tuple[str, bool]] = field(default_factory=list)  # comments above, each with its blank line
    moved: list[str] = field(default_factory=list)  # comments from inside the line, moved above it
    trailing: str | None = None


def _reindent_text(text: str, indent: int) -> str:
    """A triple-quoted text that starts on a new line: its lines at indent + 2, the closing
    quotes at indent. The parser dedents these texts, so their value does not change."""
    if not text.startswith('"""\n'):
        return text
    lines = text[4:-3].split("\n")
    closing_alone = not lines[-1].strip()
    body = lines[:-1] if closing_alone else lines
    tail = " " * indent if closing_alone else ""
    if not body:
        return '"""\n' + tail + '"""'
    margin = textwrap.dedent("\n".join(body)).split("\n")
    pad = " " * (indent + 2)
    out = []
    for orig, stripped in zip(body, margin, strict=False):
        out.append(pad + stripped if orig.strip() else "")
    return '"""\n' + "\n".join(out) + ("\n" + tail if closing_alone else "") + '"""'


def format_tree(text: str, tree: Tree[Token], comments: list[Token]) -> str:
    lines = _items(_kids(tree), 0)
    tokens = {t.start_pos or 0: t for t in tree.scan_values(lambda v: isinstance(v, Token))}
    starts = sorted(tokens)
    src_lines = text.split("\n")

    def blank_before(line_no: int) -> bool:  # 1-based line of the source
        return line_no > 1 and not src_lines[line_no - 2].strip()

    where: dict[int, tuple[int, int]] = {}  # token start -> (output line, index among its tokens)
    for li, line in enumerate(lines):
        toks = [p for _, p in line.frags if p >= 0]
        for j, p in enumerate(toks):
            where[p] = (li, j)
    count = {li: sum(1 for _, p in line.frags if p >= 0) for li, line in enumerate(lines)}
    slots = [_Slot() for _ in lines]
    at_end: list[tuple[str, bool]] = []
    for c in comments:
        body = str(c).rstrip()
        pos = c.start_pos or 0
        k = bisect.bisect_left(starts, pos)
        prev = tokens[starts[k - 1]] if k else None
        if prev is not None and prev.end_line == c.line:
            li, j = where[prev.start_pos or 0]
            if j == count[li] - 1 and slots[li].trailing is None:
                slots[li].trailing = body
            else:
                slots[li].moved.append(body)
            continue
        if k == len(starts):
            at_end.append((body, blank_before(c.line or 1)))
            continue
        li, j = where[starts[k]]
        if j == 0:
            slots[li].own.append((body, blank_before(c.line or 1)))
        else:
            slots[li].moved.append(body)

    out: list[str] = []
    opened = [True]  # the last line written opens a block (or nothing is written yet)

    def blank() -> None:
        if not opened[0] and out[-1]:
            out.append("")

    def write(line: str, opens: bool = False) -> None:
        out.append(line)
        opened[0] = opens

    def starts_line(tok: Token) -> bool:
        src = src_lines[(tok.line or 1) - 1]
        return not src[:(tok.column or 1) - 1].strip()

    for li, line in enumerate(lines):
        slot = slots[li]
        cind = line.inner if line.inner is not None else line.indent
        for body, was_blank in slot.own:
            if was_blank:
                blank()
            write(" " * cind + body)
        tok = tokens[next(p for _, p in line.frags if p >= 0)]
        if line.stmt and line.inner is None and starts_line(tok) and blank_before(tok.line or 1):
            blank()
        for body in slot.moved:
            write(" " * cind + body)
        code = "".join(_reindent_text(t, line.indent) if t.startswith('"""') else t for t, _ in line.frags)
        write(" " * line.indent + code + (f"  {slot.trailing}" if slot.trailing else ""), line.frags[-1][0] == "{")
    for body, was_blank in at_end:
        if was_blank:
            blank()
        write(body)
    return "\n".join(out) + "\n" if out else ""


# ---- the entry point and its self-check ----------------------------------------------------


def _signature(text: str) -> tuple[list[tuple[str, str]], list[str]]:
    """The tokens (quoted texts by their value) and the comments of a text."""
    tree, comments = concrete_tree(text)
    toks = []
    for t in tree.scan_values(lambda v: isinstance(v, Token)):
        value = str(t)
        if t.type == "STRING" and value.startswith('"""'):  # reindented: compared by value
            value, _ = unquote(value)
        toks.append((t.type, value))
    return toks, sorted(str(c).rstrip() for c in comments)


def format_text(text: str, path: str = "<text>") -> str:
    """The text in the canonical layout. Raises FormatError if it does not parse."""
    try:
        tree, comments = concrete_tree(text)
    except UnexpectedInput:
        _, diags = parse(text, path)
        raise FormatError(f"{path}: cannot format a file with syntax errors", diags) from None
    result = format_tree(text, tree, comments)
    if _signature(result) != _signature(text):
        raise FormatError(f"{path}: formatting would change the rules (a bug in rulec fmt)")
    return result


# ---- rulec fmt ------------------------------------------------------------------------------


def rules_files(paths: list[Path]) -> list[tuple[Path, Path | None]]:
    """The files to format, each with the folder it must be inside once links are followed: every
    .rules file under a folder (inside it), and files named as they are (anywhere)."""
    files: list[tuple[Path, Path | None]] = []
    for p in paths:
        files += [(f, p.resolve()) for f in sorted(p.rglob("*.rules"))] if p.is_dir() else [(p, None)]
    return files


def command(args: argparse.Namespace) -> int:
    """rulec fmt [--check] [--diff] [PATH...]: exit 0 when every file is (now) formatted,
    1 when --check finds one that is not or a file does not parse, 2 for a missing path. --diff
    writes nothing (as black's does): it prints what formatting would change, a unified diff on
    standard output that `patch -p0` applies, and its summary on standard error."""
    paths: list[Path] = args.paths or [Path("rules")]
    if paths == [Path("-")]:
        text = sys.stdin.read()
        try:
            sys.stdout.write(format_text(text, "<stdin>"))
        except FormatError as e:
            for d in e.diagnostics:
                print(d.render({"<stdin>": text}), file=sys.stderr)
            print(f"rulec: {e}", file=sys.stderr)
            return 1
        return 0
    missing = [p for p in paths if not p.exists()]
    if missing:
        print(f"rulec: no such file or folder: {missing[0]}", file=sys.stderr)
        return 2
    changed, failed, files = [], [], rules_files(paths)
    for f, inside in files:
        name = f.as_posix()
        read = read_rules_file(f, inside)  # a regular file in its folder, of at most the size limit
        if not isinstance(read, str):
            print(f"rulec: cannot read {name}: {read[1]}", file=sys.stderr)
            failed.append(name)
            continue
        text = read
        try:
            new = format_text(text, name)
        except FormatError as e:
            for d in e.diagnostics:
                print(d.render({name: text}), file=sys.stderr)
            print(f"rulec: {e}", file=sys.stderr)
            failed.append(name)
            continue
        if new == text:
            continue
        changed.append(name)
        if args.diff:
            sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), new.splitlines(True),
                                                       f"{name} (as written)", f"{name} (formatted)"))
        if args.check or args.diff:
            print(f"would reformat {name}", file=sys.stderr)
        else:
            tmp = f.with_name(f".{f.name}.fmt-tmp")
            tmp.write_text(new, encoding="utf-8", newline="\n")
            os.replace(tmp, f)
            print(f"reformatted {name}", file=sys.stderr)
    unchanged = len(files) - len(changed) - len(failed)
    if args.check or args.diff:
        print(f"{len(changed)} would be reformatted, {unchanged} already formatted"
              + (f", {len(failed)} could not be formatted" if failed else ""),
              file=sys.stderr if args.diff else sys.stdout)
        return 1 if failed or (changed and args.check) else 0
    print(f"{len(changed)} reformatted, {unchanged} already formatted"
          + (f", {len(failed)} could not be formatted" if failed else ""))
    return 1 if failed else 0
