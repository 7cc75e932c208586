"""Generated programs as tests: random well-typed rules files, compiled both ways and compared.

rulec answers a question two ways: the reference interpreter (`compiler/interp.py`, behind `rulec
eval` and `rulec test`) and the generated Python modules (`compiler/emit_python.py`,
`compiler/pyexpr.py`). This module writes random, small, well-typed rules programs and, for each:

* checks it and builds every output in process, as `rulec build` does (`compile_sources` with the
  examples run on the module too, `iter_outputs`, `run_tests`): an exception from rulec, or R900,
  is a finding; a program the checker refuses is a bug of this generator;
* runs `mypy --strict` on the generated modules, a batch of programs' modules in one call (mypy's
  cache of the standard library kept from one call to the next, never of the modules checked);
* imports each module and calls every public function and every `explain_` twin with random valid
  arguments, comparing each answer with the interpreter's: the value exactly (an int equals the
  same Fraction, true is not 1), its type as the module declares it, and the rules it cites
  (except where a check goes through a set, whose items come in no set order); where the
  interpreter finds no answer (no row matches, division by zero) the module must raise RuleError.
  Also the module's constants and list settings, and `from_json` against the invariants.

A program: a series (lists with settings, ordered and cyclic; records with defaults, records in
records; consts; definitions calling definitions; tables with `when` rows and `otherwise`; limits
with `unless`; invariants; worked examples whose expectations the interpreter works out), at times
split over two files (`in S`), and at times a game, an option (with the rulesets enabling it) and
a scenario over it, each changing what it extends: overrides of consts, list settings, definitions,
table rows and limits, changes of words only, exception rows and limits that do not apply.
Expressions mix `int` and `number` at every boundary (arguments, returns, list items, sets, if
branches, record fields, table rows, overrides), where a module that carries numbers multiplied by
SCALE can go wrong, and use every operator, aggregate and builtin, lets that hide names, lists and
sets of every type, and names Python or the module itself uses (type, len, SCALE, Cite).
Mistakes of meaning that random rules make (a row that can never match, R301, or the change that
made it so; two exceptions that contradict each other, R303; a row an input reaches whose condition
cannot be worked out, R306; a failing example) are mended by
dropping the part; any other refusal is a generator bug.

    python -m tests.progen --count 2000 --seed 1          # N passed, N failed; exit 1 on any finding
    python -m tests.progen --count 20000 --seed 1 --jobs 2  # the long run, on two cores
    python -m tests.progen --count 1 --seed 1 --first 17  # program 17 of seed 1 alone
    python -m tests.progen --count 50 --keep /tmp/progen  # keep every program and its modules

--jobs N shares the programs among N worker processes, a batch of 25 at a time (each batch's
modules go to one mypy call in the worker that made them); the parent takes the batches in the
order of the programs and shrinks and records the findings as it goes. Program i of a seed is the
same whatever N, so the log (but for its times), the reproducers and the exit status are those of
one process (up to what differs from one process to the next anyway: a detail that depends on
the order of a set's items, such as the item an exception names).

Each finding is shrunk (blocks, then rows, values, fields and expectations dropped one at a time
while it persists) and written to tests/fixtures/progen/<name>/: the .rules files, expected.txt
(what is wrong) and finding.json (the call that shows it). tests/test_progen.py replays them all;
one with a known.txt is a bug not fixed yet, and must still fail.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import itertools
import json
import multiprocessing
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import types
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rulec.build import Result, compile_sources, iter_outputs  # noqa: E402
from rulec.cache import MemoryParses, Work  # noqa: E402
from rulec.crosscheck import load_module  # noqa: E402
from rulec.diagnostics import Diagnostic  # noqa: E402
from rulec.emit_python import ModuleEmitter  # noqa: E402
from rulec.exprs import assignable, item_type, join  # noqa: E402
from rulec.interp import EvalError, Interpreter, Record, budget, from_json  # noqa: E402
from rulec.model import Agg, Call, Define, Expr, Limits, Resolved, Table, walk  # noqa: E402
from rulec.parser import parse as parse_file  # noqa: E402
from rulec.pyexpr import py_name  # noqa: E402
from rulec.testing import run_tests  # noqa: E402
from rulec.types import BoolT, EnumT, IntT, ListT, NumberT, RecordT, SetT, TextT, Type  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures" / "progen"
SERIES_FILE = "progen/series.rules"
GAME_FILE = "progen/game.rules"
OPTION_FILE = "progen/option.rules"
SCENARIO_FILE = "progen/scenario.rules"
SERIES_PART_FILE = "progen/series-part.rules"  # more of the series: `in S`
RULESETS_FILE = "progen/rulesets.rules"
SAMPLES = 12  # random argument tuples per function and ruleset
# Semantic, not type, mistakes the generator mends by dropping the item: a row that never matches
# (R301), two exceptions that contradict each other (R303), a row whose condition an input reaches
# and cannot work out (R306: min of nothing, a division by zero), a failing example.
REPAIRABLE = {"R301", "R303", "R306", "R401", "R402"}

# ---- the program: blocks of lines, each block and item droppable ----------------------------------


@dataclass
class Item:
    """Lines inside a block that can go on their own (a table row, a field, a list value)."""

    lines: list[str]
    key: str | None = None      # what other parts may need (row:t1.r2, member:Mode.x)
    needs: frozenset[str] = frozenset()


@dataclass
class Block:
    """A declaration in its own clause, an override, or an example: dropped as a whole or item by item."""

    file: str
    head: list[str]
    items: list[Item] = field(default_factory=list)
    tail: list[str] = field(default_factory=list)
    key: str | None = None
    needs: frozenset[str] = frozenset()
    fixed: bool = False  # the layer header: never dropped


@dataclass
class Program:
    blocks: list[Block]

    def files(self) -> dict[str, str]:
        return {f: "\n".join(line for line, _ in lines) + "\n" for f, lines in self.lines().items()}

    def lines(self) -> dict[str, list[tuple[str, tuple[int, int | None]]]]:
        """Per file, each line with where it came from: (block, item or None)."""
        out: dict[str, list[tuple[str, tuple[int, int | None]]]] = {}
        for b, block in enumerate(self.blocks):
            lines = out.setdefault(block.file, [])
            lines += [(ln, (b, None)) for ln in block.head]
            for i, item in enumerate(block.items):
                lines += [(ln, (b, i)) for ln in item.lines]
            lines += [(ln, (b, None)) for ln in block.tail]
            lines.append(("", (b, None)))
        return out

    def without(self, block: int, item: int | None = None) -> Program:
        """The program with one block (or one item of it) dropped, and what needed it."""
        return self.dropping([(block, item)])

    def dropping(self, where: list[tuple[int, int | None]]) -> Program:
        """The program with these blocks and items dropped, and everything that needed them."""
        whole = {b for b, i in where if i is None}
        parts = {(b, i) for b, i in where if i is not None}
        gone: set[str] = set()
        blocks = []
        for b, block in enumerate(self.blocks):
            if b in whole and not block.fixed:
                gone |= {block.key} if block.key else set()
                gone |= {it.key for it in block.items if it.key}
                continue
            items = []
            for i, it in enumerate(block.items):
                if (b, i) in parts:
                    gone |= {it.key} if it.key else set()
                else:
                    items.append(it)
            blocks.append(dataclasses.replace(block, items=items))
        while gone:
            more: set[str] = set()
            kept = []
            for block in blocks:
                if block.needs & gone and not block.fixed:
                    more |= {block.key} if block.key else set()
                    more |= {it.key for it in block.items if it.key}
                    continue
                items = []
                for it in block.items:
                    if it.needs & gone:
                        more |= {it.key} if it.key else set()
                    else:
                        items.append(it)
                kept.append(dataclasses.replace(block, items=items))
            blocks = kept
            gone = more
        return Program(blocks)

    def locate(self, file: str, line: int) -> tuple[int, int | None] | None:
        lines = self.lines().get(file, [])
        return lines[line - 1][1] if 1 <= line <= len(lines) else None

    def size(self) -> int:
        return sum(1 + len(b.items) for b in self.blocks)


# ---- what the generator knows of the program it writes --------------------------------------------


@dataclass
class EnumSpec:
    name: str
    members: list[str]
    kind: str  # plain | ordered | cyclic
    attrs: dict[str, str]  # setting -> type
    clause: str


@dataclass
class RecordSpec:
    name: str
    fields: dict[str, str]
    required: set[str]
    clause: str


@dataclass
class FuncSpec:
    name: str
    params: list[tuple[str, str]]
    returns: str
    kind: str  # define | table
    clause: str
    may_raise: bool
    rows: list[str] = field(default_factory=list)


@dataclass
class LimitsSpec:
    name: str
    params: list[tuple[str, str]]
    items: list[str]
    clause: str


ENUM_NAMES = ["Mode", "Size", "Kind", "Side", "Level", "Phase", "Arm", "Terrain"]
RECORD_NAMES = ["Unit", "Hex", "Change", "Stack", "Order", "Leader"]
# Names a generated module uses itself, or Python does: the module must rename what the rules name so.
RISKY_TYPES = ["Cite", "Answer", "Violation", "Fraction", "Number", "Any", "Literal", "Final", "T", "InvalidInput"]
RISKY_NAMES = ["type", "id", "print", "map", "object", "cast", "replace", "field", "math", "from_json", "SCALE",
               "RULESET", "explain", "self", "match", "case", "lambda", "None", "True", "async", "await", "sum_"]
MEMBER_WORDS = ("combat move strat reserve exploit leg truck track company battalion regiment brigade division "
                "corps clear rough forest swamp city ford north south east west low mid high none partial full "
                "double triple infantry cavalry artillery supply port rail air sea hq repl sp dump depot red blue "
                "green amber calm storm mud snow dry wet fresh tired spent raw veteran elite").split()
FIELD_WORDS = ["n", "q", "mode", "size", "flag", "label", "units", "tags", "to", "unit", "steps", "cost", "type",
               "class", "def", "from", "None", "print", "self", "match", "len", "value", "id", "lambda", "sum",
               "weight", "done", "kind", "strength", "moves"]
PARAM_WORDS = ["x", "y", "u", "h", "k", "a", "b", "xs", "s", "c", "p", "r", "m", "w"]
LOOP_WORDS = ["v", "e", "z", "i", "j"]
TEXTS = ["", "a", "b", "Jock Column", "x y"]


# Constructs the generator leaves out unless asked (--allow), as they hit a bug already recorded.
KNOWN = {
    # an override or exception that uses what it changes: R109 since 1978119, at first a RecursionError
    # (tests/fixtures/progen/override-uses-itself); a generated program must be valid
    "self-reference": "an override or exception that uses what it changes (rulec check refuses it: R109)",
    "raising-const": "a constant no input can compute (rulec check refuses it: R305, since session 4; "
                     "at first the module raised on import)",
}


T = TypeVar("T")


def is_num(t: str) -> bool:
    return t in ("int", "number")


class Gen:
    """One random program. Every choice comes from rng: the same seed writes the same program."""

    def __init__(self, rng: random.Random, allow: frozenset[str] = frozenset()):
        self.rng = rng
        self.allow = allow  # constructs left out by default, as they hit known bugs (see KNOWN)
        self.enums: dict[str, EnumSpec] = {}
        self.records: dict[str, RecordSpec] = {}
        self.consts: dict[str, tuple[str, str]] = {}  # name -> (type, clause)
        self.funcs: dict[str, FuncSpec] = {}
        self.limits: dict[str, LimitsSpec] = {}
        self.blocks: list[Block] = []
        self.clause_no = 0
        self.game_clause_no = 100
        self.option_clause_no = 200
        self.scenario_clause_no = 300
        self.changed: set[str] = set()  # what the layer being written overrides already ("override 4.5a F")
        self.members_left = list(MEMBER_WORDS)
        rng.shuffle(self.members_left)
        self.safe = 0     # > 0: nothing that may raise (inside any/all/first over a set)
        self.raised = False  # something that may raise was written (for the function being written)
        self.callable: set[str] = set()  # functions the expression being written may call
        self.readable: set[str] | None = None  # constants it may read (None: all)
        self.refs: set[str] = set()  # functions and constants the declaration being written uses
        self.deps: dict[str, set[str]] = {}  # what each function and constant uses (overrides added)
        self.file = SERIES_FILE

    # -- helpers
    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, options: Sequence[T]) -> T:
        return self.rng.choice(options)

    def next_clause(self) -> str:
        if self.file == SCENARIO_FILE:
            self.scenario_clause_no += 1
            return str(self.scenario_clause_no)
        if self.file == OPTION_FILE:
            self.option_clause_no += 1
            return str(self.option_clause_no)
        if self.file == GAME_FILE:
            self.game_clause_no += 1
            return str(self.game_clause_no)
        self.clause_no += 1
        return str(self.clause_no)

    def weighted(self, options: list[tuple[float, Callable[[], tuple[str, str] | None]]]) -> tuple[str, str]:
        """Try the options in a weighted random order until one gives an expression."""
        opts = [(w, f) for w, f in options if w > 0]
        while opts:
            total = sum(w for w, _ in opts)
            r = self.rng.random() * total
            chosen = len(opts) - 1
            for i, (w, _) in enumerate(opts):
                r -= w
                if r <= 0:
                    chosen = i
                    break
            got = opts[chosen][1]()
            if got is not None:
                return got
            opts.pop(chosen)
        raise RuntimeError("no way to write an expression of this type")

    # -- types
    def base_type(self, records: bool = True) -> str:
        choices: list[tuple[float, str]] = [(3, "int"), (4, "number"), (2, "bool"), (1, "text")]
        if self.enums:
            choices.append((2, "enum " + self.pick(sorted(self.enums))))
        if records and self.records:
            choices.append((1.5, "record " + self.pick(sorted(self.records))))
        total = sum(w for w, _ in choices)
        r = self.rng.random() * total
        for w, t in choices:
            r -= w
            if r <= 0:
                return t
        return choices[-1][1]

    def any_type(self, records: bool = True, depth: int = 0) -> str:
        r = self.rng.random()
        if r < 0.2 and depth < 2:
            return "list of " + self.any_type(records, depth + 1)
        if r < 0.28 and depth < 2:
            inner = self.base_type(records)
            return "set of " + inner
        return self.base_type(records)

    def type_text(self, t: str) -> str:
        return t.replace("enum ", "").replace("record ", "")

    # -- literals
    def int_lit(self) -> str:
        return str(self.pick([0, 1, 1, 2, 2, 3, 4, 5, 6, 10, -1, -2, -3]))

    def frac_lit(self) -> str:
        return self.pick(["1/2", "1/4", "3/4", "1/3", "2/3", "5/2", "3/2", "2.5", "0.25", "1.5", "-1/2", "-3/4",
                          "7/4", "1/6", "4/3"])

    def num_lit(self) -> tuple[str, str]:
        if self.chance(0.4):
            return self.int_lit(), "int"
        return self.frac_lit(), "number"

    def text_lit(self) -> str:
        return json.dumps(self.pick(TEXTS))

    def member_ref(self, enum: str) -> str:
        e = self.enums[enum]
        m = self.pick(e.members)
        return f"{enum}.{m}" if self.chance(0.25) else m

    def constant(self, t: str) -> str:
        """A plain value of type t as a default or setting allows (no calculation)."""
        if t == "bool":
            return self.pick(["true", "false"])
        if t == "int":
            return self.int_lit()
        if t == "number":
            return self.num_lit()[0]
        if t == "text":
            return self.text_lit()
        if t.startswith("enum "):
            return self.pick(self.enums[t[5:]].members)
        inner = item_type(t)
        assert inner is not None, t
        n = self.rng.randint(0, 2)
        items = [self.constant(inner) for _ in range(n)]
        if t.startswith("set of "):
            return "{" + ", ".join(items) + "}"
        return "[" + ", ".join(items) + "]"

    def constant_ok(self, t: str) -> bool:
        if t.startswith("record "):
            return False
        inner = item_type(t)
        return inner is None or self.constant_ok(inner)

    # ---- expressions ---------------------------------------------------------------------------

    def gen(self, t: str, env: dict[str, str], d: int, ctx: bool = True) -> tuple[str, str]:
        """An expression of a type assignable to t, and its own type. ctx: the place gives the type
        (a call's argument, a field), so an empty [] or {} takes it."""
        if t == "number" and self.chance(0.3):
            t = "int"  # an int where a number goes: the boundary the scaling must get right
        elif t in ("list of number", "set of number") and self.chance(0.3):
            t = t.replace("number", "int")
        opts: list[tuple[float, Callable[[], tuple[str, str] | None]]] = [
            (4, lambda: self.g_path(t, env)),
            (1, lambda: self.g_const(t)),
            (2.5 if d <= 0 else 1, lambda: self.g_literal(t, env, d, ctx)),
        ]
        if d > 0:
            opts += [
                (2, lambda: self.g_call(t, env, d)),
                (0.8, lambda: self.g_if(t, env, d, ctx)),
                (0.4, lambda: self.g_let(t, env, d, ctx)),
                (0.25, lambda: self.g_first(t, env, d)),
                (1.5, lambda: self.g_attr(t, env, d)),
            ]
            opts += self.typed_options(t, env, d)
        return self.weighted(opts)

    def typed_options(self, t: str, env: dict[str, str], d: int) -> list[tuple[float, Callable[[], Any]]]:
        if t == "bool":
            return [
                (2, lambda: self.g_logic(env, d)),
                (0.7, lambda: (f"(not {self.gen('bool', env, d - 1, False)[0]})", "bool")),
                (4, lambda: self.g_compare(env, d)),
                (2, lambda: self.g_equal(env, d)),
                (2, lambda: self.g_in(env, d)),
                (1, lambda: self.g_level_compare(env, d)),
                (2, lambda: self.g_anyall(env, d)),
            ]
        if t == "int":
            return [
                (3, lambda: self.g_arith(env, d, False)),
                (0.5, lambda: (f"(-{self.gen('int', env, d - 1, False)[0]})", "int")),
                (1, lambda: (f"{self.pick(['floor', 'ceil'])}({self.gen('number', env, d - 1, False)[0]})",
                             "int")),
                (1, lambda: self.g_builtin_num(env, d, False)),
                (1, lambda: self.g_len(env, d)),
                (2, lambda: self.g_agg_num(env, d, False)),
            ]
        if t == "number":
            return [
                (4, lambda: self.g_arith(env, d, True)),
                (2, lambda: self.g_div(env, d)),
                (1, lambda: self.g_builtin_num(env, d, True)),
                (2, lambda: self.g_agg_num(env, d, True)),
                (0.5, lambda: self.g_neg_number(env, d)),
            ]
        if t.startswith("enum "):
            e = self.enums[t[5:]]
            out: list[tuple[float, Callable[[], Any]]] = []
            if e.kind != "plain":
                out.append((2, lambda: (f"step({self.gen(t, env, d - 1, False)[0]}, "
                                        f"{self.gen('int', env, d - 1, False)[0]})", t)))
            if e.kind == "ordered":
                out.append((1, lambda: (f"{self.pick(['min', 'max'])}({self.gen(t, env, d - 1, False)[0]}, "
                                        f"{self.gen(t, env, d - 1, False)[0]})", t)))
                out.append((1, lambda: self.g_agg_level(t, env, d)))
            return out
        return []

    def g_path(self, t: str, env: dict[str, str]) -> tuple[str, str] | None:
        found = [(p, pt) for p, pt in self.paths(env) if assignable(pt, t) and pt != "any"]
        if not found:
            return None
        return self.pick(found)

    def paths(self, env: dict[str, str]) -> list[tuple[str, str]]:
        out = []
        todo = [(name, t, 0) for name, t in env.items()]
        while todo:
            p, pt, depth = todo.pop()
            out.append((p, pt))
            if pt.startswith("record ") and depth < 2:
                rec = self.records[pt[7:]]
                todo += [(f"{p}.{f}", ft, depth + 1) for f, ft in rec.fields.items()]
            if pt.startswith("enum ") and depth < 3:
                e = self.enums[pt[5:]]
                out += [(f"{p}.{a}", at) for a, at in e.attrs.items()]
        return out

    def g_const(self, t: str) -> tuple[str, str] | None:
        found = [(n, ct) for n, (ct, _) in self.consts.items() if assignable(ct, t) and ct != "any"
                 and (self.readable is None or n in self.readable)]
        if not found:
            return None
        got: tuple[str, str] = self.pick(found)
        self.refs.add(got[0])
        return got

    def closure(self, name: str) -> set[str]:
        seen: set[str] = set()
        todo = [name]
        while todo:
            for n in self.deps.get(todo.pop(), set()):
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        return seen

    def start(self, callable_: set[str], readable: set[str] | None = None) -> None:
        """Begin writing a declaration that may call these functions and read these constants."""
        self.callable = callable_
        self.readable = readable
        self.refs = set()
        self.raised = False

    @contextlib.contextmanager
    def safe_for_consts(self, target: str) -> Iterator[None]:
        """Nothing that may fail in a change of what a const's value calls: the module works its
        consts out as it is imported (a const that cannot be computed is R305, which a generated program
        must not have)."""
        guard = "raising-const" not in self.allow and any(target in self.closure(c) for c in self.consts)
        self.safe += guard
        try:
            yield
        finally:
            self.safe -= guard

    def new_requires(self, f: FuncSpec) -> str:
        """What an override says a table or definition requires: a condition, or `true` (every input),
        which alone may be said of one a const's value calls (a narrower one could leave the const
        with no value: R305)."""
        if "raising-const" not in self.allow and any(f.name in self.closure(c) for c in self.consts):
            return "true"
        return self.pick([self.condition(dict(f.params)), "true"])

    def not_reaching(self, target: str) -> set[str]:
        """The functions and constants that do not lead back to target (an override of it may use them)."""
        if "self-reference" not in self.allow:
            return {n for n in [*self.funcs, *self.consts] if n != target and target not in self.closure(n)}
        return {*self.funcs, *self.consts}

    def g_literal(self, t: str, env: dict[str, str], d: int, ctx: bool) -> tuple[str, str] | None:
        if t == "bool":
            return self.pick(["true", "false"]), "bool"
        if t == "int":
            return self.int_lit(), "int"
        if t == "number":
            return self.num_lit()
        if t == "text":
            return self.text_lit(), "text"
        if t.startswith("enum "):
            return self.member_ref(t[5:]), t
        if t.startswith("record "):
            return self.g_record(t[7:], env, d), t
        inner = item_type(t)
        assert inner is not None
        kind = "list" if t.startswith("list of ") else "set"
        n = self.rng.choice([1, 1, 2, 2, 3] if not ctx else [0, 1, 1, 2, 2, 3])
        items = [self.gen(inner, env, min(d - 1, 1), ctx) for _ in range(n)]
        it = inner if ctx else "any"
        if items:
            it = items[0][1]
            for _, x in items[1:]:
                j = join(it, x)
                assert j is not None, (it, x)
                it = j
        text = ", ".join(x for x, _ in items)
        return ("[" + text + "]" if kind == "list" else "{" + text + "}"), f"{kind} of {it}"

    def g_record(self, name: str, env: dict[str, str], d: int) -> str:
        rec = self.records[name]
        parts = []
        for f, ft in rec.fields.items():
            if f in rec.required or self.chance(0.4):
                parts.append(f"{f}: {self.gen(ft, env, min(d - 1, 1), True)[0]}")
        self.rng.shuffle(parts)
        return f"{name} {{ {', '.join(parts)} }}" if parts else f"{name} {{}}"

    def g_call(self, t: str, env: dict[str, str], d: int) -> tuple[str, str] | None:
        found = [f for n, f in self.funcs.items() if n in self.callable and assignable(f.returns, t)
                 and not (self.safe and f.may_raise)]
        if not found:
            return None
        f: FuncSpec = self.pick(found)
        args = [self.gen(pt, env, d - 1, True)[0] for _, pt in f.params]
        if f.may_raise:
            self.raised = True
        self.refs.add(f.name)
        return f"{f.name}({', '.join(args)})", f.returns

    def g_if(self, t: str, env: dict[str, str], d: int, ctx: bool) -> tuple[str, str] | None:
        cond = self.gen("bool", env, d - 1, False)[0]
        a, at = self.gen(t, env, d - 1, ctx)
        b, bt = self.gen(t if ctx else at, env, d - 1, True)
        j = join(at, bt)
        if j is None:
            return None
        return f"(if {cond} then {a} else {b})", j

    def g_let(self, t: str, env: dict[str, str], d: int, ctx: bool) -> tuple[str, str] | None:
        name = self.fresh(env, ["k1", "k2", "k3", "tot", "cnt"])
        value, vt = self.gen(self.any_type(), env, d - 1, False)
        if vt.endswith("any"):
            return None
        body, bt = self.gen(t, {**env, name: vt}, d - 1, ctx)
        return f"(let {name} = {value}; {body})", bt

    def name(self, plain: str, risky: list[str], taken: set[str]) -> str:
        """plain, or now and then a name a Python module would trip over (type, Cite, SCALE)."""
        if self.chance(0.08):
            free = [n for n in risky if n not in taken]
            if free:
                return self.pick(free)
        return plain

    def taken(self) -> set[str]:
        return {*self.enums, *self.records, *self.consts, *self.funcs, *self.limits,
                *(m for e in self.enums.values() for m in e.members)}

    def fresh(self, env: dict[str, str], pool: list[str]) -> str:
        free = [n for n in pool if n not in env]
        if free and not self.chance(0.08):
            return self.pick(free)
        return self.pick([*pool, *env])  # now and then, a name that hides another (a parameter, a loop's)

    def source(self, env: dict[str, str], d: int, item: str | None = None,
               sets: bool = True) -> tuple[str, str, str] | None:
        """Something to loop over: (code, its type, the item type)."""
        found = [(p, pt) for p, pt in self.paths(env) if (pt.startswith("list of ") or
                 (sets and pt.startswith("set of "))) and not pt.endswith(" any")
                 and (item is None or assignable(item_type(pt) or "", item))]
        if found and self.chance(0.75):
            p, pt = self.pick(found)
            return p, pt, item_type(pt) or "any"
        it = item or self.base_type()
        if it == "number" and self.chance(0.3):
            it = "int"
        kind = "set" if sets and self.chance(0.3) else "list"
        code, ct = self.gen(f"{kind} of {it}", env, d - 1, False)
        inner = item_type(ct)
        if inner is None or inner == "any" or not (ct.startswith("list of ") or ct.startswith("set of ")):
            return None
        if ct.startswith("set of ") and not sets:
            return None
        return code, ct, inner

    def comprehension(self, fn: str, env: dict[str, str], d: int, body_t: str | None,
                      item: str | None = None, sets: bool = True) -> tuple[str, str] | None:
        """fn(BODY for v in SOURCE [where COND]): the code and the body's type."""
        src = self.source(env, d, item, sets)
        if src is None:
            return None
        code, ct, it = src
        var = self.fresh(env, LOOP_WORDS)
        inner = {**env, var: it}
        over_set = ct.startswith("set of ")
        self.safe += over_set and fn in ("any", "all", "first")
        try:
            if body_t is None:
                body, bt = var, it
            else:
                body, bt = self.gen(body_t, inner, d - 1, False)
            where = ""
            if self.chance(0.5):
                where = f" where {self.gen('bool', inner, d - 1, False)[0]}"
        finally:
            self.safe -= over_set and fn in ("any", "all", "first")
        return f"{fn}({body} for {var} in {code}{where})", bt

    def g_first(self, t: str, env: dict[str, str], d: int) -> tuple[str, str] | None:
        if self.safe:
            return None
        got = self.comprehension("first", env, d, t, sets=False)
        if got is None:
            return None
        self.raised = True
        return got

    def g_attr(self, t: str, env: dict[str, str], d: int) -> tuple[str, str] | None:
        found = [(e, a, at) for e in self.enums.values() for a, at in e.attrs.items() if assignable(at, t)]
        if not found:
            return None
        e, a, at = self.pick(found)
        of = self.gen("enum " + e.name, env, d - 1, False)[0]
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", of):
            of = f"({of})"
        return f"{of}.{a}", at

    def g_logic(self, env: dict[str, str], d: int) -> tuple[str, str]:
        op = self.pick(["and", "or"])
        parts = [self.gen("bool", env, d - 1, False)[0] for _ in range(self.rng.choice([2, 2, 3]))]
        return "(" + f" {op} ".join(parts) + ")", "bool"

    def g_compare(self, env: dict[str, str], d: int) -> tuple[str, str]:
        a = self.gen(self.pick(["int", "number"]), env, d - 1, False)[0]
        b = self.gen(self.pick(["int", "number"]), env, d - 1, False)[0]
        return f"({a} {self.pick(['==', '!=', '<', '<=', '>', '>='])} {b})", "bool"

    def g_equal(self, env: dict[str, str], d: int) -> tuple[str, str] | None:
        t = self.any_type()
        a, at = self.gen(t, env, d - 1, False)
        if at.endswith("any"):
            return None
        b, bt = self.gen(at, env, d - 1, True)
        if join(at, bt) is None:
            return None
        return f"({a} {self.pick(['==', '!='])} {b})", "bool"

    def g_in(self, env: dict[str, str], d: int) -> tuple[str, str] | None:
        t = self.base_type()
        a, at = self.gen(t, env, d - 1, False)
        kind = self.pick(["list", "set"])
        want = f"{kind} of {'number' if at == 'int' and self.chance(0.5) else at}"
        b, bt = self.gen(want, env, d - 1, True)
        it = item_type(bt)
        if it is None or join(at, it) is None:
            return None
        return f"({a} {self.pick(['in', 'not in'])} {b})", "bool"

    def g_level_compare(self, env: dict[str, str], d: int) -> tuple[str, str] | None:
        levels = [e for e in self.enums.values() if e.kind == "ordered"]
        if not levels:
            return None
        t = "enum " + self.pick(levels).name
        a = self.gen(t, env, d - 1, False)[0]
        b = self.gen(t, env, d - 1, True)[0]
        return f"({a} {self.pick(['<', '<=', '>', '>=', '==', '!='])} {b})", "bool"

    def g_anyall(self, env: dict[str, str], d: int) -> tuple[str, str] | None:
        got = self.comprehension(self.pick(["any", "all"]), env, d, "bool")
        return None if got is None else (got[0], "bool")

    def g_arith(self, env: dict[str, str], d: int, number: bool) -> tuple[str, str]:
        ta = self.pick(["int", "number"]) if number else "int"
        tb = self.pick(["int", "number"]) if number else "int"
        a, at = self.gen(ta, env, d - 1, False)
        b, bt = self.gen(tb, env, d - 1, False)
        op = self.pick(["+", "-", "*"])
        return f"({a} {op} {b})", "int" if at == bt == "int" else "number"

    def g_div(self, env: dict[str, str], d: int) -> tuple[str, str]:
        a = self.gen(self.pick(["int", "number"]), env, d - 1, False)[0]
        if self.safe or self.chance(0.5):
            b = self.pick(["2", "3", "4", "1/2", "3/4", "2.5", "6"])  # by a constant other than zero
        else:
            b = self.gen(self.pick(["int", "number"]), env, d - 1, False)[0]
            if not any(re.search(rf"\b{re.escape(n)}\b", b) for n in [*env, *self.consts, *self.funcs]):
                b = "2"  # a divisor that reads nothing is constant, maybe zero: R305, a mistake in the rules
            else:
                self.raised = True
        return f"({a} / {b})", "number"

    def g_neg_number(self, env: dict[str, str], d: int) -> tuple[str, str]:
        a, at = self.gen("number", env, d - 1, False)
        return f"(-{a})", at

    def g_builtin_num(self, env: dict[str, str], d: int, number: bool) -> tuple[str, str]:
        fn = self.pick(["abs", "min", "max", "min", "max"])
        n = 1 if fn == "abs" else self.rng.choice([2, 2, 3])
        args = [self.gen(self.pick(["int", "number"]) if number else "int", env, d - 1, False) for _ in range(n)]
        t = "int" if all(at == "int" for _, at in args) else "number"
        return f"{fn}({', '.join(a for a, _ in args)})", t

    def g_len(self, env: dict[str, str], d: int) -> tuple[str, str] | None:
        src = self.source(env, d)
        return None if src is None else (f"len({src[0]})", "int")

    def g_agg_num(self, env: dict[str, str], d: int, number: bool) -> tuple[str, str] | None:
        fn = self.pick(["sum", "sum", "count", "product", "min", "max"])
        if fn in ("min", "max"):
            if self.safe:
                return None
            self.raised = True
        if fn == "count":
            got = self.comprehension("count", env, d, None)
            return None if got is None else (got[0], "int")
        got = self.comprehension(fn, env, d, self.pick(["int", "number"]) if number else "int")
        if got is None:
            return None
        return got[0], "int" if got[1] == "int" else "number"

    def g_agg_level(self, t: str, env: dict[str, str], d: int) -> tuple[str, str] | None:
        if self.safe:
            return None
        got = self.comprehension(self.pick(["min", "max"]), env, d, t)
        if got is None:
            return None
        self.raised = True
        return got[0], t

    # ---- declarations ---------------------------------------------------------------------------

    def member_name(self) -> str:
        if self.members_left:
            return self.members_left.pop()
        return f"m{self.rng.randint(100, 999)}"

    def add_enum(self, name: str) -> None:
        clause = self.next_clause()
        kind = self.pick(["plain", "plain", "ordered", "cyclic"])
        members = [self.member_name() for _ in range(self.rng.randint(2, 5))]
        attrs: dict[str, str] = {}
        lines = []
        for i in range(self.rng.choice([0, 1, 1, 2, 3])):
            at = self.pick(["bool", "bool", "int", "number", "number", "text"]
                           + [f"enum {e}" for e in self.enums])
            aname = self.pick(["w", "cost", "ok", "rank", "bonus", "next", "tag", "neg", "flag"]) + str(i)
            attrs[aname] = at
            default = "" if at == "bool" and self.chance(0.5) else f" = {self.constant(at)}"
            lines.append(Item([f"    has {aname}: {self.type_text(at)}{default}"]))
        for m in members:
            settings = []
            for a, at in attrs.items():
                if not self.chance(0.5):
                    continue
                if at == "bool":
                    settings.append(self.pick([a, f"not {a}", f"{a} = {self.constant(at)}"]))
                else:
                    settings.append(f"{a} = {self.constant(at)}")
            title = f' "{m.title()}"' if self.chance(0.5) else ""
            lines.append(Item([f"    - {m}{title}{''.join(' ' + s for s in settings)}"], key=f"member:{m}"))
        word = {"plain": "", "ordered": "ordered ", "cyclic": "cyclic "}[kind]
        self.enums[name] = EnumSpec(name, members, kind, attrs, clause)
        self.blocks.append(Block(self.file, [f'rule {clause} "The {name} list" {{', f"  {word}enum {name} {{"],
                                 lines, ["  }", "}"], key=f"enum:{name}"))

    def add_record(self, name: str) -> None:
        clause = self.next_clause()
        fields: dict[str, str] = {}
        required: set[str] = set()
        items = []
        words = list(FIELD_WORDS)
        self.rng.shuffle(words)
        for _ in range(self.rng.randint(1, 5)):
            f = words.pop()
            t = self.any_type(records=True)
            fields[f] = t
            if self.constant_ok(t) and self.chance(0.85):
                default = f" = {self.constant(t)}"
            else:
                default = ""
                required.add(f)
            title = f' "The {f}"' if self.chance(0.3) else ""
            items.append(Item([f"    {f}: {self.type_text(t)}{default}{title}"]))
        self.records[name] = RecordSpec(name, fields, required, clause)
        self.blocks.append(Block(self.file, [f'rule {clause} "The {name} record" {{', f"  record {name} {{"],
                                 items, ["  }", "}"], key=f"record:{name}"))

    def add_const(self, name: str) -> None:
        clause = self.next_clause()
        self.start(set(self.funcs) if self.chance(0.3) else set())
        t = self.pick(["int", "number", "number", "bool", "text", "list of number", "list of int", "set of int"]
                      + [f"enum {e}" for e in self.enums])
        self.safe += "raising-const" not in self.allow
        if self.chance(0.6):
            code, ct = self.g_literal(t, {}, 1, False) or ("1", "int")
        else:
            code, ct = self.gen(t, {}, 2, False)
        self.safe -= "raising-const" not in self.allow
        if ct.endswith("any"):
            code, ct = self.int_lit(), "int"
        self.consts[name] = (ct, clause)
        self.deps[name] = set(self.refs)
        self.blocks.append(Block(self.file, [f'rule {clause} "The constant {name}" {{'],
                                 [Item([f"  const {name} = {code}"])], ["}"], key=f"const:{name}"))

    def params(self, n: int) -> list[tuple[str, str]]:
        names = list(PARAM_WORDS)
        self.rng.shuffle(names)
        return [(names.pop(), self.any_type()) for _ in range(n)]

    def param_text(self, params: list[tuple[str, str]]) -> str:
        return ", ".join(f"{p}: {self.type_text(t)}" for p, t in params)

    def add_define(self, name: str) -> None:
        clause = self.next_clause()
        params = self.params(self.rng.choice([0, 1, 1, 2, 2, 3]))
        returns = self.any_type()
        self.start(set(self.funcs))
        inferred = self.chance(0.15)  # no declared type: the result's type is taken from the body
        body, bt = self.gen(returns, dict(params), self.rng.choice([2, 3, 3, 4]), not inferred)
        declared = f" -> {self.type_text(returns)}"
        if inferred:
            declared, returns = "", bt
        see = ""
        if params and self.chance(0.1):
            see = f" see {self.pick(list(range(1, self.clause_no + 1)))}"
        ptext = self.param_text(params)
        if see:
            ptext = ptext + see
        requires = ""
        if params and self.chance(0.2):  # the inputs it answers: a call outside them has no answer
            requires = f" requires {self.condition(dict(params))}"
            self.raised = True
        head = f"  define {name}({ptext}){declared}{requires} = {body}" if params or self.chance(0.5) \
            else f"  define {name}{declared} = {body}"
        self.funcs[name] = FuncSpec(name, params, returns, "define", clause, self.raised)
        self.deps[name] = set(self.refs)
        self.blocks.append(Block(self.file, [f'rule {clause} "The definition {name}" {{'], [Item([head])], ["}"],
                                 key=f"func:{name}"))

    def row(self, label: str, params: list[tuple[str, str]], returns: str, otherwise: bool = False) -> str:
        env = dict(params)
        value = self.gen(returns, env, self.rng.choice([1, 2, 2, 3]), True)[0]
        if otherwise:
            return f"    {label}: otherwise => {value}"
        cond = self.condition(env)
        return f"    {label}: when {cond} => {value}"

    def condition(self, env: dict[str, str]) -> str:
        """A row condition: mostly tests of list values, yes/no and numbers against constants."""
        simple = [(p, pt) for p, pt in self.paths(env) if pt == "bool" or pt.startswith("enum ") or is_num(pt)]
        if simple and self.chance(0.7):
            p, pt = self.pick(simple)
            if pt == "bool":
                return p if self.chance(0.6) else f"not {p}"
            if pt.startswith("enum "):
                e = self.enums[pt[5:]]
                if self.chance(0.5):
                    return f"{p} {self.pick(['==', '!='])} {self.pick(e.members)}"
                picks = self.rng.sample(e.members, self.rng.randint(1, len(e.members)))
                return f"{p} {self.pick(['in', 'not in'])} {{{', '.join(picks)}}}"
            return f"{p} {self.pick(['<', '<=', '>', '>=', '==', '!='])} {self.num_lit()[0]}"
        return self.gen("bool", env, 2, False)[0]

    def add_table(self, name: str) -> None:
        clause = self.next_clause()
        params = self.params(self.rng.choice([1, 1, 2, 2, 3]))
        returns = self.any_type()
        self.start(set(self.funcs))
        rows = []
        labels = []
        for i in range(self.rng.randint(1, 4)):
            label = f"r{i + 1}"
            labels.append(label)
            rows.append(Item([self.row(label, params, returns)], key=f"row:{name}.{label}"))
        rows.append(Item([self.row("other", params, returns, otherwise=True)], key=f"row:{name}.other"))
        labels.append("other")
        title = f' "The table {name}"' if self.chance(0.5) else ""
        if self.chance(0.25):  # the inputs it answers: a call outside them has no answer
            rows.insert(0, Item([f"    requires {self.condition(dict(params))}"], key=f"requires:{name}"))
            self.raised = True
        self.funcs[name] = FuncSpec(name, params, returns, "table", clause, self.raised, labels)
        self.deps[name] = set(self.refs)
        self.blocks.append(Block(self.file, [f'rule {clause} "The table {name}" {{',
                                             f"  table {name}({self.param_text(params)}) -> "
                                             f"{self.type_text(returns)}{title} {{"],
                                 rows, ["  }", "}"], key=f"func:{name}"))

    def add_limits(self, name: str) -> None:
        clause = self.next_clause()
        params = self.params(self.rng.choice([1, 1, 2]))
        env = dict(params)
        self.start(set(self.funcs))
        items: list[Item] = []
        names = []
        if self.chance(0.4):
            items.append(Item([f"    unless {self.gen('bool', env, 2, False)[0]}"]))
        for i in range(self.rng.randint(1, 3)):
            lname = self.pick(["combat", "ports", "total", "heavy", "count", "weight"]) + str(i)
            fn = self.pick(["sum", "count"])
            got = self.comprehension(fn, env, 2, self.pick(["int", "number"]) if fn == "sum" else None)
            if got is None:
                continue
            bound = self.pick([self.num_lit()[0], self.num_lit()[0], self.gen("number", env, 1, False)[0]])
            title = f' "Limit {lname}"' if self.chance(0.5) else ""
            items.append(Item([f"    {lname}{title}: {got[0]} at most {bound}"], key=f"limit:{name}.{lname}"))
            names.append(lname)
        if not names:
            return
        self.limits[name] = LimitsSpec(name, params, names, clause)
        self.blocks.append(Block(self.file, [f'rule {clause} "The limits {name}" {{',
                                             f"  limits {name}({self.param_text(params)}) {{"],
                                 items, ["  }", "}"], key=f"limits:{name}"))

    def add_invariant(self, rec: RecordSpec) -> None:
        """A condition valid records meet (from_json refuses the others); also a check of its own."""
        clause = self.next_clause()
        self.start(set(self.funcs))
        name = f"valid_{rec.name.lower()}"
        cond = self.condition({"r": "record " + rec.name})
        checks = f" checks {self.pick(sorted(rec.fields))}" if self.chance(0.5) else ""
        self.funcs[name] = FuncSpec(name, [("r", "record " + rec.name)], "bool", "define", clause, self.raised)
        self.deps[name] = set(self.refs)
        self.blocks.append(Block(self.file, [f'rule {clause} "Valid {rec.name} records" {{'],
                                 [Item([f'  invariant {name}(r: {rec.name}){checks} "A valid {rec.name}" = {cond}'])],
                                 ["}"], key=f"func:{name}"))

    # ---- later layers: a game, an option ------------------------------------------------------------

    def override_block(self, lines: list[str], needs: set[str]) -> None:
        self.changed.add(lines[0].split(":", 1)[0])
        if self.chance(0.3):
            clause = self.next_clause()
            lines = [f'rule {clause} "A change" {{'] + ["  " + ln for ln in lines] + ["}"]
        self.blocks.append(Block(self.file, lines, needs=frozenset(needs)))

    def note(self) -> str:
        return f' note game "{self.pick(["Changed by the game.", "ILLUSTRATIVE"])}"' if self.chance(0.3) else ""

    def add_game(self) -> None:
        self.file = GAME_FILE
        self.blocks.append(Block(GAME_FILE, ['game G "A game" extends S version "1"'], fixed=True))
        self.add_changes("g")
        for i in range(self.rng.randint(0, 2)):  # the game's own definitions over the series'
            self.add_define(f"g{i + 1}")

    def add_option(self) -> None:
        """An option over the series, and the rulesets that enable it (written before any game,
        so it sees only the series)."""
        self.file = OPTION_FILE
        self.blocks.append(Block(OPTION_FILE, ['option O "An option" extends S'], fixed=True))
        self.add_changes("o")
        if self.chance(0.3):
            self.add_define("o1")
            del self.funcs["o1"]  # the option's own: a game over the series cannot see it
        self.blocks.append(Block(RULESETS_FILE, ['ruleset SO "The series with the option" = S with O'],
                                 key="ruleset:SO"))

    def add_changes(self, prefix: str) -> None:
        """What a later layer changes: overrides of consts, list settings, definitions, table rows and
        limits, exception rows and limits that do not apply."""
        targets: list[Callable[[], None]] = []
        for name, (ct, clause) in self.consts.items():
            def const(name: str = name, ct: str = ct, clause: str = clause) -> None:
                allowed = self.not_reaching(name)
                # no calls unless allowed: this layer may yet change a definition to one that fails
                calls = allowed & set(self.funcs) if "raising-const" in self.allow and self.chance(0.3) else set()
                self.start(calls, allowed)
                self.safe += "raising-const" not in self.allow
                value = self.gen(ct, {}, 1, True)[0]
                self.safe -= "raising-const" not in self.allow
                self.deps[name] = self.deps.get(name, set()) | self.refs
                self.override_block([f"override {clause} {name}: {value}{self.note()}"], {f"const:{name}"})
            targets.append(const)
        for e in self.enums.values():
            if not e.attrs:
                continue
            for m in e.members:
                def member(e: EnumSpec = e, m: str = m) -> None:
                    a = self.pick(sorted(e.attrs))
                    at = e.attrs[a]
                    change = self.pick([a, f"not {a}"]) if at == "bool" else f"{a} = {self.constant(at)}"
                    self.override_block([f"override {e.clause} {m}: {change}{self.note()}"],
                                        {f"member:{m}", f"enum:{e.name}"})
                targets.append(member)
        for f in list(self.funcs.values()):
            if f.kind == "define":
                def define(f: FuncSpec = f) -> None:
                    allowed = self.not_reaching(f.name)
                    self.start(allowed & set(self.funcs), allowed)
                    with self.safe_for_consts(f.name):
                        body = self.gen(f.returns, dict(f.params), 2, True)[0]
                        if f.params and self.chance(0.2):  # what it requires anew, after the value
                            body += f" requires {self.new_requires(f)}"
                    self.deps[f.name] = self.deps.get(f.name, set()) | self.refs
                    self.override_block([f"override {f.clause} {f.name}: {body}{self.note()}"], {f"func:{f.name}"})
                targets.append(define)
            else:
                def requires(f: FuncSpec = f) -> None:
                    allowed = self.not_reaching(f.name)
                    self.start(allowed & set(self.funcs), allowed)
                    with self.safe_for_consts(f.name):
                        cond = self.new_requires(f)
                    self.deps[f.name] = self.deps.get(f.name, set()) | self.refs
                    self.override_block([f"override {f.clause} {f.name}: requires {cond}{self.note()}"],
                                        {f"table:{f.name}"})
                if self.chance(0.3):
                    targets.append(requires)
                for label in f.rows:
                    def row(f: FuncSpec = f, label: str = label) -> None:
                        allowed = self.not_reaching(f.name)
                        self.start(allowed & set(self.funcs), allowed)
                        env = dict(f.params)
                        with self.safe_for_consts(f.name):
                            value = self.gen(f.returns, env, 2, True)[0]
                            cond = self.condition(env)
                        if label != "other" and self.chance(0.5):
                            change = f"when {cond} => {value}"
                        else:
                            change = value
                        self.deps[f.name] = self.deps.get(f.name, set()) | self.refs
                        self.override_block([f"override {f.clause} {f.name}.{label}: {change}{self.note()}"],
                                            {f"row:{f.name}.{label}"})
                    targets.append(row)
        for g in self.limits.values():
            for lname in g.items:
                def limit(g: LimitsSpec = g, lname: str = lname) -> None:
                    self.override_block([f"override {g.clause} {g.name}.{lname}: at most {self.num_lit()[0]}"],
                                        {f"limit:{g.name}.{lname}"})
                targets.append(limit)
        self.rng.shuffle(targets)
        self.changed = set()
        for make in targets[:self.rng.randint(1, 4)]:
            make()
        words = [(f"{f.clause} {f.name}", f"func:{f.name}") for f in self.funcs.values() if f.kind == "define"] + \
            [(f"{clause} {name}", f"const:{name}") for name, (_, clause) in self.consts.items()] + \
            [(f"{f.clause} {f.name}.{label}", f"row:{f.name}.{label}") for f in self.funcs.values()
             for label in f.rows] + [(e.clause, f"enum:{e.name}") for e in self.enums.values()]
        words = [(t, k) for t, k in words if f"override {t}" not in self.changed]
        if words and self.chance(0.3):  # a change of words only: the value must stay what it was
            target, key = self.pick(words)
            # a text only where the target holds texts (a clause); elsewhere it is R110
            change = self.pick([' title "Another title"', ' note game "A note."']
                               + ([' text "Other words."'] if key.startswith("enum:") else []))
            self.blocks.append(Block(self.file, [f"override {target}:{change}"], needs=frozenset({key})))
        # exceptions: table rows that go first, limits that do not apply
        tables = [f for f in self.funcs.values() if f.kind == "table"]
        if tables and self.chance(0.5):
            f = self.pick(tables)
            clause = self.next_clause()
            allowed = self.not_reaching(f.name)
            self.start(allowed & set(self.funcs), allowed)
            with self.safe_for_consts(f.name):
                rows = [Item([self.row(f"{prefix}{i + 1}", f.params, f.returns)])
                        for i in range(self.rng.randint(1, 2))]
            self.deps[f.name] = self.deps.get(f.name, set()) | self.refs
            self.blocks.append(Block(self.file, [f'rule {clause} "Exceptions to {f.name}" {{',
                                                 f"  except {f.name} {{"], rows, ["  }", "}"],
                                     needs=frozenset({f"func:{f.name}"})))
        if self.limits and self.chance(0.4):
            g = self.pick(list(self.limits.values()))
            clause = self.next_clause()
            self.start(set(self.funcs))
            cond = self.gen("bool", dict(g.params), 2, False)[0]
            lname = self.pick(g.items)
            self.blocks.append(Block(self.file, [f'rule {clause} "An exception to {g.name}" {{'],
                                     [Item([f"  except {g.name}.{lname} when {cond}"])], ["}"],
                                     needs=frozenset({f"limit:{g.name}.{lname}"})))

    # ---- the whole program ------------------------------------------------------------------------

    def program(self) -> Program:
        self.blocks.append(Block(SERIES_FILE, ['series S "A series" version "1"'], fixed=True))
        enum_names = list(ENUM_NAMES)
        self.rng.shuffle(enum_names)
        for _ in range(self.rng.randint(1, 3)):
            self.add_enum(self.name(enum_names.pop(), RISKY_TYPES, self.taken()))
        record_names = list(RECORD_NAMES)
        self.rng.shuffle(record_names)
        for _ in range(self.rng.randint(0, 3)):
            self.add_record(self.name(record_names.pop(), RISKY_TYPES, self.taken()))
        for i in range(self.rng.randint(0, 2)):
            self.add_const(self.name(f"cap{i + 1}", RISKY_NAMES, self.taken()))
        kinds = ["define"] * 3 + ["table"] * 2 + ["const"]
        for i in range(self.rng.randint(2, 6)):
            kind = self.pick(kinds)
            if kind == "define":
                self.add_define(self.name(f"f{i + 1}", RISKY_NAMES, self.taken()))
            elif kind == "table":
                self.add_table(self.name(f"t{i + 1}", RISKY_NAMES, self.taken()))
            else:
                self.add_const(self.name(f"cap{i + 10}", RISKY_NAMES, self.taken()))
        if self.chance(0.35):
            self.add_limits("lim")
        for record in list(self.records.values()):
            if self.chance(0.2):
                self.add_invariant(record)
        if self.chance(0.2):  # the series in two files: the second opens with `in S`
            series = [i for i, b in enumerate(self.blocks) if b.file == SERIES_FILE and not b.fixed]
            if len(series) >= 2:
                cut = self.pick(series[1:])
                for b in self.blocks[cut:]:
                    if b.file == SERIES_FILE:
                        b.file = SERIES_PART_FILE
                self.blocks.insert(cut, Block(SERIES_PART_FILE, ["in S"], fixed=True))
        option = self.chance(0.25)
        if option:
            self.add_option()
        if self.chance(0.5):
            self.add_game()
            if option and self.chance(0.5):
                self.blocks.append(Block(RULESETS_FILE, ['ruleset GO "The game with the option" = G with O'],
                                         key="ruleset:GO"))
            if self.chance(0.2):  # a scenario of the game, which changes it in turn
                self.file = SCENARIO_FILE
                self.blocks.append(Block(SCENARIO_FILE, ['scenario C "A scenario" extends G'], fixed=True))
                self.add_changes("c")
        return Program(self.blocks)


def generate(seed: int, index: int, allow: frozenset[str] = frozenset()) -> Program:
    """Program `index` of run `seed`: a pure function of both."""
    return Gen(random.Random(f"progen:{seed}:{index}"), allow).program()


# ---- values: random game state from a resolved model, as the interpreter and the module take it ----

Check = Define | Table | Limits  # what the comparer calls: a definition, a table or a limits check


class Types:
    """The lists and records of one resolved model."""

    def __init__(self, model: Resolved):
        self.model = model
        self.enums = {e.name: [mem.name for mem in e.members] for e in model.enums}
        self.records = {r.name: r for r in model.records}

    def value(self, rng: random.Random, t: Type, depth: int = 0) -> Any:
        match t:
            case BoolT():
                return rng.random() < 0.5
            case IntT():
                return rng.choice([-2, -1, 0, 0, 1, 1, 2, 3, 4, 5, 7])
            case NumberT():
                r = rng.random()
                if r < 0.35:
                    return rng.choice([-1, 0, 1, 2, 3, 4])
                if r < 0.45:
                    return Fraction(rng.choice([-2, 0, 2, 6]), 2)  # whole, as a Fraction
                return Fraction(rng.randint(-7, 9), rng.choice([2, 3, 4, 4, 6, 8]))
            case TextT():
                return rng.choice([*TEXTS, "zz"])
            case EnumT(name):
                return rng.choice(self.enums[name])
            case RecordT(name):
                out = Record()
                for f in self.records[name].fields:
                    if not f.required and rng.random() < 0.35:
                        out[f.name] = self.hashable(from_json(f.default, f.t))
                    else:
                        out[f.name] = self.value(rng, f.t, depth + 1)
                return out
            case ListT(item) | SetT(item):
                n = rng.choice([0, 1, 1, 2, 2, 3, 4] if depth == 0 else [0, 1, 2])
                items = [self.value(rng, item, depth + 1) for _ in range(n)]
                return tuple(items) if isinstance(t, ListT) else frozenset(items)
        raise AssertionError(f"no values of type {t}")

    def hashable(self, v: Any) -> Any:
        if isinstance(v, dict):
            return Record({k: self.hashable(x) for k, x in v.items()})
        if isinstance(v, tuple):
            return tuple(self.hashable(x) for x in v)
        if isinstance(v, frozenset):
            return frozenset(self.hashable(x) for x in v)
        return v

    def valid(self, v: Any, t: Type) -> bool:
        """Whether v is a value of type t in this model (a recorded call still fits a shrunk program)."""
        match t:
            case BoolT():
                return isinstance(v, bool)
            case IntT():
                return isinstance(v, int) and not isinstance(v, bool)
            case NumberT():
                return isinstance(v, (int, Fraction)) and not isinstance(v, bool)
            case TextT():
                return isinstance(v, str)
            case EnumT(name):
                return v in self.enums.get(name, [])
            case RecordT(name):
                rec = self.records.get(name)
                return rec is not None and isinstance(v, dict) and set(v) == {f.name for f in rec.fields} and \
                    all(self.valid(v[f.name], f.t) for f in rec.fields)
            case ListT(item) | SetT(item):
                kind = tuple if isinstance(t, ListT) else frozenset
                return isinstance(v, kind) and all(self.valid(x, item) for x in v)
        return False

    def literal(self, v: Any, t: Type) -> str:
        """A value written in the rules language."""
        match t:
            case BoolT():
                return "true" if v else "false"
            case IntT() | NumberT():
                q = Fraction(v)
                return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"
            case TextT():
                return json.dumps(v, ensure_ascii=False)
            case EnumT(name):
                return f"{name}.{v}"
            case RecordT(name):
                parts = [f"{f.name}: {self.literal(v[f.name], f.t)}" for f in self.records[name].fields]
                return f"{name} {{ {', '.join(parts)} }}" if parts else f"{name} {{}}"
            case ListT(item) | SetT(item):
                items = [self.literal(x, item) for x in v]
                if isinstance(t, SetT):
                    return "{" + ", ".join(sorted(items)) + "}"
                return "[" + ", ".join(items) + "]"
        raise AssertionError(f"no literals of type {t}")


class Names:
    """The Python names a ruleset's module gives its checks, records and constants."""

    def __init__(self, model: Resolved):
        e = ModuleEmitter(model)
        self.public = dict(e.public)
        self.records = dict(e.record_names)
        self.consts = dict(e.const_public)
        self.attrs = dict(e.attr_tables)


def to_module(module: types.ModuleType, names: Names, ty: Types, t: Type, v: Any) -> Any:
    """An interpreter value as the module takes it: records become its dataclasses."""
    match t:
        case RecordT(name):
            cls = getattr(module, names.records[name])
            return cls(**{py_name(f.name): to_module(module, names, ty, f.t, v[f.name])
                          for f in ty.records[name].fields})
        case ListT(item):
            return tuple(to_module(module, names, ty, item, x) for x in v)
        case SetT(item):
            return frozenset(to_module(module, names, ty, item, x) for x in v)
    return v


def norm(v: Any) -> Any:
    """Module and interpreter values in one comparable form: numbers exact (2 == Fraction(2)),
    yes/no kept apart from 0 and 1, records by field name."""
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, (int, Fraction)):
        return Fraction(v)
    if isinstance(v, str) or v is None:
        return v
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return ("record", tuple(sorted((f.name.removesuffix("_"), norm(getattr(v, f.name)))
                                      for f in dataclasses.fields(v))))
    if isinstance(v, dict):
        return ("record", tuple(sorted((k, norm(x)) for k, x in v.items())))
    if isinstance(v, (tuple, list)):
        return ("list", tuple(norm(x) for x in v))
    if isinstance(v, frozenset):
        return ("set", frozenset(norm(x) for x in v))
    return ("other", type(v).__name__, repr(v))


def _canonical(v: Any) -> str:
    """A normed value as text that is the same however its sets iterate (repr of a frozenset is not:
    it follows the hashes of its strings, which differ from one process to the next)."""
    def canon(x: Any) -> Any:
        if isinstance(x, frozenset):
            return ("set", tuple(sorted((canon(y) for y in x), key=repr)))
        if isinstance(x, tuple):
            return tuple(canon(y) for y in x)
        return x
    return repr(canon(v))


def show(v: Any) -> str:
    if isinstance(v, Fraction):
        return f"Fraction({v.numerator}, {v.denominator})"
    return repr(v)


def wrong_type(v: Any, t: Type, module: types.ModuleType, names: Names, ty: Types) -> str | None:
    """Why a module value is not of the rules type t as the module promises it (None: it is)."""
    match t:
        case BoolT():
            return None if isinstance(v, bool) else f"{show(v)} is not a bool"
        case IntT():
            return None if type(v) is int else f"{show(v)} is not an int"
        case NumberT():
            return None if type(v) in (int, Fraction) else f"{show(v)} is not an int or a Fraction"
        case TextT():
            return None if isinstance(v, str) else f"{show(v)} is not a str"
        case EnumT(name):
            return None if v in ty.enums[name] else f"{show(v)} is not a {name}"
        case RecordT(name):
            cls = getattr(module, names.records[name])
            if not isinstance(v, cls):
                return f"{show(v)} is not a {name}"
            for f in ty.records[name].fields:
                why = wrong_type(getattr(v, py_name(f.name)), f.t, module, names, ty)
                if why:
                    return f"field {f.name}: {why}"
            return None
        case ListT(item) | SetT(item):
            kind = tuple if isinstance(t, ListT) else frozenset
            if not isinstance(v, kind):
                return f"{show(v)} is not a {kind.__name__}"
            for x in v:
                why = wrong_type(x, item, module, names, ty)
                if why:
                    return why
            return None
    raise AssertionError(f"no values of type {t}")


# ---- findings ----------------------------------------------------------------------------------------


@dataclass
class Finding:
    kind: str     # generator | internal | mypy | disagree | crash | type | rules
    key: str      # what a shrunk program must still show: kind, and where
    summary: str  # one line
    detail: str = ""
    call: str | None = None      # the call that shows it, in the rules language
    ruleset: str | None = None
    args: list[Any] | None = None  # its arguments, as interpreter values

    def family(self) -> str:
        """Findings of one family are most likely one bug: a run records a few of each."""
        return self.key if self.kind in ("internal", "mypy") else self.kind

    def text(self) -> str:
        parts = [f"{self.kind}: {self.summary}"]
        if self.call:
            parts.append(f"call ({self.ruleset}): {self.call}")
        if self.detail:
            parts.append(self.detail.rstrip())
        return "\n".join(parts) + "\n"


@dataclass
class Built:
    """A program that checked and built: its models and modules."""

    result: Result
    modules: dict[str, str]  # ruleset -> module source


def internal(stage: str, e: Exception) -> Finding:
    """rulec raised: the key names the stage, the exception and its message without the particulars."""
    words = re.sub(r"\(\w+\.py, line \d+\)|\{.*\}|'[^']*'|\d+", "_", str(e))[:80]
    return Finding("internal", f"internal:{stage}:{type(e).__name__}:{words}",
                   f"rulec {stage} raised {type(e).__name__}: {e}", traceback.format_exc())


class Parses(MemoryParses):
    """The latest files' parses (`keep` of them), kept from one check of a program to the next: a
    file that the settling or shrinking of a program left as it was is not parsed again, as
    `rulec build` takes it from its cache. The oldest go first, so a long shrink holds a few."""

    def __init__(self, keep: int = 16) -> None:
        super().__init__()
        self.keep = keep
        self.latest: dict[tuple[str, str], tuple[Any, list[Diagnostic]]] = {}  # oldest first

    def parse(self, text: str, name: str) -> tuple[Any, list[Diagnostic]]:
        key = (name, text)
        found = self.latest.pop(key, None)
        if found is None:
            found = parse_file(text, name)
        self.latest[key] = found
        while len(self.latest) > self.keep:
            del self.latest[next(iter(self.latest))]
        return found

    def finish(self) -> None:
        pass


def parsing(parses: MemoryParses | None) -> Work | None:
    """What compile_sources keeps from one call to the next: each file's parse alone (see Parses).
    The analyses and modules start afresh on every call."""
    if parses is None:
        return None
    work = Work(None)
    work.parses = parses
    return work


def check_and_build(files: dict[str, str], parses: MemoryParses | None = None, rules: bool = True,
                    ) -> tuple[Built | None, Finding | None, list[Diagnostic]]:
    """`rulec check`, `rulec build` and `rulec test` in process. Errors in the rules come back as
    diagnostics. parses: the parses of files already read (see parsing). rules: `rulec test` asks the
    whole modules too, comparing the rules each example's answers cite (as `--no-rules` leaves out)."""
    try:  # as rulec build: examples run on the module too
        result = compile_sources(files, crosscheck=True, work=parsing(parses))
    except Exception as e:
        return None, internal("check", e), []
    errors = [d for d in result.diagnostics if d.severity == "error"]
    disagree = [d for d in errors if d.code == "R900"]
    if disagree:
        d = disagree[0]
        m = re.search(r": (\w+)\(.*? is (.*) in the generated module", d.message)
        return None, Finding("disagree", f"disagree:R900:{m.group(1) if m else ''}", d.message,
                             d.render(files)), []
    if errors:
        return None, None, errors
    try:
        outputs = dict(iter_outputs(result, validate=True))
    except Exception as e:
        return None, internal("build", e), []
    modules = {rs: outputs[f"python/{rs.lower()}.py"] for rs in result.models}
    try:  # as rulec test, on the whole modules: each example's answers and their rules, asked of both
        loaded = {rs: load_module(text, rs) for rs, text in modules.items()} if rules else None
        report = run_tests(result.models, loaded)
    except Exception as e:
        return None, internal("test", e), []
    disagree = [d for d in report.failures if d.code == "R900"]
    if disagree:
        d = disagree[0]
        return None, Finding("disagree", "disagree:R900:test", d.message, d.render(files)), []
    return Built(result, modules), None, []


_LOADED = itertools.count()


def load(source: str, ruleset: str) -> types.ModuleType:
    name = f"_progen_{ruleset.lower()}_{next(_LOADED)}"
    module = types.ModuleType(name)
    sys.modules[name] = module  # dataclasses look their module up while the class is made
    try:
        exec(compile(source, f"{ruleset.lower()}.py", "exec"), module.__dict__)
    finally:
        sys.modules.pop(name, None)
    return module


INTERP_STEPS = 2_000_000


def interp_call(model: Resolved, fn: str, args: list[Any]) -> tuple[str, Any, list[Any]]:
    """("ok", value, rules) | ("error", message, []) | ("crash", traceback, []) | ("skip", why, [])."""
    interp = Interpreter(model)
    try:
        with budget(INTERP_STEPS):
            value = interp.call(fn, list(args))
    except EvalError as e:
        if "steps" in str(e) or "digits" in str(e):
            return "skip", str(e), []
        return "error", str(e), []
    except ZeroDivisionError as e:
        return "error", str(e), []
    except RecursionError as e:
        return "skip", str(e), []
    except Exception as e:
        return "crash", f"{type(e).__name__}: {e}\n{traceback.format_exc()}", []
    return "ok", value, [(c.layer, c.clause, c.item, c.note) for c in interp.trace]


def module_call(module: types.ModuleType, f: Callable[..., Any], args: list[Any]) -> tuple[str, Any]:
    try:
        return "ok", f(*args)
    except module.RuleError as e:
        return "error", str(e)
    except RecursionError as e:
        return "skip", str(e)
    except Exception as e:
        return "crash", f"{type(e).__name__}: {e}\n{traceback.format_exc()}"


def limit_view(model: Resolved, fn: str, value: Any) -> Any:
    """A limits check's violations, interpreter dicts or module Violations, as one comparable form."""
    group = next(g for g in model.limits if g.name == fn)
    over_set = {i.name: isinstance(i.measure, Agg) and isinstance(i.measure.over.t, SetT) for i in group.items}
    out = []
    for v in value:
        def get(k: str, v: Any = v) -> Any:
            return v[k] if isinstance(v, dict) else getattr(v, k)

        units = [norm(u) for u in get("units")]
        if over_set.get(get("limit")):
            units = sorted(units, key=_canonical)  # a set's items come in no particular order
        out.append((get("limit"), get("title"), get("rule"), norm(get("total")), norm(get("bound")),
                    norm(get("excess")), tuple(units)))
    return out


def check_exprs(d: Check) -> list[Expr]:
    """The expressions a check evaluates (a table's rows, a limits check's conditions and measures)."""
    match d:
        case Define(body=body):
            return [body]
        case Table(rows=rows):
            return [e for r in rows for e in (r.when, r.value) if e is not None]
        case Limits(unless=unless, items=items):
            return [*(u.cond for u in unless),
                    *(e for i in items for e in (*(x.cond for x in i.exempt), i.measure, i.bound))]


def mentions_sets(d: Check) -> bool:
    """Whether a check takes, returns or computes a set anywhere: a parameter, its result, an
    expression or a loop variable of a set type (to go through a set's items, an expression must
    be one; a list of sets is not, but each of its items is)."""
    if any(isinstance(p.t, SetT) for p in d.params) or (not isinstance(d, Limits) and isinstance(d.returns, SetT)):
        return True
    return any(isinstance(n.t, SetT) or (isinstance(n, Agg) and isinstance(n.vart, SetT))
               for e in check_exprs(d) for n in walk(e))


class Comparer:
    """Calls every check of one ruleset's module and the interpreter with the same arguments."""

    def __init__(self, resolved: Resolved, module: types.ModuleType, rules: bool = True):
        self.model = resolved
        self.module = module
        self.ruleset = resolved.manifest.ruleset
        self.ty = Types(resolved)
        self.names = Names(resolved)
        self.rules = rules  # compare the rules each answer cites, too
        self._over_sets: dict[Check, bool] = {}  # loops_over_sets, by check

    def checks(self) -> list[Check]:
        return [*self.model.defines, *self.model.tables, *self.model.limits]

    def loops_over_sets(self, d: Check) -> bool:
        """Whether a check may go through a set's items (its own or those of what it calls): worked
        out once for each check, not on every call of it."""
        known = self._over_sets.get(d)
        if known is None:
            called = {n.fn for e in check_exprs(d) for n in walk(e) if isinstance(n, Call)}
            known = self._over_sets[d] = mentions_sets(d) or any(mentions_sets(x) for x in self.checks()
                                                                 if x.name in called)
        return known

    def call_text(self, d: Check, args: list[Any]) -> str:
        return f"{d.name}({', '.join(self.ty.literal(a, p.t) for a, p in zip(args, d.params, strict=True))})"

    def one(self, d: Check, args: list[Any]) -> Finding | None:
        """Compare one call; a Finding when they differ."""
        fn = d.name
        returns = None if isinstance(d, Limits) else d.returns
        expected = interp_call(self.model, fn, args)

        def finding(kind: str, summary: str, detail: str = "") -> Finding:
            return Finding(kind, f"{kind}:{self.ruleset}:{fn}", summary, detail, self.call_text(d, args),
                           self.ruleset, list(args))

        if expected[0] == "skip":
            return None
        if expected[0] == "crash":
            return finding("crash", f"the interpreter crashed on {fn}", expected[1])
        try:
            margs = [to_module(self.module, self.names, self.ty, p.t, a) for a, p in zip(args, d.params, strict=True)]
        except Exception as e:
            return finding("crash", f"the module cannot take the arguments of {fn}: {type(e).__name__}: {e}",
                           traceback.format_exc())
        public = self.names.public[fn]
        got = module_call(self.module, getattr(self.module, public), margs)
        explained = module_call(self.module, getattr(self.module, f"explain_{public}"), margs)
        for label, answer in (("", got), ("explain_", explained)):
            if answer[0] == "skip":
                return None
            if answer[0] == "crash":
                return finding("crash", f"the module's {label}{public} crashed", answer[1])
            if answer[0] != expected[0]:
                want = "no answer (RuleError)" if expected[0] == "error" else show(expected[1])
                have = f"RuleError({answer[1]!r})" if answer[0] == "error" else show(answer[1])
                return finding("disagree", f"{label}{public}: the interpreter gives {want}, the module {have}",
                               f"interpreter: {expected[0]} {expected[1] if expected[0] == 'error' else ''}")
        if expected[0] == "error":
            return None
        value = got[1]
        answer = explained[1]
        if not hasattr(answer, "value") or not hasattr(answer, "rules"):
            return finding("type", f"explain_{public} returned {show(answer)}, not an Answer")
        for label, v in (("", value), ("explain_", answer.value)):
            if returns is None:
                same = limit_view(self.model, fn, v) == limit_view(self.model, fn, expected[1])
            else:
                same = norm(v) == norm(expected[1])
                why = wrong_type(v, returns, self.module, self.names, self.ty)
                if same and why:
                    return finding("type", f"{label}{public} answers {show(v)}: {why} (its type is {returns})")
            if not same:
                return finding("disagree", f"{label}{public}: the interpreter gives {show(expected[1])}, "
                               f"the module {show(v)}")
        # A check that goes through a set's items meets them in no set order (str hashes differ from one
        # process to the next): any() may stop at another item, and cite another list value.
        if self.rules and not self.loops_over_sets(d):
            cites = [(c.layer, c.clause, c.item, c.note) for c in answer.rules]
            if cites != expected[2]:
                return finding("rules", f"explain_{public} cites other rules than the interpreter",
                               f"interpreter: {expected[2]}\nmodule:      {cites}")
        return None

    def run(self, rng: random.Random, samples: int = SAMPLES) -> list[Finding]:
        out = []
        for d in self.checks():
            n = samples if d.params else 1
            for _ in range(n):
                args = [self.ty.value(rng, p.t) for p in d.params]
                found = self.one(d, args)
                if found is not None:
                    out.append(found)
                    break
        out += self.constants()
        out += self.safe_path(rng)
        return out

    def safe_path(self, rng: random.Random, samples: int = 4) -> list[Finding]:
        """from_json(record, data) makes the record the data describe when every invariant holds of
        it and of the records inside it (as the interpreter says), and refuses it otherwise."""
        out = []
        for r in self.model.records:
            key = f"disagree:{self.ruleset}:from_json:{r.name}"
            for _ in range(samples):
                v = self.ty.value(rng, RecordT(r.name))
                verdict = self.valid(v, RecordT(r.name))
                if verdict is None:
                    continue
                data = encode(v)
                call = f"from_json({r.name!r}, {json.dumps(data)})"
                try:
                    made = self.module.from_json(r.name, data)
                except self.module.InvalidInput as e:
                    if verdict:
                        out.append(Finding("disagree", key, f"from_json refuses a {r.name} every invariant "
                                           f"holds of: {e}", call=call, ruleset=self.ruleset))
                        break
                    continue
                except Exception as e:
                    out.append(Finding("crash", key.replace("disagree", "crash", 1), f"from_json crashed: "
                                       f"{type(e).__name__}: {e}", traceback.format_exc(), call, self.ruleset))
                    break
                if not verdict:
                    out.append(Finding("disagree", key, f"from_json takes a {r.name} an invariant does not "
                                       "hold of", call=call, ruleset=self.ruleset))
                    break
                if norm(made) != norm(v):
                    out.append(Finding("disagree", key, f"from_json makes {show(made)} of {show(v)}", call=call,
                                       ruleset=self.ruleset))
                    break
        return out

    def valid(self, v: Any, t: Type) -> bool | None:
        """Whether every invariant holds of v and of the records in it (None: the interpreter cannot say)."""
        match t:
            case RecordT(name):  # as from_json reads it: the fields (records in them) first
                for f in self.ty.records[name].fields:
                    inner = self.valid(v[f.name], f.t)
                    if inner is not True:
                        return inner
                for d in self.model.defines:
                    if d.invariant is not None and [p.t for p in d.params] == [t]:
                        status, value, _ = interp_call(self.model, d.name, [v])
                        if status != "ok":
                            return None
                        if not value:
                            return False
                return True
            case ListT(item) | SetT(item) if isinstance(item, (RecordT, ListT, SetT)):
                for x in v:
                    inner = self.valid(x, item)
                    if inner is not True:
                        return inner
        return True

    def constants(self) -> list[Finding]:
        """The module's constants and list settings are the interpreter's."""
        out = []
        interp = Interpreter(self.model)
        for c in self.model.consts:
            try:
                want = interp._const(c.name)
            except (EvalError, ZeroDivisionError):
                continue
            got = getattr(self.module, self.names.consts[c.name], None)
            if norm(got) != norm(want):
                out.append(Finding("disagree", f"disagree:{self.ruleset}:const:{c.name}",
                                   f"const {c.name}: the interpreter gives {show(want)}, the module {show(got)}",
                                   ruleset=self.ruleset))
        for e in self.model.enums:
            for a in e.attrs:
                table = getattr(self.module, self.names.attrs[(e.name, a.name)], {})
                for mem in e.members:
                    want = from_json(dict(mem.attrs)[a.name].value, a.t)
                    if norm(table.get(mem.name)) != norm(want):
                        out.append(Finding("disagree", f"disagree:{self.ruleset}:setting:{e.name}.{a.name}",
                                           f"{e.name} {mem.name} {a.name}: the interpreter gives "
                                           f"{show(want)}, the module {show(table.get(mem.name))}",
                                           ruleset=self.ruleset))
                        break
        return out


def compare(built: Built, rng: random.Random, samples: int = SAMPLES, rules: bool = True) -> list[Finding]:
    out = []
    for rs in sorted(built.result.models):
        try:
            module = load(built.modules[rs], rs)
        except Exception as e:
            found = internal("import", e)
            found.summary = f"the module of {rs} does not import: {type(e).__name__}: {e}"
            found.ruleset = rs
            out.append(found)
            continue
        out += Comparer(built.result.models[rs], module, rules).run(rng, samples)
    return out


MYPY = [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--show-error-codes",
        "--python-version", "3.11"]


def mypy(modules: dict[str, str], cache: Path | None = None) -> dict[str, list[str]]:
    """`mypy --strict` on many modules at once: the errors of each, by its name.

    cache: a folder of this process's own, where mypy's cache of the standard library the modules
    import is kept from one call to the next (a third of mypy's time on a batch): made once, by a
    first call on those imports alone, then copied for each call, so that no module checked is ever
    in it (each is checked afresh) and it does not grow. None: no cache (mypy --no-incremental)."""
    if not modules:
        return {}
    out: dict[str, list[str]] = {name: [] for name in modules}
    with tempfile.TemporaryDirectory(prefix="progen-mypy-") as tmp:
        flags = ["--no-incremental", "--cache-dir", os.devnull]
        if cache is not None:
            stdlib = cache / "stdlib"
            if not stdlib.is_dir():
                stdlib_cache(stdlib, modules.values())
            shutil.copytree(stdlib, Path(tmp, ".mypy_cache"))
            flags = ["--cache-dir", str(Path(tmp, ".mypy_cache"))]
        for name, source in modules.items():
            Path(tmp, f"{name}.py").write_text(source, encoding="utf-8")
        proc = subprocess.run([*MYPY, *flags, *sorted(f"{n}.py" for n in modules)], cwd=tmp, capture_output=True,
                              text=True)
        for line in proc.stdout.splitlines():
            m = re.match(r"([A-Za-z0-9_]+)\.py:\d+: error:", line)
            if m and m.group(1) in out:
                out[m.group(1)].append(line)
        if proc.returncode not in (0, 1) or (proc.returncode == 1 and not any(out.values())):
            raise RuntimeError(f"mypy failed to run: {proc.stdout}{proc.stderr}")
    return out


IMPORT = re.compile(r"^(?:from\s+([\w.]+)\s+import\b|import\s+([\w.]+)\s*$)", re.M)


def stdlib_cache(folder: Path, sources: Iterable[str]) -> None:
    """mypy's cache of what the modules import, in folder (see mypy): made in a folder beside it,
    then renamed, so that a folder there is always whole."""
    imported = sorted({name for source in sources for pair in IMPORT.findall(source) for name in pair
                       if name and name != "__future__"})
    folder.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="progen-stdlib-", dir=folder.parent) as tmp:
        Path(tmp, "progen_imports.py").write_text("".join(f"import {m}\n" for m in imported), encoding="utf-8")
        proc = subprocess.run([*MYPY, "--cache-dir", str(Path(tmp, "cache")), "progen_imports.py"], cwd=tmp,
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"mypy failed to run: {proc.stdout}{proc.stderr}")
        os.replace(Path(tmp, "cache"), folder)


def mypy_findings(built: Built, tag: str) -> list[Finding]:
    names = {f"{tag}_{rs.lower()}": rs for rs in built.modules}
    errors = mypy({n: built.modules[rs] for n, rs in names.items()})
    return [f for n, errs in errors.items() for f in mypy_finding(names[n], errs)]


def mypy_finding(ruleset: str, errors: list[str]) -> list[Finding]:
    """One finding per kind of mypy error ([arg-type], [var-annotated], ...)."""
    by_code: dict[str, list[str]] = {}
    for e in errors:
        m = re.search(r"\[([a-z-]+)\]$", e)
        by_code.setdefault(m.group(1) if m else "error", []).append(
            re.sub(r"^[A-Za-z0-9_]+\.py", ruleset.lower() + ".py", e))
    return [Finding("mypy", f"mypy:{ruleset}:{code}", f"mypy --strict finds {len(errs)} [{code}] error(s) in the "
                    f"module of {ruleset}", "\n".join(errs[:10]), ruleset=ruleset) for code, errs in by_code.items()]


# ---- making a program: generate, mend semantic mistakes, add worked examples ---------------------------


def settle(program: Program, rounds: int = 20, parses: MemoryParses | None = None,
           ) -> tuple[Program, Finding | None, int]:
    """Check the program; drop the rows that can never match and the examples that fail (mistakes of
    meaning, which random rules make), and try again. Any other mistake is a generator bug.
    Returns the program, a finding if it could not be settled, and how many items were dropped."""
    program, finding, dropped, _ = settled(program, rounds, parses)
    return program, finding, dropped


def settled(program: Program, rounds: int = 20, parses: MemoryParses | None = None,
            ) -> tuple[Program, Finding | None, int, Result | None]:
    """settle, and the check of the settled program (None if it did not settle)."""
    dropped = 0
    for _ in range(rounds):
        files = program.files()
        try:
            result = compile_sources(files, work=parsing(parses))
        except Exception as e:
            return program, internal("check", e), dropped, None
        errors = [d for d in result.diagnostics if d.severity == "error"]
        if not errors:
            return program, None, dropped, result
        where: list[tuple[int, int | None]] = []
        for d in errors:
            found = program.locate(d.span.file, d.span.line)
            written = files[d.span.file].split("\n")[d.span.line - 1].strip() if found is not None else ""
            if found is not None and found[1] is None and d.code in REPAIRABLE and written.startswith("override "):
                where.append(found)  # a change that made a row dead (R301 is where it is written): drop its block
                continue
            if d.code not in REPAIRABLE or found is None or found[1] is None:
                text = "\n".join(x.render(files) for x in errors[:5])
                return program, Finding("generator", f"generator:{d.code}",
                                        f"the generator wrote a program rulec check refuses ({d.code})", text), \
                    dropped, None
            b, i = found[0], found[1]
            if ": otherwise =>" in "".join(program.blocks[b].items[i].lines):
                if i > 0:
                    found = (b, i - 1)  # the rows above take every case: drop the last of them, keep otherwise
                else:  # the game's exception rows take every case: drop them
                    m = re.search(r"table (\w+)\(", "".join(program.blocks[b].head))
                    table = m.group(1) if m else "?"
                    where += [(x, None) for x, blk in enumerate(program.blocks)
                              if any(f"except {table} {{" in ln for ln in blk.head)]
                    continue
            where.append(found)
        program = program.dropping(where)
        dropped += len(set(where))
    return program, Finding("generator", "generator:unsettled", "the program did not settle"), dropped, None


def add_examples(program: Program, rng: random.Random, result: Result | None = None) -> Program:
    """Worked examples of some checks, their expectations worked out by the interpreter.
    result: the program's check, if the caller has it (settled's), so it is not checked again."""
    if result is None:
        result = compile_sources(program.files())
    if not result.ok:
        return program
    blocks = list(program.blocks)
    number = {SERIES_FILE: 50, GAME_FILE: 150}
    for rs, file in (("S", SERIES_FILE), ("G", GAME_FILE)):
        resolved = result.models.get(rs)
        if resolved is None:
            continue
        ty = Types(resolved)
        own: list[Check] = [d for d in (*resolved.defines, *resolved.tables, *resolved.limits)
                            if d.origin.layer == rs]
        rng.shuffle(own)
        for d in own[:rng.randint(0, 2)]:
            items = []
            for _ in range(rng.randint(1, 3)):
                args = [ty.value(rng, p.t) for p in d.params]
                status, value, _ = interp_call(resolved, d.name, args)
                if status != "ok":
                    continue
                written = [ty.literal(a, p.t) for a, p in zip(args, d.params, strict=True)]
                lines = []
                if written and rng.random() < 0.3:
                    lines.append(f"    let arg = {written[0]}")
                    written[0] = "arg"
                call = f"{d.name}({', '.join(written)})"
                by = f" by {d.origin.clause}" if rng.random() < 0.3 and d.origin.clause else ""
                if isinstance(d, Limits):
                    lines.append(f"    expect len({call}) == {len(value)}{by}")
                elif isinstance(d.returns, BoolT):
                    lines.append(f"    expect {'' if value else 'not '}{call}{by}")
                else:
                    lines.append(f"    expect {call} == {ty.literal(value, d.returns)}{by}")
                items.append(Item(lines))
            if items:
                number[file] += 1
                blocks.append(Block(file, [f'rule {number[file]} "Worked examples of {d.name}" {{',
                                           f'  example "{d.name} at work" {{'], items, ["  }", "}"],
                                    needs=frozenset({f"{'limits' if isinstance(d, Limits) else 'func'}:{d.name}"})))
    return Program(blocks)


def make(seed: int, index: int, allow: frozenset[str] = frozenset(),
         parses: MemoryParses | None = None) -> tuple[Program, Finding | None]:
    """Program `index` of run `seed`, settled, with worked examples: a pure function of its arguments.
    parses: a parse cache to share with the checks that follow (see parsing)."""
    rng = random.Random(f"progen-examples:{seed}:{index}")
    program, finding, _, result = settled(generate(seed, index, allow), parses=parses)
    if finding is not None:
        return program, finding
    examples = add_examples(program, rng, result)
    if len(examples.blocks) == len(program.blocks):  # no example written: settled already
        return program, None
    program, finding, _ = settle(examples, parses=parses)
    return program, finding


# ---- running: one program, a batch, shrinking, fixtures ---------------------------------------------------


@dataclass
class Outcome:
    index: int
    program: Program
    findings: list[Finding]
    built: Built | None = None


def test_program(program: Program, rng_seed: str, samples: int = SAMPLES, rules: bool = True,
                 with_mypy: bool = True, parses: MemoryParses | None = None) -> tuple[list[Finding], Built | None]:
    """Every check on one program: check and build, mypy (unless batched by the caller), compare."""
    built, finding, errors = check_and_build(program.files(), parses, rules)
    if finding is not None:
        return [finding], None
    if built is None:
        text = "\n".join(d.render(program.files()) for d in errors[:5])
        return [Finding("generator", f"generator:{errors[0].code}", "rulec check refuses the program", text)], None
    findings = compare(built, random.Random(rng_seed), samples, rules)
    if with_mypy:
        findings += mypy_findings(built, "m")
    return findings, built


def reproduces(program: Program, finding: Finding, rng_seed: str, rules: bool,
               parses: MemoryParses | None = None) -> Finding | None:
    """The finding as the program still shows it (same kind, same place), or None."""
    built, found, _ = check_and_build(program.files(), parses, rules)
    if found is not None:
        return found if found.key == finding.key else None
    if built is None:
        return None
    if finding.kind == "mypy":
        return next((f for f in mypy_findings(built, "shrink") if f.key == finding.key), None)
    if finding.kind == "internal":
        return next((f for f in compare(built, random.Random(rng_seed), 1, rules) if f.key == finding.key), None)
    rs = finding.ruleset
    if rs not in built.result.models:
        return None
    try:
        module = load(built.modules[rs], rs)
    except Exception:
        return None
    comparer = Comparer(built.result.models[rs], module, rules)
    if ":const:" in finding.key or ":setting:" in finding.key:
        return next((f for f in comparer.constants() if f.key == finding.key), None)
    if ":from_json:" in finding.key:
        rng = random.Random(rng_seed)
        for _ in range(10):
            found = next((f for f in comparer.safe_path(rng) if f.key == finding.key), None)
            if found is not None:
                return found
        return None
    fn = finding.key.split(":", 2)[2]
    d = next((x for x in comparer.checks() if x.name == fn), None)
    if d is None:
        return None
    if finding.args is not None and len(finding.args) == len(d.params) and \
            all(comparer.ty.valid(a, p.t) for a, p in zip(finding.args, d.params, strict=True)):
        found = comparer.one(d, finding.args)
        if found is not None:
            if found is not None and found.key == finding.key:
                return found
    rng = random.Random(rng_seed)
    for _ in range(SAMPLES * 3 if d.params else 1):
        found = comparer.one(d, [comparer.ty.value(rng, p.t) for p in d.params])
        if found is not None and found.key == finding.key:
            return found
    return None


def encode(v: Any) -> Any:
    """An interpreter value as JSON: numbers not whole as "p/q", sets as lists."""
    if isinstance(v, bool) or v is None or isinstance(v, (int, str)):
        return v
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    if isinstance(v, dict):
        return {k: encode(x) for k, x in v.items()}
    return [encode(x) for x in v]


def decode(v: Any, t: Type, ty: Types) -> Any:
    """A value written by encode, as the interpreter takes it (records hashable)."""
    match t:
        case NumberT():
            return Fraction(v) if isinstance(v, str) else v
        case RecordT(name):
            return Record({f.name: decode(v[f.name], f.t, ty) for f in ty.records[name].fields if f.name in v})
        case ListT(item):
            return tuple(decode(x, item, ty) for x in v)
        case SetT(item):
            return frozenset(decode(x, item, ty) for x in v)
    return v


def recorded_args(model: Resolved, d: Check, args: Any) -> list[Any] | None:
    """The arguments a fixture recorded, if they still fit the check's parameters."""
    ty = Types(model)
    if not isinstance(args, list) or len(args) != len(d.params):
        return None
    try:
        values = [decode(a, p.t, ty) for a, p in zip(args, d.params, strict=True)]
    except (KeyError, TypeError, ValueError):
        return None
    return values if all(ty.valid(a, p.t) for a, p in zip(values, d.params, strict=True)) else None


def shrink(program: Program, finding: Finding, rng_seed: str, rules: bool,
           limit: float = 240.0) -> tuple[Program, Finding]:
    """Drop blocks, then items, one at a time, while the finding persists (a few minutes at most).
    Returns the smaller program and the finding as it shows there."""
    start = time.monotonic()
    parses = Parses()  # a candidate differs from the program in one file: the others are parsed once
    changed = True
    while changed and time.monotonic() - start < limit:
        changed = False
        b = len(program.blocks) - 1
        while b >= 0 and time.monotonic() - start < limit:
            if b < len(program.blocks) and not program.blocks[b].fixed:
                candidate = program.without(b)
                found = reproduces(candidate, finding, rng_seed, rules, parses)
                if found is not None:
                    program, finding, changed = candidate, found, True
            b -= 1
        for b in range(len(program.blocks) - 1, -1, -1):
            i = len(program.blocks[b].items) - 1 if b < len(program.blocks) else -1
            while i >= 0 and time.monotonic() - start < limit:
                if b < len(program.blocks) and i < len(program.blocks[b].items):
                    candidate = program.without(b, i)
                    found = reproduces(candidate, finding, rng_seed, rules, parses)
                    if found is not None:
                        program, finding, changed = candidate, found, True
                i -= 1
    return program, finding


def fixture_name(finding: Finding, seed: int, index: int) -> str:
    return f"{finding.kind}-s{seed}-{index}"


def write_fixture(folder: Path, program: Program, finding: Finding, seed: int, index: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.rules"):
        old.unlink()
    for name, text in program.files().items():
        (folder / Path(name).name).write_text(text, encoding="utf-8")
    text = (f"Found by: python -m tests.progen --seed {seed} --first {index} --count 1\n"
            f"Replayed by: python -m pytest tests/test_progen.py -k {folder.name}\n\n"
            f"What is wrong:\n{finding.text()}")
    (folder / "expected.txt").write_text(text, encoding="utf-8")
    meta = {"kind": finding.kind, "key": finding.key, "ruleset": finding.ruleset, "call": finding.call,
            "args": None if finding.args is None else encode(finding.args)}
    (folder / "finding.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    return folder


def fixture_program(folder: Path) -> dict[str, str]:
    return {f"progen/{p.name}": p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.rules"))}


def replay(folder: Path, samples: int = SAMPLES * 3) -> list[Finding]:
    """Every check on a fixture's program, its recorded call first: [] when it passes."""
    files = fixture_program(folder)
    meta = json.loads((folder / "finding.json").read_text(encoding="utf-8"))
    if meta.get("diagnostic"):  # rules that are wrong after all: rulec check must say so, and no more
        return expect_diagnostic(files, meta["diagnostic"])
    blocks = [Block(name, text.rstrip("\n").split("\n"), fixed=True) for name, text in files.items()]
    program = Program(blocks)
    findings, built = test_program(program, f"replay:{folder.name}", samples)
    if built is not None and meta.get("call") and meta.get("ruleset") in built.result.models:
        rs = meta["ruleset"]
        model = built.result.models[rs]
        module = load(built.modules[rs], rs)
        comparer = Comparer(model, module)
        fn = meta["call"].split("(", 1)[0]
        d = next((x for x in comparer.checks() if x.name == fn), None)
        args = recorded_args(model, d, meta.get("args")) if d is not None else None
        if d is not None and args is not None:
            found = comparer.one(d, args)
            if found is not None:
                findings.insert(0, found)
    return findings


def same_bug(recorded: str, key: str) -> bool:
    """Whether a finding's key is the one a reproducer recorded: the same kind and exception (an
    internal error, whichever stage now meets it), the same kind of mypy error (in either ruleset),
    or the same check."""
    a, b = recorded.split(":"), key.split(":")
    if a[0] != b[0]:
        return False
    if a[0] == "internal":
        return len(a) < 3 or a[2:3] == b[2:3]  # internal:STAGE alone: any exception
    if a[0] == "mypy":
        return a[2:3] == b[2:3]
    return a[-1] == b[-1]


def expect_diagnostic(files: dict[str, str], code: str) -> list[Finding]:
    """[] when rulec check refuses the files with the error `code`, and ends in nothing worse."""
    try:
        result = compile_sources(files)
    except Exception as e:
        return [internal("check", e)]
    codes = [d.code for d in result.diagnostics if d.severity == "error"]
    if code in codes:
        return []
    return [Finding("generator", f"diagnostic:{code}", f"rulec check does not report {code} (it reports "
                    f"{', '.join(codes) or 'nothing'})")]


def fixtures() -> list[Path]:
    return sorted(p for p in FIXTURES.iterdir() if p.is_dir()) if FIXTURES.is_dir() else []


# ---- the command line ----------------------------------------------------------------------------------


@dataclass
class Run:
    passed: int = 0
    failed: int = 0
    findings: list[tuple[int, Finding]] = field(default_factory=list)
    dropped: int = 0


def run(count: int, seed: int, first: int = 0, keep: Path | None = None, with_mypy: bool = True,
        shrink_findings: bool = True, fixtures_dir: Path | None = FIXTURES, max_fixtures: int = 2,
        batch: int = 25, rules: bool = True, allow: frozenset[str] = frozenset(),
        log: Callable[[str], None] = print, jobs: int = 1) -> Run:
    """Programs first .. first+count-1 of the run `seed`, in batches of `batch` (one mypy call each),
    over `jobs` worker processes. The batches' outcomes are taken in the order of the programs,
    whichever worker made them, and the findings are shrunk and written as they come in that order:
    the log (but for the times), the fixtures and the result are those of one process."""
    state = Run()
    recorded: dict[str, int] = {}
    start = time.monotonic()
    spans = [(lo, min(lo + batch, first + count)) for lo in range(first, first + count, batch)]
    with tempfile.TemporaryDirectory(prefix="progen-run-") as tmp:
        work = functools.partial(run_batch, seed=seed, keep=keep, with_mypy=with_mypy, rules=rules, allow=allow,
                                 mypy_caches=Path(tmp))
        with batches(work, spans, jobs) as made:
            for outcomes in made:
                for o in outcomes:
                    if not o.findings:
                        state.passed += 1
                        continue
                    state.failed += 1
                    for f in o.findings:
                        state.findings.append((o.index, f))
                        log(f"program {o.index}: {f.summary}" + (f"  [{f.call}]" if f.call else ""))
                    new = [f for f in o.findings
                           if recorded.get(f.family(), 0) < max_fixtures and f.kind != "generator"]
                    if fixtures_dir is None or not new:
                        continue
                    f = new[0]
                    recorded[f.family()] = recorded.get(f.family(), 0) + 1
                    program = o.program
                    if shrink_findings:
                        program, f = shrink(program, f, f"progen-shrink:{seed}:{o.index}", rules)
                    folder = write_fixture(fixtures_dir / fixture_name(f, seed, o.index), program, f, seed, o.index)
                    log(f"  reproducer: {folder.relative_to(ROOT) if folder.is_relative_to(ROOT) else folder} "
                        f"({program.size()} parts)")
                done = state.passed + state.failed
                log(f"[{done}/{count}] {state.passed} passed, {state.failed} failed ({time.monotonic() - start:.0f} s)")
    return state


@contextlib.contextmanager
def batches(work: Callable[[tuple[int, int]], list[Outcome]], spans: list[tuple[int, int]],
            jobs: int) -> Iterator[Iterator[list[Outcome]]]:
    """Each span's outcomes, in the order of the spans: made here (jobs 1), or by `jobs` worker
    processes, each taking the next span not yet taken (so the first spans come first)."""
    if jobs <= 1 or len(spans) <= 1:
        yield (work(span) for span in spans)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with context.Pool(min(jobs, len(spans))) as pool:
        yield pool.imap(functools.partial(shipped, work), spans)


def shipped(work: Callable[[tuple[int, int]], list[Outcome]], span: tuple[int, int]) -> list[Outcome]:
    """A worker's outcomes, as little as the parent needs of them: no build, and a program only
    where there is a finding to shrink and record."""
    return [dataclasses.replace(o, built=None, program=o.program if o.findings else Program([]))
            for o in work(span)]


def run_batch(span: tuple[int, int], seed: int, keep: Path | None, with_mypy: bool, rules: bool,
              allow: frozenset[str], mypy_caches: Path | None = None) -> list[Outcome]:
    """Programs span[0] .. span[1]-1 made, checked and compared, then mypy --strict on all their
    modules in one call (with this process's cache under mypy_caches)."""
    outcomes: list[Outcome] = []
    for index in range(*span):
        parses = Parses()  # one program's files, from its settling to its build
        program, finding = make(seed, index, allow, parses)
        if finding is not None:
            outcomes.append(Outcome(index, program, [finding]))
            continue
        findings, built = test_program(program, f"progen-values:{seed}:{index}", rules=rules, with_mypy=False,
                                       parses=parses)
        outcomes.append(Outcome(index, program, findings, built))
        if keep is not None:
            keep_program(keep / f"s{seed}-{index:05d}", program, built)
    if with_mypy:
        names = {f"p{o.index}_{rs.lower()}": (o, rs) for o in outcomes if o.built for rs in o.built.modules}
        cache = None if mypy_caches is None else mypy_caches / f"mypy-{os.getpid()}"
        errors = mypy({n: o.built.modules[rs] for n, (o, rs) in names.items() if o.built}, cache)
        for n, errs in errors.items():
            if errs:
                o, rs = names[n]
                o.findings += mypy_finding(rs, errs)
    return outcomes


def keep_program(folder: Path, program: Program, built: Built | None) -> None:
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for name, text in program.files().items():
        (folder / Path(name).name).write_text(text, encoding="utf-8")
    if built is not None:
        for rs, source in built.modules.items():
            (folder / f"{rs.lower()}.py").write_text(source, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.progen", description=__doc__.split("\n\n")[0])
    p.add_argument("--count", type=int, default=100, help="how many programs")
    p.add_argument("--seed", type=int, default=1, help="the run: the same seed writes the same programs")
    p.add_argument("--first", type=int, default=0, help="the number of the first program (to replay one)")
    p.add_argument("--keep", type=Path, help="write every program and its modules into this folder")
    p.add_argument("--no-mypy", action="store_true", help="do not run mypy --strict on the modules")
    p.add_argument("--no-shrink", action="store_true", help="record findings as found, unshrunk")
    p.add_argument("--no-rules", action="store_true", help="compare values only, not the rules answers cite")
    p.add_argument("--fixtures", type=Path, default=FIXTURES, help="where reproducers go (default: %(default)s)")
    p.add_argument("--no-fixtures", action="store_true", help="write no reproducers")
    p.add_argument("--max-fixtures", type=int, default=2, help="reproducers written per family of finding (one "
                   "kind of mypy error or internal error, or disagreements)")
    p.add_argument("--allow", action="append", default=[], choices=sorted(KNOWN),
                   help="also write a construct left out because it hits a known bug")
    p.add_argument("--jobs", type=int, default=1, help="worker processes the programs are shared among, a batch "
                   "at a time (the findings, reproducers and result are the same for any number)")
    args = p.parse_args(argv)
    if args.jobs < 1:
        p.error("--jobs must be 1 or more")
    state = run(args.count, args.seed, args.first, args.keep, not args.no_mypy, not args.no_shrink,
                None if args.no_fixtures else args.fixtures, args.max_fixtures, rules=not args.no_rules,
                allow=frozenset(args.allow), jobs=args.jobs)
    kinds: dict[str, int] = {}
    for _, f in state.findings:
        kinds[f.kind] = kinds.get(f.kind, 0) + 1
    if kinds:
        print("findings: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    print(f"{state.passed} passed, {state.failed} failed")
    return 1 if state.failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
