"""Run the worked examples on the generated module as well as on the reference interpreter.

The interpreter (rulec.interp) is the reference; the module is what game programs import. While an
example runs, every call it makes to a check of the ruleset is answered by both: the interpreter, and
the module's public function and its explain_ twin, given the arguments as a program would give them.
The example goes on with the interpreter's answer; any difference is a bug in rulec, reported as R900
with both answers and the example's file:line, never a pass.
"""

from __future__ import annotations

import dataclasses
import re
import sys
import types
from collections.abc import Collection
from fractions import Fraction
from typing import Any

from . import interp, modcheck
from . import model as m
from .diagnostics import Diagnostic, Span
from .interp import EvalError, Interpreter, TooLarge
from .types import ListT, RecordT, SetT, Type, parse_type

_LOADED = [0]  # modules loaded so far: each gets its own name while its classes are made


def load_module(source: str, ruleset: str, needed: Collection[str] | None = None) -> types.ModuleType:
    """A generated module from its text, as `import` would make it, registered nowhere afterwards.
    needed: the checks to run (by their rules names); then only they and what they use are compiled,
    as Python compiles a large module's text far more slowly than its examples run."""
    if needed is not None:
        part = only(source, {n for fn in needed for n in (fn, fn + "_", fn + "__")}
                    | {"_RECORD_CLASSES", "_RENAMED", "_FIELDS", "_CHECKS_RENAMED", "RuleError"})
        try:
            return load_module(part, ruleset)
        except (SyntaxError, NameError):  # cut in the wrong place: rulec's own mistake, so take it whole
            pass
    _LOADED[0] += 1
    name = f"_rulec_crosscheck_{_LOADED[0]}"
    module = types.ModuleType(name)
    module.__file__ = f"<generated/python/{ruleset.lower()}.py>"
    codes = list(modcheck.compiled(source, module.__file__))
    sys.modules[name] = module  # dataclasses look their module up while the classes are made
    try:
        for code in codes:
            exec(code, module.__dict__)
    finally:
        del sys.modules[name]
    return module


_NAME = re.compile(r"[A-Za-z_]\w*")
_DEFINES = re.compile(r"(?:async\s+)?(?:def|class)\s+([A-Za-z_]\w*)|([A-Za-z_]\w*)\s*(?::[^=]*)?=")


def only(source: str, roots: set[str]) -> str:
    """The part of a generated module that the named top-level names need: each top-level statement
    (a def, a class with its decorators, an assignment, with its indented or bracketed lines) is kept
    when it defines a needed name or is an import; a kept statement needs every name it mentions."""
    statements = _statements(source)
    defined: dict[str, list[int]] = {}
    for i, (_, names) in enumerate(statements):
        for n in names:
            defined.setdefault(n, []).append(i)
    keep = {i for i, (text, names) in enumerate(statements)  # imports, and what changes a name
            if text.startswith(("from ", "import ")) or not (names or text.startswith(('"', "'")))}
    todo = list(roots) + [n for i in keep for n in _NAME.findall(statements[i][0])]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen or name not in defined:
            continue
        seen.add(name)
        for i in defined[name]:
            if i not in keep:
                keep.add(i)
                todo += _NAME.findall(statements[i][0])
    return "".join(statements[i][0] for i in sorted(keep))


def _statements(source: str) -> list[tuple[str, set[str]]]:
    """The module's top-level statements (modcheck.statements), each with the names it defines."""
    out: list[tuple[str, set[str]]] = []
    for text in modcheck.statements(source):
        head = next((line for line in text.split("\n") if not line.startswith("@")), "")
        found = _DEFINES.match(head)
        out.append((text, {found.group(1) or found.group(2)} if found else set()))
    return out


@dataclasses.dataclass(frozen=True)
class Disagreement:
    call: str       # the call as the rules write it: tripled(1)
    module: str     # what the module answered, in the rules' words
    reference: str  # what the interpreter answered


class CrossChecked(Interpreter):
    """The reference interpreter, whose calls to checks are also put to the generated module."""

    def __init__(self, model: m.Resolved, module: types.ModuleType, found: list[Disagreement]):
        super().__init__(model)
        self.module = module
        self.found = found
        self._depth = 0  # only the example's own calls: the module makes the inner ones itself

    def call(self, fn: str, args: list[Any]) -> Any:
        outer, own = self.trace, self._depth == 0
        if own:  # the rules this call cites, on a trace of its own (the module's answer cites them alone)
            self.trace = []
        self._depth += 1
        try:
            expected: Any = super().call(fn, args)
        except EvalError as e:
            expected = e
        finally:
            self._depth -= 1
            if own:
                cited, self.trace = self.trace, outer
                outer.extend(c for c in cited if c not in outer)
        if own and not _out_of_steps() and not isinstance(expected, TooLarge):
            self._compare(fn, args, expected, cited)
        if isinstance(expected, EvalError):
            raise expected
        return expected

    def _compare(self, fn: str, args: list[Any], expected: Any, cited: list[interp.Cite]) -> None:
        d: m.Define | m.Table | m.Limits | None = self.defines.get(fn) or self.tables.get(fn) or self.limits.get(fn)
        if d is None:
            return
        name = public_name(self.module, fn)
        if name is None:
            raise RuntimeError(f"the generated module has no function for the check {fn}")
        given = [to_module(self.module, p.t, a) for p, a in zip(d.params, args, strict=True)]
        answers = [_answer(self.module, getattr(self.module, name), given)]
        explain = getattr(self.module, "explain_" + name, None)
        explained = None if explain is None else _answer(self.module, explain, given)
        if explained is not None:  # loaded with its explain_ twins (rulec test): the twin is asked too
            answers.append(explained if isinstance(explained, _NoAnswer) else explained.value)
        want = _NoAnswer if isinstance(expected, EvalError) else plain(expected)
        call = f"{fn}({', '.join(show(plain(a)) for a in args)})"
        for got in answers:
            mine = _NoAnswer if isinstance(got, _NoAnswer) else plain(got)
            if mine != want:
                self.found.append(Disagreement(call, show(mine), show(want)))
                return
        if explained is not None and not isinstance(explained, _NoAnswer):
            theirs, ours = _rules(explained.rules, module=True), _rules(cited, module=False)
            if theirs != ours:
                self.found.append(Disagreement(call, f"{show(mine)}, citing {_shown_rules(theirs)}",
                                               f"{show(want)}, citing {_shown_rules(ours)}"))


def _rules(cites: Any, module: bool) -> list[tuple[Any, ...]]:
    """An answer's rules in one form to compare: an item's title as the ruleset has it (a clause's
    own title the interpreter leaves to the module)."""
    return [(c.layer, c.clause, c.item, c.note, c.title if c.item or not module else None) for c in cites]


def _shown_rules(rules: list[tuple[Any, ...]]) -> str:
    shown = [f"{layer} {clause}" + (f" {item}" if item else "") + (f" ({note})" if note else "")
             + (f' "{title}"' if title else "") for layer, clause, item, note, title in rules]
    return " and ".join(shown) if shown else "no rule"


class _NoAnswer:
    """The module raised RuleError: the rules give no answer (as the interpreter's EvalError)."""


def _answer(module: types.ModuleType, check: Any, args: list[Any]) -> Any:
    try:
        return check(*args)
    except module.RuleError:
        return _NoAnswer()


def _out_of_steps() -> bool:
    """The build's step bound ran out: the module, which has none, is not asked (it could run long)."""
    left = interp._BUDGET[0]
    return left is not None and left <= 0


def public_name(module: types.ModuleType, fn: str) -> str | None:
    """The module's name for the check fn: fn itself, unless it had to be renamed (a Python keyword)."""
    name: str = module._CHECKS_RENAMED.get(fn, fn)
    return name if callable(getattr(module, name, None)) else None


def to_module(module: types.ModuleType, t: Type, value: Any) -> Any:
    """An interpreter value as a program would pass it to the module: records become its dataclasses."""
    match t:
        case RecordT(record):
            cls = module._RECORD_CLASSES[record]
            renamed = module._RENAMED
            fields = {name: parse_type(ft) for name, ft, _ in module._FIELDS[record]}  # the module writes types as text
            return cls(**{(n + "_" if n in renamed else n): to_module(module, fields[n], v)
                          for n, v in value.items()})
        case ListT(item):
            return tuple(to_module(module, item, v) for v in value)
        case SetT(item):
            return frozenset(to_module(module, item, v) for v in value)
    return value


def plain(value: Any) -> Any:
    """A module or interpreter value in one form to compare: records as sorted field pairs."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return plain({f.name.rstrip("_"): getattr(value, f.name) for f in dataclasses.fields(value)})
    if isinstance(value, bool):
        return ("bool", value)  # never equal to 1 or 0
    if isinstance(value, dict):
        return ("record", tuple(sorted((k.rstrip("_"), plain(v)) for k, v in value.items())))
    if isinstance(value, (list, tuple)):
        return ("list", tuple(plain(v) for v in value))
    if isinstance(value, frozenset):
        return ("set", tuple(sorted((plain(v) for v in value), key=repr)))
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)  # one form for a whole number, so sets of numbers sort alike
    return value


def show(value: Any) -> str:
    """A plain value in the rules' words: 3/2, true, [1, 2], Unit { mode: combat }."""
    if value is _NoAnswer:
        return "no answer (no row matches, or a division by zero)"
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "bool":
        return "true" if value[1] else "false"
    if isinstance(value, Fraction):
        return _digits(str(value.numerator)) if value.denominator == 1 else \
            f"{_digits(str(value.numerator))}/{_digits(str(value.denominator))}"
    if isinstance(value, int):
        return _digits(str(value))
    if isinstance(value, str):
        return value
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "record":
        return "{ " + ", ".join(f"{k}: {show(v)}" for k, v in value[1]) + " }"
    if isinstance(value, tuple) and len(value) == 2 and value[0] in ("list", "set"):
        inner = ", ".join(show(v) for v in value[1])
        return f"[{inner}]" if value[0] == "list" else "{" + inner + "}"
    return repr(value)


def _digits(number: str) -> str:
    """A number as a message shows it: a long one by its ends and its length."""
    return number if len(number) <= 60 else f"{number[:20]}…{number[-20:]} ({len(number.lstrip('-')):,} digits)"


def disagreement_diagnostic(span: Span, ruleset: str, clause: str, found: Disagreement) -> Diagnostic:
    return Diagnostic(span, "R900", f"rulec disagrees with itself on an example of {clause} for {ruleset}: "
                      f"{found.call} is {found.module} in the generated module, {found.reference} in the "
                      "reference interpreter",
                      hint="this is a bug in rulec, not in your rules; please report it with these files")


__all__ = ["CrossChecked", "Disagreement", "load_module", "disagreement_diagnostic", "to_module", "plain"]
