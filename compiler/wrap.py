"""Long lines of emitted Python, broken as a person would break them (the last stage of emit_python).

A pure function of the module's text: every physical line longer than WIDTH is written again over
several lines, only ever inside brackets (which Python lets span lines), so the code means exactly
what it meant (tests/test_wrap.py compares the syntax trees). The breaks follow black's two rules:

- the right-hand split: the last bracket pair of the line is opened at the end of the first line,
  its contents go on lines of their own, one level deeper, and the closing bracket starts the last;
- the contents go on one line if they fit; else they are split at their commas, one item a line
  with a trailing comma, or where they have none at their operators of lowest precedence (a
  generator's `for` and `if`, then `if`/`else`, `or`, `and`, `+`/`-`), each line starting with the
  operator; a part split again at tighter operators is put in brackets of its own.

A statement whose expression has no brackets of its own (return a and b) gets a pair around it.
Comments and one-line docstrings are re-filled as text. A line nothing of this can shorten (a
single long string) is left as it is.
"""

from __future__ import annotations

import ast
import functools
import re
import textwrap
from collections.abc import Iterable, Iterator

WIDTH = 120
STEP = "    "

_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = {v: k for k, v in _OPEN.items()}
# operators a bracket's contents may be split at, lowest precedence first (a generator's for first,
# so that its own if stays with it)
_SPLITS = ((" for ", " if "), (" if ", " else "), (" or ",), (" and ",), (" + ", " - "))
# statements whose expression may be put in brackets to split it: what stays before and after
_STATEMENT = re.compile(r"(?P<head>(?:return|if|elif|while) |[A-Za-z_][\w.]*(?:: [^=]+)? = )(?P<expr>.*?)(?P<end>:?)")

# a string literal alone on its line: maybe a keyword's value, maybe an item with its comma
_STRING_ITEM = re.compile(r"(?P<key>[A-Za-z_]\w*=)?(?P<literal>'.*'|\".*\")(?P<comma>,?)")


def wrap_module(text: str, width: int = WIDTH) -> str:
    """The module with every line longer than `width` broken over several."""
    return joined(_wrapped(text, width))


def _wrapped(text: str, width: int) -> Iterator[str]:
    in_string = False  # inside a docstring of several lines: its text is left alone
    for line in lines_of(text):
        if line.count('"""') == 1:
            in_string = not in_string
            yield line
        elif in_string or len(line) <= width:
            yield line
        else:
            yield wrapped(line, width)


@functools.lru_cache(maxsize=16_384)
def wrapped(line: str, width: int = WIDTH) -> str:
    """wrap_line's lines as one text, kept for the next call: a game's module repeats most of its
    series' long lines, and a module many of its own (a limit's message for each unit kind).
    emit_python.forget() lets them go once a build's modules are made."""
    return "\n".join(wrap_line(line, width))


def joined(lines: Iterable[str]) -> str:
    """"\n".join(lines), joined a thousand at a time as they come: a large module's list of lines
    is several times its text (joining a 10,000-clause module's whole list took 59 MB)."""
    done: list[str] = []  # the text so far, in pieces
    batch: list[str] = []
    for line in lines:
        batch.append(line)
        if len(batch) >= 1024:
            done.append("\n".join(batch))
            batch = []
    if batch or not done:
        done.append("\n".join(batch))
    return "\n".join(done)


def lines_of(text: str) -> Iterator[str]:
    """text.split("\n"), one line at a time: a large module's list of lines is several times its size."""
    start = 0
    end = text.find("\n")
    while end >= 0:
        yield text[start:end]
        start, end = end + 1, text.find("\n", end + 1)
    yield text[start:]


def wrap_line(line: str, width: int = WIDTH) -> list[str]:
    """One physical line as one or more, each within `width` where the code allows."""
    if len(line) <= width:
        return [line]
    indent = line[: len(line) - len(line.lstrip(" "))]
    code = line[len(indent):]
    if code.startswith("#"):
        return textwrap.wrap(code[1:].strip(), width, initial_indent=indent + "# ",
                             subsequent_indent=indent + "# ", break_long_words=False, break_on_hyphens=False)
    if code.startswith('"""') and code.endswith('"""') and len(code) > 6 and '"""' not in code[3:-3]:
        return _docstring(indent, code[3:-3], width)
    pairs = _pairs(code)
    if pairs is None:
        return [line]
    if not _balanced(code):  # the first line of a split: only its own closed brackets may be split
        return _right_hand_split(indent, code, pairs, width) or [line]
    return (_long_string(indent, code, width)
            or _bracketed_statement(indent, code, width)
            or _right_hand_split(indent, code, pairs, width)
            or [line])


def _docstring(indent: str, text: str, width: int) -> list[str]:
    lines = textwrap.wrap(text, width - len(indent) - 3, break_long_words=False, break_on_hyphens=False)
    if text != " ".join(lines):  # not plain words separated by single spaces: kept as written
        return [f'{indent}"""{text}"""']
    return [f'{indent}"""{lines[0]}'] + [indent + ln for ln in lines[1:]] + [f'{indent}"""']


def _long_string(indent: str, code: str, width: int) -> list[str] | None:
    """A string literal alone (a keyword argument, an item, a docstring written with repr()) as
    several literals in brackets, which Python joins into the same one string."""
    match = _STRING_ITEM.fullmatch(code)
    if match is None:
        return None
    try:
        value = ast.literal_eval(match["literal"])
    except (ValueError, SyntaxError):
        return None
    if not isinstance(value, str):
        return None
    pieces = _string_pieces(value, width - len(indent) - len(STEP))
    if len(pieces) < 2:
        return None
    return [f"{indent}{match['key'] or ''}(", *(indent + STEP + repr(p) for p in pieces), f"{indent}){match['comma']}"]


def _string_pieces(value: str, room: int) -> list[str]:
    """A text cut after spaces (and after each line break) into pieces whose repr() fits in room."""
    pieces: list[str] = []
    for word in re.findall(r"[^ \n]*(?: +|\n|$)", value):
        if pieces and not pieces[-1].endswith("\n") and len(repr(pieces[-1] + word)) <= room:
            pieces[-1] += word
        elif word:
            pieces.append(word)
    return pieces


def _bracketed_statement(indent: str, code: str, width: int) -> list[str] | None:
    """return a and b (or if a and b:, or x = a and b) written return (a and b), then split in
    its brackets: when the expression has operators outside any bracket of its own."""
    match = _STATEMENT.fullmatch(code)
    if match is None:
        return None
    head, expr, end = match["head"], match["expr"], match["end"]
    if head.startswith(("if ", "elif ", "while ")) != (end == ":"):
        return None
    if not any(len(_split_at(expr, ops, keep=True)) > 1 for ops in _SPLITS) or _split_at(expr, (",",))[1:]:
        return None
    return [f"{indent}{head}(", *_contents(indent + STEP, expr, width), f"{indent}){end}"]


def _right_hand_split(indent: str, code: str, pairs: list[tuple[int, int]], width: int) -> list[str] | None:
    """Split at the last top-level bracket pair that leaves a first and a last line that fit
    (def f(...) -> Answer[bool]: at its parameters, not at [bool]); failing that, the last."""
    usable = [(s, e) for s, e in pairs if code[s + 1:e].strip()]
    if not usable:
        return None
    fits = [(s, e) for s, e in usable if len(indent) + s + 1 <= width and len(indent) + len(code) - e <= width]
    start, end = (fits or usable)[-1]
    body = code[start + 1:end].strip()
    return [*wrap_line(indent + code[: start + 1], width), *_contents(indent + STEP, body, width),
            *wrap_line(indent + code[end:], width)]


def _contents(indent: str, body: str, width: int, whole: bool = True) -> list[str]:
    """A bracket's contents (whole) or a part of them, one level deeper: on one line if they fit,
    else one item a line if they have commas (each with a comma after it), else split at the
    operators of lowest precedence, each part split again at the next if it is still too long."""
    if len(indent) + len(body) <= width:
        return [indent + body]
    items = _split_at(body, (",",)) if whole else [body]
    if len(items) > 1 and not body.startswith("lambda "):
        return [ln for item in items if item for ln in wrap_line(f"{indent}{item},", width)]
    for ops in _SPLITS:
        parts = _split_at(body, ops, keep=True)
        if ops[0] == " for ":  # a generator: its item (which may hold an if ... else), then its fors and ifs
            item, *loops = _split_at(body, (" for ",), keep=True)
            if not loops:
                continue
            parts = [item, *_split_at(" ".join(loops), ops, keep=True)]
        if len(parts) > 1:
            return [ln for p in parts for ln in _operand(indent, p, ops, width)]
    return wrap_line(indent + body, width)


def _operand(indent: str, part: str, ops: tuple[str, ...], width: int) -> list[str]:
    """One part of a split at ops (`or b and c`, or a generator's `if b and c`): split again inside
    a pair of brackets of its own (`or (` b, `and c`, `)`), so that what binds to what stays plain
    (a generator's `for x in y` cannot take them)."""
    if len(indent) + len(part) <= width:
        return [indent + part]
    op = next((o.strip() + " " for o in ops if part.startswith(o.strip() + " ")), "")
    operand = part[len(op):]
    if op != "for " and any(len(_split_at(operand, t, keep=True)) > 1 for t in _SPLITS[1:]):
        return [f"{indent}{op}(", *_contents(indent + STEP, operand, width, whole=False), f"{indent})"]
    return _contents(indent, part, width, whole=False)


# The scans of the line being wrapped and of its parts, asked for again and again as it is split: a
# few dozen. Not more: each holds a pair per character, and 4,096 of them held 30 MB of a
# 10,000-clause build's memory through the rest of the build.
@functools.lru_cache(maxsize=64)
def _scan(code: str) -> tuple[tuple[int, int], ...]:
    """(position, depth) of each character outside string literals; depth counts open brackets
    before it. Strings are the module's own: repr() or plain quotes, with backslash escapes."""
    out: list[tuple[int, int]] = []
    depth = 0
    quote = ""
    i = 0
    while i < len(code):
        c = code[i]
        if quote:
            if c == "\\":
                i += 2
                continue
            if c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif c == "#":
            break
        else:
            if c in _CLOSE:
                depth -= 1
            out.append((i, depth))
            if c in _OPEN:
                depth += 1
        i += 1
    return tuple(out)


def _pairs(code: str) -> list[tuple[int, int]] | None:
    """The bracket pairs at the top level of the line that open and close on it; None if a
    string or a comment makes the line unsafe to split."""
    stack: list[int] = []
    pairs: list[tuple[int, int]] = []
    if _comment_at(code) is not None:
        return None  # a comment at the end of the line: left as it is
    for i, _ in _scan(code):
        c = code[i]
        if c in _OPEN:
            stack.append(i)
        elif c in _CLOSE:
            if not stack:
                return None
            start = stack.pop()
            if not stack:
                pairs.append((start, i))
    return pairs


def _split_at(code: str, ops: tuple[str, ...], keep: bool = False) -> list[str]:
    """The code cut at each top-level (outside brackets and strings) occurrence of one of ops; the
    operator kept at the start of the part it leads (keep) or dropped (a comma)."""
    top = _top_level(code)
    cuts: list[tuple[int, int]] = []
    for op in ops:
        i = code.find(op)
        while i >= 0:
            if all(j in top for j in range(i, i + len(op))):
                cuts.append((i, len(op)))
            i = code.find(op, i + len(op))
    if not cuts:
        return [code]
    parts = []
    last = 0
    for at, n in sorted(cuts):
        parts.append(code[last:at].strip())
        last = at + (0 if keep else n)
    parts.append(code[last:].strip())
    return [p for p in parts if p] if keep else parts


@functools.lru_cache(maxsize=64)
def _top_level(code: str) -> frozenset[int]:
    """The positions outside strings and brackets."""
    return frozenset(i for i, depth in _scan(code) if depth == 0 and code[i] not in _OPEN)


def _balanced(code: str) -> bool:
    depth = 0
    for i, _ in _scan(code):
        depth += (code[i] in _OPEN) - (code[i] in _CLOSE)
    return depth == 0


def _comment_at(code: str) -> int | None:
    scanned = _scan(code)
    last = scanned[-1][0] + 1 if scanned else 0
    rest = code[last:]
    quote = ""
    for i, c in enumerate(rest):  # past the last bracket or operator: strings, then maybe a comment
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == "#":
            return last + i
    return None


def data_literal(value: object, indent: str = "", width: int = WIDTH, lead: int = 0) -> str:
    """JSON-like data (dicts with sorted keys, lists, strings, numbers, True/False/None) as a Python
    literal: on one line where it fits, else one entry a line, four spaces deeper a level. A whole
    number that is a large power of ten is written 10 ** n, not in its digits. lead: how much of
    its first line comes before it (after the indent), such as `NAME = ` or `'key': `."""
    flat = _flat(value)
    fits = len(indent) + lead + len(flat) + 1 <= width
    inner = indent + STEP
    if isinstance(value, str) and not fits:
        pieces = _string_pieces(value, width - len(inner))  # in brackets, which Python joins into one string
        if all(len(inner) + len(repr(p)) <= width for p in pieces):
            return "(\n" + "".join(f"{inner}{p!r}\n" for p in pieces) + f"{indent})"
    if fits or not isinstance(value, (dict, list)) or not value:
        return flat
    if isinstance(value, dict):
        entries = [f"{inner}{k!r}: {data_literal(value[k], inner, width, len(repr(k)) + 2)}" for k in sorted(value)]
        return "{\n" + ",\n".join(entries) + f",\n{indent}}}"
    return "[\n" + ",\n".join(f"{inner}{data_literal(v, inner, width)}" for v in value) + f",\n{indent}]"


def _flat(value: object) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {_flat(value[k])}" for k in sorted(value)) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flat(v) for v in value) + "]"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10 ** 20:
        digits = len(str(abs(value))) - 1
        if abs(value) == 10 ** digits:
            return f"{'-' if value < 0 else ''}10 ** {digits}"
    return repr(value)
