"""Run the pipeline over a rules tree; writing.py writes generated/ (only what changed, atomically)."""

from __future__ import annotations

import functools
import hashlib
import re
import types
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import ast, ir, modcheck, printing, sheets, themes, traceability, units
from . import model as m
from .analysis import ExampleCites, analyse, run_examples
from .cache import KeptText, Work, pack, text_of, unpack
from .checker import check
from .collector import collect_left, lasting, long_lived, settled
from .conflicts import option_conflicts
from .crosscheck import load_module
from .diagnostics import Diagnostic, Span, has_errors, unique_sorted
from .emit_python import emit_python
from .emit_python import forget as emit_python_forget
from .interp import MAX_STEPS, Cite, budget
from .lower import lower
from .parser import parse
from .resolver import files_of, resolve
from .sheets.text import forget_models
from .sources import find_assets as find_assets  # where the callers have found them
from .sources import find_sources as find_sources
from .sources import source_name as source_name
from .state_schema import state_schema
from .timings import stage, timed
from .units import Unit
from .writing import Content

Emitter = Callable[[m.Resolved], Mapping[str, str | KeptText]]
SuiteEmitter = Callable[..., Iterable[tuple[str, str | KeptText]]]  # (models, memo=...): sees every model (cross-game)


@dataclass
class Result:
    sources: dict[str, str] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    models: dict[str, m.Resolved] = field(default_factory=dict)  # each ruleset's typed model
    modules: dict[str, types.ModuleType] = field(default_factory=dict)  # loaded, with crosscheck
    module_memo: dict[str, Any] = field(default_factory=dict)  # each module's text, made once a build
    themes: dict[str, themes.Theme] = field(default_factory=dict)  # each theme folder's, safe to print
    # The units this build made (units.py), and the key of its skeletons: kept once the IR is written
    units: tuple[str, dict[str, Unit]] | None = None
    cites: dict[str, ExampleCites] = field(default_factory=dict)  # each ruleset's examples: the rules they used

    @property
    def ok(self) -> bool:
        return not has_errors(self.diagnostics)


WhenResolved = Callable[[Mapping[str, m.Resolved], Mapping[str, bytes]], None]  # (models, assets): compile_sources


def compile_sources(sources: dict[str, str], keep_models: bool = False, work: Work | None = None,
                    crosscheck: bool = False, assets: Mapping[str, bytes] | None = None,
                    when_resolved: WhenResolved | None = None) -> Result:
    """Parse, check, resolve every ruleset and analyse it. Models only when there is no error
    (or, with keep_models, whenever checking succeeded: `rulec test` reports failing examples itself).
    work: what earlier builds kept (each file's parse, each table's analysis), used and added to.
    crosscheck: run the worked examples on each ruleset's generated module as well (`rulec build`
    and `rulec test`); with keep_models, the modules are kept in result.modules.
    when_resolved: called with the models and assets once every ruleset is checked clean and resolved,
    before its tables are analysed and its worked examples run (a build that prints starts on its
    cards: feed_cards)."""
    forget_models()  # the models of an earlier compile, if any: none of them is asked about again
    with long_lived():
        result = _compile(sources, keep_models, work, crosscheck,
                          None if when_resolved is None else lambda models: when_resolved(models, assets or {}))
    if assets is not None:  # the cards' themes, read beside the rules (rulec check and build)
        result.diagnostics = unique_sorted(result.diagnostics + load_themes(result, assets))
        if not result.ok and not keep_models:
            result.models = {}
    return result


def load_themes(result: Result, assets: Mapping[str, bytes]) -> list[Diagnostic]:
    """Each theme the rulesets' cards use, made safe (result.themes); R122 for one that is not."""
    loaded, found = themes_of(result.models.values(), assets)
    result.themes.update(loaded)
    return found


def themes_of(models: Iterable[m.Resolved], assets: Mapping[str, bytes]) -> tuple[dict[str, themes.Theme],
                                                                                  list[Diagnostic]]:
    """Each theme the models' cards use, made safe, by folder; R122 for one that is not."""
    loaded: dict[str, themes.Theme] = {}
    found: list[Diagnostic] = []
    seen: set[str] = set()
    for model in models:
        ref = model.theme
        if ref is None or ref.folder in seen:
            continue
        seen.add(ref.folder)
        theme, problems = themes.load(ref.folder, assets)
        if theme is not None:
            loaded[ref.folder] = theme
        o = ref.origin
        found += [Diagnostic(Span(o.file, o.line, o.col, o.line, o.col + len("theme")), "R122",
                             f"theme {ref.path!r}: {p}", hint="a theme may hold only card.css, logo.png or "
                             "logo.jpg, and fonts or images card.css names by a relative url()") for p in problems]
    return loaded, found


def feed_cards(models: Mapping[str, m.Resolved], assets: Mapping[str, bytes], run: printing.PrintRun,
               work: Work | None = None, only: Iterable[str] = ()) -> None:
    """Each card's HTML handed to run (a PrintRun printing beside the build) as soon as the rules are
    resolved (compile_sources' when_resolved), before the tables are analysed, the modules emitted and
    the worked examples run on them, so that the browser prints while the build goes on (a mistake
    these find fails the build all the same, its prints thrown away); the build adds each card again as
    it writes it (iter_outputs), which leaves one made here as it is. only: the rulesets the build
    writes, if not all (a project's). Nothing is fed for a theme that is not safe (R122: the build
    fails) or a ruleset not there."""
    if only:
        if any(name not in models for name in only):
            return
        models = {name: models[name] for name in only}
    loaded, problems = themes_of(models.values(), assets)
    if problems:
        return
    for rel, html in sheets.iter_card_pages(models, loaded, None if work is None else work.renders):
        run.add(rel, text_of(html))


def _compile(sources: dict[str, str], keep_models: bool, work: Work | None, crosscheck: bool,
             when_resolved: Callable[[Mapping[str, m.Resolved]], None] | None = None) -> Result:
    result = Result(sources=sources)
    with stage("parse the rules files (or take them up from the cache)"):
        files, reused, program_key = _read(sources, work, result)
    with lasting(), stage("check"):  # the checked program, kept until lowered (checking leaves no cycles)
        checked, diags = check(files, reused, capture=program_key is not None)
    if has_errors(result.diagnostics):  # the files that parse are checked all the same
        unparsed = sorted(set(sources) - {f.path for f in files})
        result.diagnostics = unique_sorted(result.diagnostics + _not_following_from(unparsed, diags, sources))
        return result
    result.diagnostics += diags
    with lasting(), stage("lower"):  # the typed layers
        program = checked.lowered or lower(checked)  # lowered already if it had links to check
    resolved = checked.resolved
    made = checked.checker.units  # what checking and lowering each file made (none: it holds no item)
    del files, checked  # the parses: what follows reads the program (and, with work, its cache keeps them)
    if program_key is not None and made is not None:
        result.units = (program_key, {name: made.get(name) or Unit() for name in sorted(set(sources) - reused.keys())})
    del made
    # Each ruleset none of whose files has an error is resolved, analysed and has its examples run,
    # whatever mistakes the others hold.
    wrong = {d.span.file for d in diags if d.severity == "error"}
    clean = [rs for rs in program.rulesets if not (wrong and files_of(program, rs) & wrong)]
    if clean:
        models = {}
        for rs in clean:
            with stage("resolve", rs.name):
                models[rs.name] = resolved.get(rs.name) or resolve(program, rs)
        settled()
        # A table shared by rulesets is analysed once (and, with work, once until it changes).
        memo: MutableMapping[str, list[Diagnostic]] = {} if work is None else work.analyses
        # The examples and table analyses, in bounded steps.
        with budget(_steps(models.values())):
            if when_resolved is not None and len(clean) == len(program.rulesets) and not has_errors(result.diagnostics):
                when_resolved(models)  # a build that prints starts on its cards (feed_cards) while the rest is done
            for name, model in models.items():
                below = [models[n] for n in model.manifest.layers[:-1] if n in models]
                with stage("analyse the tables", name):
                    found = analyse(model, memo, examples=not crosscheck, below=below,
                                    module_key=None if work is None else module_key(model))
                if crosscheck:
                    found += _examples(result, model, found, work, keep_models)
                result.diagnostics += found
                result.models[name] = model
            emit_python_forget()  # every module the examples run on is made
            result.diagnostics += option_conflicts(program, clean, models)
            result.diagnostics += card_fit(models, None if work is None else work.views)
    result.diagnostics = unique_sorted(result.diagnostics)
    if not result.ok:  # no output is written: the units are kept now, without their items' lines
        keep_units(result, work)
        if not keep_models:
            result.models = {}
    return result


def _read(sources: dict[str, str], work: Work | None,
          result: Result) -> tuple[list[ast.File], dict[str, Unit], str | None]:
    """Each file's syntax tree, for checking; with work, the skeleton of each file whose unit the
    build takes up instead (units.py: its text and every file's skeleton as when the unit was kept),
    whose parse is then not read at all. Also those units, and the key of this program's skeletons
    (None: no units taken up or kept, as when a file does not parse)."""
    if work is None:
        return _parsed(sources, parse, result), {}, None
    skeletons: dict[str, tuple[bytes, ast.File]] = {}
    trees: dict[str, ast.File] = {}
    for name in sorted(sources):
        found = work.units.skeleton(name, sources[name])
        if found is None:
            tree, _ = work.parses.parse(sources[name], name)
            if tree is None:  # a mistake: every file is parsed and checked as it is, no unit kept
                return _parsed(sources, work.parses.parse, result), {}, None
            trees[name] = tree
            found = work.units.keep_skeleton(name, sources[name], tree)
        skeletons[name] = found
        settled()
    key = units.program_key({name: found[0] for name, found in skeletons.items()})
    files: list[ast.File] = []
    reused: dict[str, Unit] = {}
    for name in sorted(sources):
        unit = work.units.unit(name, sources[name], key)
        if unit is not None:
            reused[name] = unit
            take_known(unit)
            files.append(skeletons[name][1])
            work.parses.keep(sources[name], name)
        else:
            tree = trees.get(name)
            if tree is None:
                tree, _ = work.parses.parse(sources[name], name)  # it parsed before: its skeleton is kept
                assert tree is not None
            files.append(tree)
        settled()
    return files, reused, key


def keep_units(result: Result, work: Work | None) -> None:
    """Keep the units this build made (result.units), each with its items' lines of the IR and
    hashes for the module's key as this build worked them out: a build that takes a unit up finds
    them with its items (take_known) and does not work them out again (a quarter of a 10,000-clause
    one-file change). Called once the IR is written, before its lines are let go."""
    if work is None or result.units is None:
        return
    key, made = result.units
    for name, unit in made.items():
        unit.known = [(x, ir.known_line(x), _ITEM_HASHES.get(x)) for x in unit.lowered()
                      if type(x).__weakrefoffset__]  # the memos are weak: an external clause has none
        work.units.keep_unit(name, result.sources[name], key, unit)
    result.units = None


def take_known(unit: Unit) -> None:
    """The lines of the IR and module-key hashes a unit taken up kept for its items."""
    for item, line, digest in unit.known:
        if line is not None:
            ir.take_line(item, line)
        if digest is not None:
            _ITEM_HASHES[item] = digest


def _parsed(sources: Mapping[str, str], parse_one: Callable[[str, str], tuple[ast.File | None, list[Diagnostic]]],
            result: Result) -> list[ast.File]:
    """The files that parse, sorted by name; every parse's diagnostics into result."""
    files = []
    for name in sorted(sources):
        tree, diags = parse_one(sources[name], name)
        result.diagnostics += diags
        if tree is not None:
            files.append(tree)
        settled()
    return files


def card_fit(models: Mapping[str, m.Resolved], memo: MutableMapping[str, Any] | None = None) -> list[Diagnostic]:
    """R121 (a warning): a declared card whose blocks are estimated taller than its size holds, and a
    block taller than a column of its card (declared or packed). The first to make the cards' views:
    with memo, the parts of them that read no clause's text (view.card_parts) are kept under the
    module's key and what else they read, and taken up by the next build that has both the same."""
    out = []
    collect_left()
    for model in models.values():
        # the views live to the build's end and hold no cycles: the collector is held off while they
        # are made (its full rounds over them took a third of their time at 10,000 clauses)
        with stage("the cards' views (R121)", model.manifest.ruleset), lasting():
            overflows = _card_overflows(models, model, memo)
        for o, message in overflows:
            out.append(Diagnostic(Span(o.file, o.line, o.col, o.line, o.col + len("card")), "R121", message,
                                  severity="warning", hint="show fewer blocks on it, give it more columns or a "
                                  "larger size, or move some blocks to a card of their own"))
    return out


def _card_overflows(models: Mapping[str, m.Resolved], model: m.Resolved,
                    memo: MutableMapping[str, Any] | None) -> list[tuple[m.Origin, str]]:
    if memo is not None:
        key = f"card parts of module {module_key(model)}, {sheets.view.card_parts_reads(model)}"
        if key in memo:
            sheets.view.take_card_parts(model, memo[key])
        else:
            memo[key] = sheets.view.card_parts(model)
    return sheets.view.card_overflows(models, model)


_WORD = re.compile(r"[A-Za-z_]\w*|\d+(?:\.\w+)*")
_STRING_OR_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|//[^\n]*')
_MISSING = {"R101", "R102", "R105", "R107", "R111", "R203"}  # something named is not there


def _not_following_from(unparsed: list[str], diags: list[Diagnostic], sources: Mapping[str, str]) -> list[Diagnostic]:
    """The diagnostics of the files that parse, less those that may only say that something declared
    in a file that does not parse is missing: an unknown name (or rule number, or layer) that the
    unparsed files write outside their texts and comments."""
    declared: set[str] = set()
    for name in unparsed:
        declared.update(_WORD.findall(_STRING_OR_COMMENT.sub(" ", sources[name])))
    return [d for d in diags if d.code not in _MISSING or _named_at(d.span, sources) not in declared]


def _named_at(span: Span, sources: Mapping[str, str]) -> str | None:
    """The name or rule number a diagnostic points at (past a keyword such as `see` or `in`). On a
    layer that extends another (`game G "G" extends S`, where R107 says S is unknown), the layer it
    extends: the declaration's words are read to its end, past its quoted texts."""
    lines = sources.get(span.file, "").split("\n")
    if not 1 <= span.line <= len(lines):
        return None
    text = "\n".join([lines[span.line - 1][span.col - 1:], *lines[span.line:span.end_line]])
    words: list[str] = _WORD.findall(_STRING_OR_COMMENT.sub(" ", text))
    if words[:1] in (["game"], ["scenario"], ["option"]) and "extends" in words[:-1]:
        return words[words.index("extends") + 1]
    keywords = {"in", "override", "extends", "see", "except", "with", "rule", "game", "scenario", "option"}
    return next((w for w in words if w not in keywords), None)


def _examples(result: Result, model: m.Resolved, found: list[Diagnostic], work: Work | None,
              keep_models: bool) -> list[Diagnostic]:
    """The ruleset's worked examples, run on the interpreter and on its generated module (R900 where
    they differ), and the rules each used (result.cites). With work, the outcome is kept under the
    module's key (module_key: what its text is made from) and the examples as the IR writes them,
    origins included: a build after an edit that changes neither, a rule's wording, does not load
    the module or run them again. keep_models (`rulec test`): the module is
    loaded and kept in result.modules, and the examples always run."""
    name = model.manifest.ruleset
    cites = result.cites.setdefault(name, {})
    key = None
    if work is not None and not keep_models and not any(d.code == "R305" for d in found):
        key = examples_key(model)
        if key in work.examples:
            diags, ran = work.examples[key]
            cites.update({(o[0], o[1], o[2]): [Cite(*c) for c in used] for o, used in ran})
            return list(diags)
    module = _module(result, model, found, work, explained=keep_models)
    if module is not None and keep_models:  # for `rulec test`; a build lets it go
        result.modules[name] = module
    with stage("run the worked examples", name):
        diags = run_examples(model, module, cites)
    if key is not None and work is not None:
        work.examples[key] = (diags, [(o, [(c.layer, c.clause, c.item, c.note, c.title) for c in used])
                                      for o, used in cites.items()])
    return diags


_EXAMPLES_KEYS: weakref.WeakKeyDictionary[m.Resolved, str] = weakref.WeakKeyDictionary()


def examples_key(model: m.Resolved) -> str:
    """A hash of what decides the ruleset's worked examples' runs, what each finds and the rules each
    cites: its module's key (the module's text is made from what that hashes) and its examples as
    the IR writes them, origins included. Worked out once per model (traceability.md's key reads it
    too, after the IR's lines are let go)."""
    found = _EXAMPLES_KEYS.get(model)
    if found is None:
        h = hashlib.sha256(f"the worked examples of module {module_key(model)}".encode())
        for ex in model.examples:
            h.update(b"\0" + ir.line(ex, ir.example_ir).encode("utf-8", "surrogatepass"))
        found = _EXAMPLES_KEYS[model] = h.hexdigest()
    return found


def _module(result: Result, model: m.Resolved, found: list[Diagnostic],
            work: Work | None, explained: bool = False) -> types.ModuleType | None:
    """The ruleset's generated module, loaded to run the examples on; None where a value of the rules
    cannot be computed (R305), which the module would need to be written. explained (`rulec test`):
    with the explain_ twins of the checks the examples call, whose rules are compared too."""
    if any(d.code == "R305" for d in found):
        return None
    text = python_files(model, verify=False, memo=result.module_memo if work is None else work.modules)
    called = {e.fn for ex in model.examples for step in ex.steps
              for e in m.walk(step.value if isinstance(step, m.LetStep) else step.expr) if isinstance(e, m.Call)}
    if explained:
        called |= {"explain_" + fn for fn in called}
    with stage("load the module for the examples", model.manifest.ruleset):
        return load_module(next(iter(text.values())), model.manifest.ruleset, called)


def ir_files(model: m.Resolved, validate: bool = True) -> dict[str, str]:
    """The IR output: written from each item's line (ir.text), not from a whole document kept for
    the build; validate writes the document too, checks it against the schema and that the text is
    its dump, and lets it go."""
    text = ir.text(model)
    if validate:
        doc = ir.of(model)
        ir.forget(model)  # not kept for the rest of the build
        problems = ir.validation_errors(doc)
        if problems:  # a compiler bug, not a rules mistake: say so plainly
            raise RuntimeError("the IR does not match its schema:\n  " + "\n  ".join(problems[:10]))
        if ir.dumps(doc) != text:
            raise RuntimeError("the IR text is not its document's dump")
    return {f"ir/{model.manifest.ruleset.lower()}.json": text}


def state_schema_files(model: m.Resolved) -> dict[str, str]:
    name = model.manifest.ruleset.lower()
    return {f"schemas/{name}.state.schema.json": ir.dumps_pretty(state_schema(model))}


def python_files(model: m.Resolved, verify: bool = True,
                 memo: MutableMapping[str, Any] | None = None) -> dict[str, str]:
    """The ruleset's Python module, made from the model without its wording (the texts and notes of
    clauses, list values and overrides, ir.module_part: the module never shows them): with memo, a
    module is made again only when something it can show changed, not on every edit of a rule's
    wording. A build asks twice (the worked examples run on the module, then it is written): the
    memo holds the text, made once; verify compiles that text once, whether it was just made or
    found; without verify, a module just made goes to the build's module check, compiled whole beside
    the build (modcheck.submit). The memo holds each text compressed (zlib, fast): a large
    rulebook's modules are tens of MB, kept until the build ends."""
    if memo is None:
        files = emit_python(model, verify)
        for rel, text in files.items() if not verify else ():
            modcheck.submit(rel, text)  # compiled whole beside the build
        return files
    key = module_key(model)
    kept = _kept_module(memo, key)
    if kept is None:
        with stage("emit the module", model.manifest.ruleset):
            files = emit_python(model, verify=False)
        memo[key] = {rel: KeptText.of(text) for rel, text in files.items()}
        for rel, text in files.items() if not verify else ():
            modcheck.submit(rel, text)  # compiled whole beside the build (a kept module was, when made)
    else:
        files = {rel: k.text() for rel, k in kept.items()}
    if verify and key not in _VERIFIED:
        for rel, text in files.items():  # what emit_python(verify=True) compiles
            compile(text, rel.rsplit("/", 1)[-1], "exec")
        _VERIFIED.add(key)
    return files


def python_outputs(model: m.Resolved, verify: bool = True,
                   memo: MutableMapping[str, Any] | None = None) -> dict[str, str | KeptText]:
    """python_files as the build writes them: as kept (KeptText), whose text the writer reads only if
    generated/ does not hold it already (and records its digest for the next build when it does)."""
    if memo is None or verify:
        return dict(python_files(model, verify, memo))
    if _kept_module(memo, module_key(model)) is None:
        python_files(model, False, memo)  # made, and kept
    return dict(_kept_module(memo, module_key(model)) or python_files(model, False, memo))


def _kept_module(memo: MutableMapping[str, Any], key: str) -> dict[str, KeptText] | None:
    """The module files memo keeps under key, or None (not kept, or not as this rulec keeps them)."""
    found = memo.get(key)
    if isinstance(found, dict) and all(isinstance(k, KeptText) for k in found.values()):
        return found
    return None


_VERIFIED: set[str] = set()  # the module keys whose text this process compiled (verify)
_MODULE_KEYS: weakref.WeakKeyDictionary[m.Resolved, str] = weakref.WeakKeyDictionary()


def module_key(model: m.Resolved) -> str:
    """The hash the ruleset's module is kept under: of its IR less its worked examples and its
    wording (ir.MODULE_ITEMS, ir.module_part: the texts and notes of clauses, list values and
    overrides).
    Worked out once per model, from a hash of each item of it, each worked out once while the item
    lives: a game shares most of its items with its series. Only the hashes are kept, never the IR."""
    found = _MODULE_KEYS.get(model)
    if found is None:
        h = hashlib.sha256(ir.canonical(ir.head_ir(model)))
        with m.building():
            for name, write in ir.MODULE_ITEMS.items():
                h.update(f"\n{name}:".encode())
                shared = name in _CLOSURE_ITEMS
                for item in getattr(model, name):
                    h.update(_item_hash(item, name, write, shared))
        found = _MODULE_KEYS[model] = h.hexdigest()
    return found


_CLOSURE_ITEMS = {"consts", "defines", "tables", "limits"}  # whose canonical IR the interpreter's keys read
_ITEM_HASHES: weakref.WeakKeyDictionary[Any, bytes] = weakref.WeakKeyDictionary()


def _item_hash(item: Any, name: str, write: Callable[[Any], ir.IR], shared: bool) -> bytes:
    found = _ITEM_HASHES.get(item)
    if found is None:
        if shared:  # kept for the interpreter's closure keys as well
            data = ir.canonical_of(item, write)
        elif name not in ir.WORDED:  # its line of the IR text, which the IR output then takes as made
            data = ir.line(item, write).encode("utf-8", "surrogatepass")
        else:  # without its wording (ir.module_part)
            data = ir.canonical(ir.module_part(name, write(item)))
        found = _ITEM_HASHES[item] = hashlib.sha256(data).digest()
    return found


EMITTERS: list[Emitter] = [ir_files, python_outputs, state_schema_files]
EMITTED: dict[Emitter, str] = {ir_files: "the IR", python_outputs: "the module's file",  # stages (timings.py)
                               state_schema_files: "the state schema"}
CHECKS: dict[Emitter, str] = {ir_files: "validate", python_outputs: "verify"}  # checks on rulec itself


SUITE_EMITTERS: list[SuiteEmitter] = [sheets.iter_sheet_files]


STEPS_PER_ITEM = 10_000  # a generated 2,000-clause rulebook takes 1,700 per table, example and definition


def _steps(models: Iterable[m.Resolved]) -> int:
    """The evaluation steps a build may take: MAX_STEPS, and STEPS_PER_ITEM more for each thing
    evaluated ahead (a table's analysis, a worked example, a definition's precomputed answers), so
    a long rulebook is not stopped for being long, while rules that call each other exponentially
    often stop (R402) in a time that grows no faster than the rules do."""
    items = sum(len(r.tables) + len(r.examples) + len(r.defines) for r in models)
    return MAX_STEPS + STEPS_PER_ITEM * items


# glibc's mallopt: buffers at least this large are mapped on their own and given back when freed
M_MMAP_THRESHOLD, BIG_BUFFER = -3, 8_912_896  # 8.5 MiB


def big_buffers_given_back() -> None:
    """Where the C library is glibc, a buffer of 8.5 MiB or more (a large rulebook's IR, module or
    tables.json, as text or as bytes) is mapped on its own and given back to the system when freed.
    By default glibc raises that bound to the size of each large buffer freed, and the bound for
    giving back the heap's free top with it, so later large buffers come from the heap and what
    they leave stays: a fixed bound takes 14.5 MB off a 10,000-clause build's peak (293 to 279 MB),
    for about 130,000 more page faults (memory given back and taken again: 0.3 s of system time,
    1% of that build; bench/RESULTS.md). Not lower: each table analysis's solver context takes two
    8 MiB buffers (176 in that build), which the heap reuses; mapped on their own, each would be
    paged in anew (740,000 more faults, 0.7 s). Called by `rulec build`."""
    from .writing import libc

    found = libc()
    if found is not None and hasattr(found, "gnu_get_libc_version"):  # glibc's numbering of mallopt's options
        found.mallopt(M_MMAP_THRESHOLD, BIG_BUFFER)


def outputs(result: Result, validate: bool = True, work: Work | None = None) -> dict[str, str]:
    """Every text file of generated/, by relative path (see iter_outputs)."""
    return {rel: text_of(content) for rel, content in iter_outputs(result, validate, work)}


def iter_outputs(result: Result, validate: bool = True,
                 work: Work | None = None) -> Iterator[tuple[str, str | KeptText]]:
    """Every text file of generated/ as (relative path, text), one ruleset's at a time, so a build
    that writes each as it comes holds a few files in memory, not all of them. With work, a file
    kept from the last build (a page, a card, a module) comes as it was kept (KeptText). validate: check
    each IR against its JSON Schema and compile each Python module first (checks on rulec itself,
    not on the rules: `rulec build --check` and the tests make them; a plain `rulec build` skips
    them, as they are most of the time of a large build)."""
    def configured(e: Emitter) -> Emitter:
        options: dict[str, Any] = {}
        if not validate and e in CHECKS:
            options[CHECKS[e]] = False
        if e is python_outputs:
            options["memo"] = result.module_memo if work is None else work.modules
        return functools.partial(e, **options)

    emitters = [(EMITTED[e], configured(e)) for e in EMITTERS]
    # The answers worked out ahead (precomputed checks, value tables), in bounded steps.
    with budget(_steps(result.models.values())), long_lived():
        for name in sorted(result.models):
            for what, emit in emitters:
                with stage(what, name):
                    files = emit(result.models[name])
                yield from files.items()
                del files
        with stage("keep each file's unit"):
            keep_units(result, work)
        ir.forget_lines()  # the IR files and modules are written
        emit_python_forget()
        if result.models:
            # The rule sheets and cards after the IR and modules, whose memos are let go first: the
            # other way round, a 10,000-clause build's peak was 319 MB against 287 MB (its cards
            # printed beside the build a little sooner: Streamed).
            for suite in SUITE_EMITTERS:
                yield from suite(result.models, **({} if work is None else {"memo": work.values,
                                                                             "renders": work.renders}),
                                 themes=result.themes)
            yield from timed("traceability", "", traceability.iter_files(
                result.models, result.sources, result.cites, None if work is None else work.renders,
                None if work is None else {name: examples_key(model) for name, model in result.models.items()}))


def with_prints(files: dict[str, str], out_dir: Path, allow_print: bool) -> tuple[dict[str, Content], list[str]]:
    """The text outputs plus the prints of the cards (PDF, PNG and their sidecars), and notes on
    prints that could not be made: a print whose sidecar matches its HTML is kept as it is."""
    prints, notes = prints_of(files, out_dir, allow_print)
    return {**files, **prints}, notes


def prints_of(files: Mapping[str, str], out_dir: Path, allow_print: bool, result: Result | None = None,
              kept: printing.KeptBrowser | None = None) -> tuple[dict[str, Content], list[str]]:
    """The prints of the cards among files (PDF, PNG and their sidecars) and notes on those that
    could not be made. With the build's result, a declared card that runs past its page is located
    at its declaration (R121), as `rulec check` locates one it estimates too full. kept: the browser
    `rulec build --watch` keeps open from one build to the next."""
    return print_notes(printing.collect(files, out_dir, allow_print, kept), result)


def print_notes(prints: printing.Prints, result: Result | None = None) -> tuple[dict[str, Content], list[str]]:
    """The prints made or kept, and notes on those that could not be made or that overflow (prints_of)."""
    declared = {} if result is None else {
        f"cards/{sheets.folder(model)}/card-{card.name}.html": (card, model.manifest.ruleset)
        for model in result.models.values() for card in model.cards}
    notes = []
    if prints.missing:
        notes.append(f"printing skipped ({prints.why}): {len(prints.missing)} PDF/PNG prints are missing or "
                     "older than their HTML; install chromium and run 'rulec build' to print them")
        notes += [f"  not printed: {rel}" for rel in prints.missing[:MAX_LISTED]]
        if len(prints.missing) > MAX_LISTED:
            notes.append(f"  ... and {len(prints.missing) - MAX_LISTED} more")
    for rel in prints.overflowing:
        if rel in declared and result is not None:
            card, ruleset = declared[rel]
            o = card.origin
            notes.append(Diagnostic(
                Span(o.file, o.line, o.col, o.line, o.col + len("card")), "R121",
                f"card '{card.name}' runs past its page in {ruleset} as Chromium lays it out ({rel})",
                severity="warning", hint="show fewer blocks on it, give it more columns or a larger size, or "
                "move some blocks to a card of their own").render(result.sources))
        else:
            notes.append(f"warning: {rel} runs past its page as Chromium lays it out: show less on it, give it "
                         "more columns or a larger size")
    made: dict[str, Content] = dict(prints.files)
    return made, notes


MAX_LISTED = 12  # files named in a note; a 10,000-clause tree has hundreds of cards


BOM = "\ufeff"  # UTF-8's byte-order mark: how Excel knows a CSV file is UTF-8 (it guesses otherwise)


def with_bom(outputs: Iterable[tuple[str, str | KeptText]], csv_bom: bool) -> Iterator[tuple[str, str | KeptText]]:
    """The outputs, each CSV file opened by a byte-order mark when csv_bom (rulec.toml's
    [cards] csv_bom, or rulec build --csv-bom): Excel reads ¼ and ½ right only then."""
    for rel, text in outputs:
        yield rel, (BOM + text_of(text) if csv_bom and rel.endswith(".csv") else text)


class Packed(MutableMapping[str, str]):
    """Texts kept compressed (pack) until they are asked for (a kept text's bytes taken as they are)."""

    def __init__(self) -> None:
        self._packed: dict[str, bytes] = {}

    def __getitem__(self, key: str) -> str:
        return unpack(self._packed[key])

    def __setitem__(self, key: str, text: str | KeptText) -> None:
        self._packed[key] = text.packed if isinstance(text, KeptText) else pack(text)

    def __delitem__(self, key: str) -> None:
        del self._packed[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._packed)

    def __len__(self) -> int:
        return len(self._packed)


class Streamed:
    """The outputs of a build, made one at a time for write_atomic or differences; the cards' HTML
    is kept, compressed (a 10,000-clause rulebook's is 25 MB), for the sheets of small cards, which
    open their cards' files. Given the print run a build began with its browser (run), each card is
    printed as it comes, beside the rest of the build (printing.PrintRun); prints() gathers the prints."""

    def __init__(self, result: Result, out_dir: Path, validate: bool, allow_print: bool, work: Work | None = None,
                 keep_modules: bool = False, csv_bom: bool = False, run: printing.PrintRun | None = None):
        self.result, self.validate, self.csv_bom = result, validate, csv_bom
        self.work = work
        self.cards = Packed()
        self.notes: list[str] = []
        self.keep_modules = keep_modules
        self.modules: dict[str, str] = {}  # python/<ruleset>.py: its text, with keep_modules (to compile)
        # run: the print run begun with the build's browser, fed the cards as soon as the rules were
        # resolved (feed_cards); None: the cards are printed by prints(), with a browser started then
        # if printing is allowed.
        self.printing = run or printing.PrintRun(out_dir, allow_print)

    def texts(self) -> Iterator[tuple[str, str | KeptText]]:
        for rel, text in with_bom(iter_outputs(self.result, self.validate, self.work), self.csv_bom):
            if printing.is_card(rel) or printing.is_sheet(rel):
                self.cards[rel] = text
                self.printing.add(rel, text_of(text))
            elif self.keep_modules and rel.startswith("python/") and rel.endswith(".py"):
                self.modules[rel] = text_of(text)
            yield rel, text

    def prints(self) -> dict[str, Content]:
        prints, self.notes = print_notes(self.printing.finish(self.cards), self.result)
        return prints

    def everything(self) -> Iterator[tuple[str, Content]]:
        yield from self.texts()
        yield from self.prints().items()
