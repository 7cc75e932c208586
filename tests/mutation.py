"""The table analysis against mutants of the shipped rules, judged by enumeration.

Each mutant changes one thing in one table of rules/ (a comparison, a whole number in a condition,
`and` for `or`, one item of a set, a row dropped or moved up a place), is checked as `rulec check`
does, and its table is then decided a second way, by trying every input of a bounded domain on the
reference interpreter: every value of each list and yes/no field the conditions read, whole numbers
at and around those they name, the texts they name and one other, and lists of none, one or two
items of such records. That enumeration is the oracle:

* a row the enumeration finds first for some input must not be reported as never matching (R301),
  and a row it never finds first must be (the domain holds every threshold the conditions name);
* an input it finds that matches no row must be reported (R302); and every R302 the analysis
  reports must give an input that really matches no row when pasted into a question;
* two exception rows of one layer it finds answering one input differently must be reported (R303).
* an input it finds that reaches a row whose condition cannot be worked out (a division by zero,
  where the interpreter stops with no answer) must be reported (R306);
* an input it finds whose first matching row's value cannot be worked out must be reported (R307),
  and every R307 must give an input that really has no answer.

Definitions are mutated too (their bodies and what they require): each is decided as a table of one
`otherwise` row whose value is its body, and an input the enumeration finds for which it cannot be
worked out must be reported (R308), and every R308 must give an input that really has no answer.

A mutant whose domain is too large to try whole is tried on a seeded sample and counts only for
what the sample shows (a finding of the sample must be reported; nothing is counted as missed
from it). A condition the analysis calls undecided (R304) is counted apart, never as detected.

    python -m tests.mutation --count 400 --seed 1     # N mutants; exit 1 on a miss or a false report
"""

from __future__ import annotations

import argparse
import itertools
import random
import re
import sys
import time
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rulec import model as m  # noqa: E402
from rulec.analysis import DefinitionAnalysis, TableAnalysis  # noqa: E402
from rulec.build import compile_sources, find_sources  # noqa: E402
from rulec.cache import Work  # noqa: E402
from rulec.crosscheck import plain  # noqa: E402
from rulec.evaluate import EvalFailure, evaluate  # noqa: E402
from rulec.interp import EvalError, Interpreter, Record, from_json  # noqa: E402
from rulec.types import BoolT, EnumT, IntT, ListT, NumberT, RecordT, SetT, TextT, Type  # noqa: E402

MAX_INPUTS = 60_000  # inputs the enumeration tries on one table; more and it samples

# ---- mutants ---------------------------------------------------------------------------------

_TABLE = re.compile(r"^(?P<indent>[ \t]*)table (?P<name>\w+)\(", re.MULTILINE)
_ROW = re.compile(r"^[ \t]+\w+: (?:when|otherwise)\b", re.MULTILINE)
_STRING = r'"(?:[^"\\\n]|\\.)*"'
_SWAPS = {"<=": "<", "<": "<=", ">=": ">", ">": ">=", "==": "!=", "!=": "==", "and": "or", "or": "and"}
_SITE = re.compile(rf"{_STRING}|(?P<op><=|>=|==|!=|(?<![-=])<(?!=)|(?<![-=])>(?!=)|\band\b|\bor\b)"
                   r"|(?P<num>(?<![\w/.])\d+(?![\w/.]))|(?P<set>\{[^{}\n]*,[^{}\n]*\})")


@dataclass
class Mutant:
    file: str
    table: str  # the table's name, or the definition's
    what: str
    text: str  # the file's new text
    kind: str = "table"  # or "define"


def table_blocks(text: str) -> list[tuple[str, int, int]]:
    """Each table of a file: its name and where its block is (from `table` to its closing brace)."""
    out = []
    for match in _TABLE.finditer(text):
        start = match.start()
        close = re.compile(rf"^{match['indent']}\}}", re.MULTILINE).search(text, match.end())
        if close is not None:
            out.append((match["name"], start, close.end()))
    return out


_DEFINE = re.compile(r"^(?P<indent>[ \t]*)define (?P<name>\w+)\(", re.MULTILINE)


def define_blocks(text: str) -> list[tuple[str, int, int]]:
    """Each definition of a file with parameters: its name and where it is (its header, and the
    lines after it indented deeper)."""
    out = []
    for match in _DEFINE.finditer(text):
        end = text.find("\n", match.end())
        end = len(text) if end < 0 else end
        while end < len(text):
            nxt = text.find("\n", end + 1)
            nxt = len(text) if nxt < 0 else nxt
            line = text[end + 1:nxt]
            if not line.strip() or len(line) - len(line.lstrip()) <= len(match["indent"]):
                break
            end = nxt
        out.append((match["name"], match.start(), end))
    return out


def _site_mutants(file: str, name: str, text: str, start: int, end: int, body: int, kind: str) -> list[Mutant]:
    """The mutants of one table's or definition's text (text[start:end]), from offset body on."""
    out = []
    block = text[start:end]
    for site in _SITE.finditer(block, body):
        at = start + site.start()
        if site["op"]:
            new = _SWAPS[site["op"]]
            out.append(Mutant(file, name, f"'{site['op']}' -> '{new}'", text[:at] + new + text[at + len(site["op"]):],
                              kind))
        elif site["num"]:
            for delta in (-1, 1):
                new = str(int(site["num"]) + delta)
                out.append(Mutant(file, name, f"{site['num']} -> {new}",
                                  text[:at] + new + text[at + len(site["num"]):], kind))
        elif site["set"]:
            items = [i.strip() for i in site["set"][1:-1].split(",")]
            for k in range(len(items)):
                new = "{" + ", ".join(items[:k] + items[k + 1:]) + "}"
                out.append(Mutant(file, name, f"{site['set']} -> {new}",
                                  text[:at] + new + text[at + len(site["set"]):], kind))
    return out


def mutants(sources: dict[str, str], rng: random.Random) -> list[Mutant]:
    """Every mutant of every table and definition of the sources, in a seeded order."""
    out: list[Mutant] = []
    for file, text in sorted(sources.items()):
        for name, start, end in define_blocks(text):
            out += _site_mutants(file, name, text, start, end, text.index("(", start) - start, "define")
        for name, start, end in table_blocks(text):
            block = text[start:end]
            out += _site_mutants(file, name, text, start, end, block.index("{") + 1, "table")
            rows = [start + r.start() for r in _ROW.finditer(block)]
            bounds = [*rows, start + block.rindex("}")]
            for k in range(len(rows)):
                row = text[bounds[k]:bounds[k + 1]]
                label = row.strip().split(":")[0]
                out.append(Mutant(file, name, f"row {label} dropped", text[:bounds[k]] + text[bounds[k + 1]:]))
                if k:
                    above = text[bounds[k - 1]:bounds[k]]
                    out.append(Mutant(file, name, f"row {label} moved up",
                                      text[:bounds[k - 1]] + row + above + text[bounds[k + 1]:]))
    rng.shuffle(out)
    return out


# ---- the oracle: enumeration on the interpreter -------------------------------------------------


@dataclass
class Truth:
    """What trying a bounded domain of inputs shows of a table."""

    first: set[int] = field(default_factory=set)  # rows found first for some input
    gap: dict[str, Any] | None = None  # an input no row matches
    stop: dict[str, Any] | None = None  # an input that reaches a row whose condition cannot be worked out
    clash: tuple[int, int] | None = None  # two same-layer exceptions answering one input differently
    fails: dict[str, Any] | None = None  # an input whose first matching row's value cannot be worked out
    whole: bool = True  # every input of the domain was tried


class Enumeration:
    def __init__(self, model: m.Resolved, table: m.Table, rng: random.Random):
        self.model = model
        self.table = table
        self.rng = rng
        self.interp = Interpreter(model)
        self.enums = {e.name: [mb.name for mb in e.members] for e in model.enums}
        self.records = {r.name: r for r in model.records}
        self.numbers: set[Fraction] = {Fraction(0), Fraction(1)}
        self.texts: set[str] = {"", "another"}
        exprs = self._reachable([e for r in table.rows for e in (r.when, r.value) if e is not None]
                                + ([table.requires] if table.requires is not None else []))
        for e in exprs:
            for x in m.walk(e):
                if isinstance(x, m.Lit) and isinstance(x.t, (IntT, NumberT)) and not isinstance(x.v, (bool, str)):
                    self.numbers |= {Fraction(x.v) + d for d in (-1, 0, 1)}
                elif isinstance(x, m.Const) and isinstance(x.t, (IntT, NumberT)):
                    c = Fraction(self.interp._const(x.name))
                    self.numbers |= {c - 1, c, c + 1}
                elif isinstance(x, m.Lit) and isinstance(x.t, TextT):
                    self.texts.add(str(x.v))
        self.read = self._fields_read(exprs)
        # The fields only the records' invariants read: a record of the conditions' fields is an
        # input where some values of these make it valid (a Repl is valid, but not in Combat Mode).
        self.checked = self._fields_read([d.body for d in model.defines if d.invariant is not None])
        self.sampled = False

    def _reachable(self, exprs: list[m.Expr]) -> list[m.Expr]:
        out, seen, todo = [], set(), list(exprs)
        while todo:
            e = todo.pop()
            out.append(e)
            for x in m.walk(e):
                if isinstance(x, m.Call) and x.fn not in seen:
                    seen.add(x.fn)
                    if x.fn in self.interp.defines:
                        todo.append(self.interp.defines[x.fn].body)
                    elif x.fn in self.interp.tables:
                        todo += [y for r in self.interp.tables[x.fn].rows for y in (r.when, r.value) if y is not None]
        return out

    def _fields_read(self, exprs: list[m.Expr]) -> dict[str, set[str]]:
        """Per record type, the fields any of the expressions reads (by name, whoever's)."""
        out: dict[str, set[str]] = {}
        for e in exprs:
            for x in m.walk(e):
                if isinstance(x, m.Field) and isinstance(x.of.t, RecordT):
                    out.setdefault(x.of.t.name, set()).add(x.name)
        return out

    def values(self, t: Type, depth: int = 0) -> list[Any]:
        match t:
            case BoolT():
                return [False, True]
            case EnumT(name):
                return list(self.enums[name])
            case IntT():
                return sorted({int(n) for n in self.numbers if n.denominator == 1})
            case NumberT():
                return sorted(self.numbers | {n + Fraction(1, 2) for n in self.numbers})
            case TextT():
                return sorted(self.texts)
            case RecordT(name):
                return self.records_of(name, depth)
            case ListT(item) | SetT(item):
                items = self.values(item, depth + 1) if depth < 2 else []
                lists: list[Any] = [()]
                lists += [(x,) for x in items]
                if len(items) <= 12:
                    lists += list(itertools.combinations_with_replacement(items, 2))
                else:  # too many pairs to try: a seeded sample of them, so what it shows is a sample's
                    self.sampled = True
                    lists += [tuple(self.rng.sample(items, 2)) for _ in range(60)]
                return [frozenset(x) for x in lists] if isinstance(t, SetT) else lists
        return []

    def records_of(self, name: str, depth: int) -> list[Any]:
        rec = self.records[name]
        read = self.read.get(name, set())
        fields = [f for f in rec.fields if f.name in read or f.default is None]
        others = [f for f in rec.fields if f.name in self.checked.get(name, set()) and f not in fields]
        completions = self._completions(others, depth)
        choices = [self.values(f.t, depth) for f in fields]
        size = 1
        for c in choices:
            size *= max(1, len(c))
        if size <= MAX_INPUTS:
            combos: Any = itertools.product(*choices)
        else:  # too many to try: a seeded sample, and the table's truth is a sample's
            self.sampled = True
            combos = (tuple(self.rng.choice(c) for c in choices) for _ in range(MAX_INPUTS // 4))
        out = []
        for combo in combos:
            values = dict(zip((f.name for f in fields), combo, strict=True))
            record = Record()
            for f in rec.fields:
                record[f.name] = values[f.name] if f.name in values else from_json(f.default, f.t)
            for completion in completions:  # the first that makes it valid, if any does
                if self._valid(name, Record({**record, **completion})):
                    out.append(Record({**record, **completion}))
                    break
        return out

    def _completions(self, others: list[m.RecordField], depth: int, most: int = 500) -> list[dict[str, Any]]:
        """Changes to the fields only the invariants read, fewest first: none, then each field on
        its own, then each two together, up to `most`. (The first `most` of their whole product
        never changed a late field: no Transport Point was valid, as none was in Move mode.)"""
        values = [self.values(f.t, depth + 1) for f in others]
        out: list[dict[str, Any]] = [{}]
        for k in (1, 2):
            for which in itertools.combinations(range(len(others)), k):
                for combo in itertools.product(*(values[i] for i in which)):
                    out.append({others[i].name: v for i, v in zip(which, combo, strict=True)})
                    if len(out) >= most:
                        return out
        return out

    def _valid(self, name: str, record: Record) -> bool:
        for d in self.model.defines:
            if d.invariant is not None and d.params and d.params[0].t == RecordT(name):
                try:
                    if not self.interp.eval(d.body, {d.params[0].name: record}):
                        return False
                except (EvalError, TypeError, KeyError, ZeroDivisionError):
                    return False
        return True

    def truth(self) -> Truth:
        domains = [self.values(p.t) for p in self.table.params]
        total = 1
        for d in domains:
            total *= max(1, len(d))
        truth = Truth(whole=total <= MAX_INPUTS and not self.sampled)
        if truth.whole:
            inputs: Any = itertools.product(*domains)
        else:
            inputs = (tuple(self.rng.choice(d) for d in domains) for _ in range(MAX_INPUTS))
        rows = self.table.rows
        exceptions = [(i, r) for i, r in enumerate(rows) if r.exception]
        for args in inputs:
            env = dict(zip((p.name for p in self.table.params), args, strict=True))
            if not self._answered(env):
                continue  # outside the table's `requires`: an input it does not answer
            matched = [self._matches(r, env) for r in rows]
            hits = [i for i, x in enumerate(matched) if x]
            reached = next((i for i, x in enumerate(matched) if x is not False), None)
            if reached is not None and reached not in hits:  # the interpreter stops there, with no answer
                if truth.stop is None:
                    truth.stop = env
            elif hits:
                truth.first.add(hits[0])
                if truth.fails is None and self._fails(rows[hits[0]].value, env):
                    truth.fails = env
            elif truth.gap is None:
                truth.gap = env
            if truth.clash is None:
                for (a, ra), (b, rb) in itertools.combinations(exceptions, 2):
                    if a in hits and b in hits and ra.origin.layer == rb.origin.layer \
                            and ra.origin.clause != rb.origin.clause:
                        try:
                            va, vb = self.interp.eval(ra.value, env), self.interp.eval(rb.value, env)
                        except (EvalError, TypeError, KeyError, ZeroDivisionError):
                            continue
                        if plain(va) != plain(vb):
                            truth.clash = (a, b)
        return truth

    def _answered(self, env: dict[str, Any]) -> bool:
        """Whether an input is one the table answers: its `requires` holds."""
        if self.table.requires is None:
            return True
        try:
            return bool(self.interp.eval(self.table.requires, env))
        except (EvalError, TypeError, KeyError, ZeroDivisionError):
            return False

    def _fails(self, value: m.Expr, env: dict[str, Any]) -> bool:
        """Whether a value cannot be worked out for an input (the interpreter stops with no answer)."""
        try:
            self.interp.eval(value, env)
        except (EvalError, TypeError, KeyError, ZeroDivisionError):
            return True
        return False

    def _matches(self, row: m.Row, env: dict[str, Any]) -> bool | None:
        """Whether a row's condition holds; None where it cannot be worked out (a division by zero)."""
        if row.when is None:
            return True
        try:
            return bool(self.interp.eval(row.when, env))
        except (EvalError, TypeError, KeyError, ZeroDivisionError):
            return None


# ---- the run ---------------------------------------------------------------------------------


@dataclass
class Tally:
    mutants: int = 0
    refused: int = 0  # the mutant does not check (a type error): not a table question
    findings: int = 0  # what the enumeration shows that the analysis must report
    detected: int = 0
    missed: list[str] = field(default_factory=list)
    false: list[str] = field(default_factory=list)
    undecided: int = 0
    sampled: int = 0

    def line(self) -> str:
        rate = 100.0 * self.detected / self.findings if self.findings else 100.0
        return (f"{self.mutants} mutants ({self.refused} refused by the checker, {self.sampled} sampled): "
                f"{self.findings} findings by enumeration, {self.detected} detected ({rate:.1f}%), "
                f"{len(self.missed)} missed, {len(self.false)} false reports, {self.undecided} undecided (R304)")


def judge(mutant: Mutant, sources: dict[str, str], rng: random.Random, tally: Tally,
          work: Work | None = None) -> None:
    """work: the parses and analyses kept from one mutant to the next (each differs in one table)."""
    tally.mutants += 1
    result = compile_sources({**sources, mutant.file: mutant.text}, keep_models=True, work=work)
    if any(d.severity == "error" and not d.code.startswith("R30") and d.code not in ("R401", "R402", "R403")
           for d in result.diagnostics):
        tally.refused += 1
        return
    model = _model_of(result.models, mutant)
    if model is None:
        tally.refused += 1
        return
    if mutant.kind == "define":
        _judge_define(mutant, model, rng, tally)
        return
    table = next(t for t in model.tables if t.name == mutant.table)
    mine = TableAnalysis(model, Interpreter(model), table).run()
    if any(d.code == "R304" for d in mine):
        tally.undecided += 1
        return
    truth = Enumeration(model, table, rng).truth()
    tally.sampled += not truth.whole
    where = f"{mutant.file} {mutant.table}: {mutant.what}"
    dead = {label for d in mine if d.code == "R301" for label in re.findall(r"^row '(\w+)'", d.message)}
    for i, row in enumerate(table.rows):
        if i in truth.first and row.label in dead:
            tally.false.append(f"{where}: row '{row.label}' reported never to match, but is first for an input")
        elif i not in truth.first and truth.whole:
            tally.findings += 1
            if row.label in dead:
                tally.detected += 1
            else:
                tally.missed.append(f"{where}: row '{row.label}' is never first, not reported")
    _judge_reports(f"{where}: no row matches {truth.gap}, not reported" if truth.gap is not None else None,
                   [d for d in mine if d.code == "R302"], r"(\w+\(.*\)) matches no row", where, model, tally)
    if truth.stop is not None:
        tally.findings += 1
        if any(d.code == "R306" for d in mine):
            tally.detected += 1
        else:
            tally.missed.append(f"{where}: a row cannot be worked out for {truth.stop}, not reported")
    if truth.clash is not None:
        tally.findings += 1
        if any(d.code == "R303" for d in mine):
            tally.detected += 1
        else:
            tally.missed.append(f"{where}: rows {truth.clash} answer one input differently, not reported")
    _judge_values(where, "R307", truth, mine, model, tally)


def _judge_define(mutant: Mutant, model: m.Resolved, rng: random.Random, tally: Tally) -> None:
    """A definition, decided as a table of one `otherwise` row whose value is its body (R308)."""
    d = next(x for x in model.defines if x.name == mutant.table)
    mine = DefinitionAnalysis(model, Interpreter(model), d).run()
    table = m.Table(d.name, d.title, d.params, d.returns, (m.Row(d.name, None, None, d.body, d.origin),), d.origin,
                    requires=d.requires)
    truth = Enumeration(model, table, rng).truth()
    tally.sampled += not truth.whole
    _judge_values(f"{mutant.file} {mutant.table}: {mutant.what}", "R308", truth, mine, model, tally)


def _judge_values(where: str, code: str, truth: Truth, mine: list[Any], model: m.Resolved, tally: Tally) -> None:
    """An input whose value cannot be worked out must be reported (code), and every report must give one."""
    _judge_reports(f"{where}: no answer for {truth.fails}, not reported ({code})" if truth.fails is not None
                   else None, [d for d in mine if d.code == code],
                   r"(\w+\(.*?\)) (?:cannot be worked out|divides by zero) in ", where, model, tally)


def _judge_reports(missed: str | None, reports: list[Any], call: str, where: str, model: m.Resolved,
                   tally: Tally) -> None:
    """A finding of the enumeration (missed: what to say if no report shows it; None: none was found)
    must be reported, and the input each report gives (the call the pattern `call` finds in its
    message) must have no answer."""
    if missed is not None:
        tally.findings += 1
        if reports:
            tally.detected += 1
        else:
            tally.missed.append(missed)
    for d in reports:
        found = re.match(call, d.message)
        try:
            evaluate(model, found[1]) if found else None
            tally.false.append(f"{where}: {d.message}: the input has an answer")
        except (EvalFailure, EvalError):
            pass


def _model_of(models: dict[str, m.Resolved], mutant: Mutant) -> m.Resolved | None:
    """The ruleset of the layer the mutated file belongs to (the series for a series file)."""
    for model in sorted(models.values(), key=lambda x: len(x.manifest.layers)):
        if mutant.kind == "define":
            if any(d.name == mutant.table and d.origin.file == mutant.file and d.params for d in model.defines):
                return model
        elif any(t.name == mutant.table and (t.origin.file == mutant.file
                                             or any(r.origin.file == mutant.file for r in t.rows))
                 for t in model.tables):
            return model
    return None


def run(count: int, seed: int, rules: Path = ROOT / "rules", log: Any = print) -> Tally:
    sources, _ = find_sources([rules])
    rng = random.Random(seed)
    todo = mutants(sources, rng)[:count]
    tally = Tally()
    started = time.monotonic()
    work = Work(None)
    for n, mutant in enumerate(todo, 1):
        judge(mutant, sources, random.Random(seed * 100_003 + n), tally, work)
        if n % 25 == 0 or n == len(todo):
            log(f"[{n}/{len(todo)}] {tally.line()} ({time.monotonic() - started:.0f} s)")
    return tally


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.mutation", description=__doc__.split("\n\n")[0])
    p.add_argument("--count", type=int, default=400, help="how many mutants (default: 400)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    tally = run(args.count, args.seed)
    for line in tally.missed + tally.false:
        print(line)
    print(tally.line())
    return 1 if tally.missed or tally.false else 0


if __name__ == "__main__":
    sys.exit(main())
