"""The `rulec` command: check, build."""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import signal
import sys
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import __version__, printing
from .collector import long_lived
from .diagnostics import Diagnostic, did_you_mean
from .printing import PrintError
from .project import COMMAND_LINE, Project, read_assets
from .project import load as load_project
from .project import read as read_roots
from .timings import stage, timing

# The compiler itself (build, cache, evaluate, ...) is imported by the commands that use it, not
# here: a no-op `rulec build` finds it has nothing to do without it (manifest.py), in a tenth of
# the time, and a build that has work to do starts its browser before importing it (_build).
if TYPE_CHECKING:
    from .build import Result, WhenResolved
    from .cache import Work
    from .manifest import BuildCache
    from .writing import Content

EXIT_OK, EXIT_RULES, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
EXIT_INTERRUPTED = 130  # as a shell reports Ctrl-C


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"rulec: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def make_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="rulec", description="Compile board-wargame rules into check functions, "
                "rule sheets and a JSON IR.")
    p.add_argument("--version", action="version", version=f"rulec {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    c = sub.add_parser("check", help="check rules files and report every mistake")
    c.add_argument("paths", nargs="*", type=Path, help="files or folders (default: the project's rules folders, "
                   "else rules/)")
    c.add_argument("--rules", type=Path, action="append", help=RULES_HELP)
    c.add_argument("--format", choices=("text", "json", "github"), default="text", help="text for people "
                   "(default); json, or github (GitHub Actions annotations), on standard output for tools")
    c.add_argument("--strict", action="store_true", help="exit 1 on a warning too (a table condition rulec "
                   "does not decide, two options that change one answer differently)")
    b = sub.add_parser("build", help="compile rules/ into generated/")
    b.add_argument("--rules", type=Path, action="append", help=RULES_HELP)
    b.add_argument("--out", type=Path, help="the output folder (default: the project's 'out', else generated/)")
    b.add_argument("--check", action="store_true", help="write nothing; exit 1 if the output folder is "
                   "not what the rules produce")
    b.add_argument("--no-print", action="store_true", help="do not start a browser to print cards; keep the "
                   "prints whose HTML has not changed")
    b.add_argument("--csv-bom", action="store_true", help="open each CSV file with a UTF-8 byte-order mark, "
                   "so that Excel reads ¼ and ½ right (rulec.toml: [cards] csv_bom = true)")
    b.add_argument("--watch", action="store_true", help="rebuild whenever a rules file is saved, printing the "
                   "diagnostics; rewrite only the output files that changed, and print the cards that changed "
                   "with a browser kept open (not with --no-print)")
    b.add_argument("--interval", type=float, default=0.5, help=argparse.SUPPRESS)  # seconds between looks
    b.add_argument("--iterations", type=int, default=0, help=argparse.SUPPRESS)  # stop after N looks (tests)
    b.add_argument("--cache", type=Path, help="the build cache: a build of what was built last time does "
                   "nothing (default: .rulec-cache/ beside rulec.toml, else in the current folder)")
    b.add_argument("--no-cache", action="store_true", help="build everything, and keep no cache")
    b.add_argument("--timings", action="store_true", help="after the build, say where its time went, stage by "
                   "stage and ruleset by ruleset (on standard error)")
    b.add_argument("--compiled", action="store_true", help="also compile each Python module into a C extension "
                   "with mypyc, beside it as python/<ruleset>_c (pip install 'rulec[compiled]', and a C compiler); "
                   "slow: kept in the build cache")
    b.add_argument("--jobs", type=int, default=1, metavar="N", help="with --compiled: how many modules are compiled "
                   "at once (default: 1; the largest takes about 7 GB of memory)")
    d = sub.add_parser("diff", help="what changed between two rule trees or git revisions")
    d.add_argument("old", help="a rules folder or file, or a git revision (its rules/ folder)")
    d.add_argument("new", nargs="?", default="rules", help="the same (default: the rules/ folder)")
    d.add_argument("--rules", default="rules", help="the rules folder inside a git revision (default: rules)")
    d.add_argument("--sheets", type=Path, help="also write NEW's rule sheets into this folder, with a check "
                   "mark on every clause changed since OLD")
    d.add_argument("--exit-code", action="store_true", help="exit 1 when there are changes")
    t = sub.add_parser("test", help="run every worked example in the rules")
    t.add_argument("--rules", type=Path, action="append", help=RULES_HELP)
    t.add_argument("--coverage", action="store_true", help="also list every clause, table row, list value, "
                   "limit, exception and override no example exercises; exit 1 if any")
    t.add_argument("--run", metavar="PATTERN", help="run only the examples whose name ('RULESET CLAUSE TITLE') "
                   "contains PATTERN or matches it as a glob, in any case: --run 'DAK 4.5a'")
    t.add_argument("--format", choices=("text", "json", "junit"), default="text", help="text for people "
                   "(default); json, or junit (JUnit XML), on standard output for tools")
    t.add_argument("-v", "--verbose", action="store_true", help="name every example run")
    e = sub.add_parser("eval", help="ask a ruleset a question: rulec eval DAK 'ezoc_allows(F, true)'")
    e.add_argument("ruleset", help="the ruleset: a series, game or scenario name, or a declared ruleset")
    e.add_argument("query", help="an expression in the rules language")
    e.add_argument("--rules", type=Path, action="append", help=RULES_HELP)
    e.add_argument("--state", type=Path, help='a JSON file of named records: {"h": {"record": "Hex", '
                   '"value": {...}}}; checked against generated/schemas/<ruleset>.state.schema.json')
    e.add_argument("--json", action="store_true", help='print {"value": ..., "rules": [...], '
                   '"explanation": ...}')
    e.add_argument("--module", action="store_true", help="answer from the generated Python module instead "
                   "of the reference interpreter (the two must agree)")
    f = sub.add_parser("fmt", help="format rules files in the one canonical layout, keeping comments")
    f.add_argument("paths", nargs="*", type=Path, help="files or folders (default: the project's own rules "
                   "folders, else rules/); - formats standard input to standard output")
    f.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file is not formatted")
    f.add_argument("--diff", action="store_true", help="write nothing; print what formatting would change, "
                   "as a unified diff")
    i = sub.add_parser("init", help="start a game repository: rulec.toml, a first rules file, .gitignore, "
                       "pre-commit and CI")
    i.add_argument("dir", nargs="?", type=Path, default=Path("."), help="the folder (default: the current one)")
    i.add_argument("--extends", required=True, metavar="SERIES", help="the installed series the game extends "
                   "(rulec ships OCS, ZCS and ACW)")
    i.add_argument("--name", help="the game's name in the rules (default: the folder's name, in capitals)")
    i.add_argument("--title", help="the game's title (default: from its name)")
    sub.add_parser("lsp", help="run the language server on standard input and output (needs rulec[lsp])")
    for command in sub.choices.values():
        command.add_argument("--project", type=Path, help="the project file, or its folder (default: the nearest "
                             "rulec.toml at or above the current folder)")
    return p


RULES_HELP = ("a rules folder; give several --rules for several folders (default: the project's rules "
              "folders and installed series, else rules/)")


def _project(args: argparse.Namespace, rules: list[Path] | None) -> Project:
    return load_project(Path.cwd(), getattr(args, "project", None), rules)


def _shown(path: Path) -> Path:
    """A project path as messages show it: relative to the current folder where it is inside it."""
    if path.is_absolute():
        try:
            return path.relative_to(Path.cwd())
        except ValueError:
            return path
    return path


def _failed(diags: list[Diagnostic]) -> int:
    """Exit 1 for mistakes in the rules; 3 where rulec disagreed with itself (R900), a bug in rulec."""
    return EXIT_INTERNAL if any(d.code == "R900" for d in diags) else EXIT_RULES


def cmd_test(args: argparse.Namespace) -> int:
    from .build import compile_sources
    from .testing import run_tests, uncovered_diagnostics

    loaded = _load(_project(args, args.rules))
    if isinstance(loaded, int):
        return loaded
    errors = [d for d in loaded.diagnostics if d.code not in ("R401", "R402")]
    if any(d.severity == "error" for d in errors):
        report(loaded)
        print("rulec: the rules have mistakes other than failing examples; fix those first", file=sys.stderr)
        return EXIT_RULES
    result = compile_sources(loaded.sources, keep_models=True, crosscheck=True)
    rep = run_tests(result.models, result.modules, only=args.run)
    if args.run is not None and not rep.outcomes:
        print(f"rulec: no example matches '{args.run}' (an example is named 'RULESET CLAUSE TITLE'; "
              "rulec test -v lists them)", file=sys.stderr)
        return EXIT_USAGE
    status = EXIT_OK if rep.failed == 0 else _failed(rep.failures)
    if args.format != "text":
        from . import reports

        missing = uncovered_diagnostics(rep) if args.coverage and args.run is None else None
        if missing:
            status = EXIT_RULES
        print(reports.test_json(rep, loaded.sources, missing) if args.format == "json"
              else reports.test_junit(rep, loaded.sources))
        return status
    if args.verbose:
        for name in rep.names:
            print(f"  {name}")
    for d in rep.failures:
        print(d.render(loaded.sources), file=sys.stderr)
        print(file=sys.stderr)
    if args.coverage and args.run is not None:
        print("coverage: not measured, as --run ran only some examples", file=sys.stderr)
    elif args.coverage:
        missing = uncovered_diagnostics(rep)
        for d in missing:
            print(d.render(loaded.sources), file=sys.stderr)
            print(file=sys.stderr)
        done = len(rep.items) - len(missing)
        print(f"coverage: {done} of {len(rep.items)} clauses, table rows, list values, limits, exceptions "
              f"and overrides exercised by an example")
        if missing:
            status = EXIT_RULES
    for line in rep.superseded:  # examples of a lower layer that a later one changed: listed, not failed
        print(f"superseded: {line}")
    print(f"{rep.passed} passed, {rep.failed} failed"
          + (f", {len(rep.superseded)} superseded" if rep.superseded else ""))
    return status


def cmd_eval(args: argparse.Namespace) -> int:
    from .evaluate import EvalFailure, evaluate

    loaded = _load(_project(args, args.rules))
    if isinstance(loaded, int):
        return loaded
    if not loaded.ok:
        report(loaded)
        print("rulec: the rules have mistakes; fix them before asking questions", file=sys.stderr)
        return EXIT_RULES
    names = {n.lower(): n for n in loaded.models}
    if args.ruleset.lower() not in names:
        hint = did_you_mean(args.ruleset, loaded.models)
        print(f"rulec: no ruleset '{args.ruleset}' (there are: {', '.join(sorted(loaded.models))})"
              + (f"; {hint}" if hint else ""), file=sys.stderr)
        return EXIT_USAGE
    model = loaded.models[names[args.ruleset.lower()]]
    state = None
    if args.state is not None:
        try:
            state = read_state(args.state)
        except (OSError, UnicodeDecodeError, ValueError) as err:
            print(f"rulec: cannot read --state {args.state}: {err}", file=sys.stderr)
            return EXIT_USAGE
    try:
        answer = evaluate(model, args.query, state, on_module=args.module)
    except EvalFailure as failure:
        sources = {"<query>": args.query}
        for d in failure.diagnostics:
            print(d.render(sources), file=sys.stderr)
        print(f"rulec: {failure}", file=sys.stderr)
        return EXIT_USAGE if failure.usage else EXIT_RULES
    if args.json:
        print(json.dumps(answer.to_json(), indent=2, sort_keys=True, ensure_ascii=False))
        return EXIT_OK
    print(f"{answer.query}  [{answer.ruleset}]  =  {_show(answer.value)}")
    for rule in answer.rules:
        print(f"  because {rule['text']}")
    if answer.would_change:
        print(f"  it would be yes if {' or '.join(answer.would_change)}")
    return EXIT_OK


def _show(value: object) -> str:
    from .evaluate import json_value

    shown = json_value(value)
    if isinstance(shown, bool):
        return "true" if shown else "false"
    return json.dumps(shown, ensure_ascii=False) if not isinstance(shown, (int, str)) else str(shown)


def report(result: Result, quiet_ok: bool = False) -> None:
    for d in result.diagnostics:
        print(d.render(result.sources), file=sys.stderr)
        print(file=sys.stderr)
    errors = sum(d.severity == "error" for d in result.diagnostics)
    warnings = len(result.diagnostics) - errors
    if errors or warnings:
        print(f"{_plural(errors, 'error')}, {_plural(warnings, 'warning')} "
              f"in {_plural(len(result.sources), 'file')}", file=sys.stderr)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _usage_errors(project: Project) -> int | None:
    """A --rules that does not exist or is given twice: a usage error (exit 2), said as such."""
    given = [d for d in project.diagnostics if d.span.file == COMMAND_LINE]
    for d in given:
        print(f"rulec: {d.message}", file=sys.stderr)
    return EXIT_USAGE if given else None


Read = tuple[dict[str, str], list[Diagnostic], dict[str, bytes]]  # the rules files, read errors, theme files


def _read(project: Project) -> Read:
    """The project's rules files and the files its themes may use, read once."""
    sources, read_errors = read_roots(project.roots)
    return sources, read_errors, read_assets(project.roots)


def _load(project: Project, work: Work | None = None, crosscheck: bool = False,
          read: Read | None = None, when_resolved: WhenResolved | None = None) -> Result | int:
    """Every rules file of the project's roots, compiled; the project file's own mistakes among the
    diagnostics (a --rules that does not exist is a usage error, exit 2). read: the files, when the
    caller has read them already (a build, for its cache key). when_resolved: see compile_sources."""
    from .build import compile_sources

    if (wrong := _usage_errors(project)) is not None:
        return wrong
    with stage("read the rules files"):
        sources, read_errors, assets = read if read is not None else _read(project)
    if not sources and not read_errors and not project.diagnostics:
        print(f"rulec: no .rules files in {', '.join(str(r.path) for r in project.roots)}", file=sys.stderr)
        return EXIT_USAGE
    result = compile_sources(sources, work=work, crosscheck=crosscheck, assets=assets, when_resolved=when_resolved)
    result.diagnostics = sorted(set(result.diagnostics + read_errors + project.diagnostics))
    if project.diagnostics:
        result.sources = {**result.sources, **project.sources}  # to show the project file's lines
    return result


def cmd_check(args: argparse.Namespace) -> int:
    loaded = _load(_project(args, [*args.paths, *(args.rules or [])] or None))
    if isinstance(loaded, int):
        return loaded
    failed = not loaded.ok or bool(args.strict and loaded.diagnostics)
    if args.format != "text":  # for tools, on standard output: the same findings, the same exit code
        from . import reports

        if args.format == "json":
            print(reports.check_json(loaded.diagnostics, len(loaded.sources), list(loaded.models)))
        elif loaded.diagnostics:
            print(reports.github(loaded.diagnostics))
        return EXIT_RULES if failed else EXIT_OK
    report(loaded)
    if not loaded.ok:
        return EXIT_RULES
    if failed:  # only warnings are left: --strict counts them as mistakes
        print(f"rulec: {_plural(len(loaded.diagnostics), 'warning')}, and --strict was asked", file=sys.stderr)
        return EXIT_RULES
    print(f"ok: {_plural(len(loaded.sources), 'file')}, rulesets {', '.join(sorted(loaded.models))}")
    return EXIT_OK


def cmd_build(args: argparse.Namespace) -> int:
    project = _project(args, args.rules)
    args.out = args.out or _shown(project.out)
    args.cache = args.cache or _shown(project.cache)
    args.no_print = args.no_print or not project.print_cards
    args.csv_bom = args.csv_bom or project.csv_bom
    if args.watch:
        from .watch import watch

        if args.timings:
            print("rulec: --timings times one build; it does not go with --watch", file=sys.stderr)
            return EXIT_USAGE
        if (wrong := _usage_errors(project)) is not None:  # a --rules that does not exist
            return wrong
        args.roots = project.roots
        return watch(args)
    if not args.timings:
        with long_lived(), ExitStack() as closing:  # what the build makes lives to its end (collector.py)
            return _build(args, project, closing)
    with timing() as spent, long_lived(), ExitStack() as closing:
        code = _build(args, project, closing)
    print("where the time of 'rulec build' went (wall clock, seconds):", file=sys.stderr)
    for line in spent.report(spent.clock() - spent.started):
        print(f"  {line}", file=sys.stderr)
    return code


def _build(args: argparse.Namespace, project: Project, closing: ExitStack) -> int:
    """closing: what the build leaves open until it returns (its browser)."""
    from .manifest import BuildCache, tree_key

    if args.compiled:
        from . import compiled

        if args.check or args.watch:
            print("rulec: --compiled goes with neither --check nor --watch (the compiled modules are built, "
                  "never compared, and take minutes)", file=sys.stderr)
            return EXIT_USAGE
        if (missing := compiled.missing_tools()) is not None:
            print(f"rulec: {missing}; {args.out}/ was left as it was", file=sys.stderr)
            return EXIT_RULES
    printing.clean_leftovers()  # what a rulec killed while printing left, whether this build prints or not
    cache = None if args.no_cache or args.check else BuildCache(args.cache)
    key = None
    read = None
    if cache is not None and not project.diagnostics:  # nothing changed since the last build: nothing to do
        with stage("read the rules files"):
            read = sources, read_errors, assets = _read(project)
        can_print = not args.no_print and printing.find_chromium() is not None
        key = tree_key(sources, can_print, project.rulesets, assets) if sources and not read_errors else None
        if key is not None and _up_to_date(cache, key, args.out, args.compiled):
            _published(args.out)
            print(f"up to date: {args.out}/ is what the rules produce (nothing changed since the last build)")
            return EXIT_OK
    printer = None if args.check or args.no_print else _printer()
    if printer is not None:
        closing.callback(printer.close)
    # The compiler, imported now (0.2 s) while the browser starts.
    from . import compiled, modcheck
    from .build import Streamed, big_buffers_given_back, feed_cards
    from .cache import Work
    from .published import PUBLISHED, docs_differences
    from .writing import Unfinished, differences, write_atomic

    big_buffers_given_back()
    work = Work(args.cache) if cache is not None else None  # each file's parse, each table's analysis
    run = None
    if printer is not None:  # the cards are made and printed as soon as the rules are resolved (feed_cards)
        run = printing.PrintRun(args.out, True, printer, beside=True)
        cards_now = functools.partial(feed_cards, run=run, work=work, only=project.rulesets)
    # Each module made is compiled whole by a second Python beside the build (modcheck), whose
    # verdict the build waits for before it commits the output folder (then, below).
    modules_check = closing.enter_context(modcheck.checking()) if not args.check else None
    loaded = _load(project, work, crosscheck=True, read=read,  # the examples run on the modules too
                   when_resolved=None if run is None else cards_now)
    if isinstance(loaded, int):
        return loaded
    report(loaded)
    if not loaded.ok:
        print(f"build failed; {args.out}/ was left as it was", file=sys.stderr)
        return _failed(loaded.diagnostics)
    if project.rulesets:  # the project builds only the rulesets it names (a game, not its series)
        unknown = [r for r in project.rulesets if r not in loaded.models]
        if unknown:
            print(f"rulec: {project.label}: no ruleset {', '.join(map(repr, unknown))} (there are: "
                  f"{', '.join(sorted(loaded.models))})", file=sys.stderr)
            return EXIT_RULES
        loaded.models = {name: loaded.models[name] for name in project.rulesets}
    # Each output is written (or compared) as it is made: a large rulebook's outputs are never
    # all in memory at once.
    made = Streamed(loaded, args.out, validate=args.check, allow_print=not (args.check or args.no_print), work=work,
                    keep_modules=args.compiled, csv_bom=args.csv_bom, run=run)
    if args.check:
        count = 0
        texts: dict[str, str] = {}  # what docs/ holds a copy of (docs/traceability.md)

        def counted() -> Iterator[tuple[str, Content]]:
            nonlocal count
            for rel, content in made.everything():
                count += 1
                if rel in PUBLISHED and isinstance(content, str):
                    texts[rel] = content
                yield rel, content

        with stage("compare with the output folder"):
            diff = differences(counted(), args.out)
        diff += docs_differences(texts, args.out)
        for note in made.notes:
            print(note, file=sys.stderr)
        if diff:
            print(f"{args.out}/ is not what the rules produce; run 'rulec build':", file=sys.stderr)
            for line in diff:
                print(f"  {line}", file=sys.stderr)
            return EXIT_RULES
        print(f"ok: {args.out}/ is up to date ({_plural(count, 'file')})")
        return EXIT_OK
    extensions: dict[str, bytes] = {}

    def then() -> dict[str, Content]:
        """After the text files: the check of the modules, the card prints, and with --compiled each
        module's C extension."""
        with stage("check that every module compiles (what is left once the build is done)"):
            broken = [] if modules_check is None else modules_check.problems()
        if broken:
            raise modcheck.ModulesBroken(broken)
        with stage("print the cards (what is left once the build is done)"):  # the rest is beside the build
            more: dict[str, Content] = {**made.prints()}
        if printer is not None:  # every print is in: the browser dies while the last files are written
            printer.kill()
        if args.compiled:
            with stage("compile the modules (mypyc)"):
                extensions.update(compiled.extensions(
                    made.modules, None if args.no_cache else args.cache, args.jobs,
                    lambda said: print(f"rulec: {said}", file=sys.stderr, flush=True)))
            more.update(extensions)
        return more

    try:
        known = None if cache is None else cache.known(args.out)  # what it need not read again
        with stage("write the output folder"):
            written = write_atomic(made.texts(), args.out, then=then, known=known)
    except modcheck.ModulesBroken as e:  # rulec's own mistake: the old output stays
        print(f"rulec: {e}; {args.out}/ was left as it was", file=sys.stderr)
        return EXIT_INTERNAL
    except compiled.CompileError as e:  # a module mypyc or the C compiler refused: the old output stays
        print(f"rulec: {e}\n{args.out}/ was left as it was", file=sys.stderr)
        return EXIT_RULES
    except Unfinished as e:  # the new output was committed but could not all be moved into place
        print(f"rulec: cannot finish writing {args.out}/: {e.strerror}", file=sys.stderr)
        return EXIT_RULES
    except OSError as e:  # a read-only or full disk, a name too long: the old output is left as it was
        if isinstance(e.__context__, KeyboardInterrupt):  # an interrupt that broke a clean-up on its way
            raise KeyboardInterrupt from None
        where = f" ({e.filename})" if e.filename else ""
        print(f"rulec: cannot write {args.out}/: {e.strerror or e}{where}; {args.out}/ was left as it was",
              file=sys.stderr)
        return EXIT_RULES
    except PrintError as e:  # the browser failed or hung: nothing is wrong with the rules or with rulec
        print(f"rulec: cannot print the cards: {e}; {args.out}/ was left as it was (rulec build --no-print "
              "builds everything else)", file=sys.stderr)
        return EXIT_RULES
    for note in made.notes:
        print(note, file=sys.stderr)
    if not _published(args.out):
        return EXIT_RULES
    with stage("keep the build cache"):
        if work is not None:
            work.finish()  # the whole tree was built: keep what this build used, drop the rest
        if cache is not None and key is not None:
            cache.record(compiled.build_key(key) if args.compiled else key, args.out, written, args.compiled)
    print(f"built {_plural(written.count, 'file')} into {args.out}/ for {', '.join(sorted(loaded.models))}"
          + (f", {_plural(len(extensions), 'module')} compiled with mypyc" if args.compiled else "")
          + (f" ({written.changed} changed)" if written.changed else " (nothing changed)"))
    return EXIT_OK


def _up_to_date(cache: BuildCache, key: str, out: Path, compiled_build: bool) -> bool:
    """Nothing to do: the last build into out was of key, and out is as it left it. A compiled
    build's key is its own; a plain build is satisfied by a compiled build of the same, whose key
    (which names the tools: 25 ms to work out, with importlib.metadata) is worked out only when the
    last build was a compiled one."""
    if not compiled_build and cache.up_to_date(key, out):
        return True
    if not (compiled_build or cache.was_compiled(out)):
        return False
    from . import compiled

    return cache.up_to_date(compiled.build_key(key), out)


def _printer() -> printing.KeptBrowser | None:
    """The browser a build prints its cards with, started as the build starts, so that its start-up
    (a third of a second, most of it on the core the build leaves free) is over by the time the
    cards are made. Most edits change a card; one that changes none has started it for nothing
    (paired processes on the shipped rules: a one-card edit 0.81-0.97 of the time with a browser
    started only to print, median 0.91; a full build 0.87-1.00; an edit of an example's title, which
    prints nothing, 0.93-1.39, median 1.04). None without Chromium, or when it cannot be started
    (the prints then say why, as ever)."""
    exe = printing.find_chromium()
    if exe is None:
        return None
    printer = printing.KeptBrowser(exe)
    try:
        printer.start()
    except printing.PrintError:
        return None
    return printer


def _published(out: Path) -> bool:
    """Copy what docs/ holds of generated/ (docs/traceability.md) into docs/, after generated/ is in place."""
    from .published import publish_docs

    try:
        for name in publish_docs(out):
            print(f"wrote {name}")
    except OSError as e:
        print(f"rulec: cannot write docs/: {e.strerror or e}; docs/ was left as it was", file=sys.stderr)
        return False
    return True


def cmd_diff(args: argparse.Namespace) -> int:
    from .diff import command

    # The project's other rules (an installed series, a sibling folder) are read beside both sides, so a
    # game is compared over the series it extends.
    project = _project(args, None)
    compared = {Path(s).resolve() for s in (args.old, args.new) if Path(s).exists()} | {Path(args.rules).resolve()}
    beside = [r for r in project.roots if r.series is not None or r.path.resolve() not in compared]
    args.beside = read_roots(beside)[0] if beside else {}

    return command(args)


def cmd_init(args: argparse.Namespace) -> int:
    from .init import command

    return command(args)


def cmd_fmt(args: argparse.Namespace) -> int:
    from .fmt import command

    if not args.paths:  # the project's own rules folders: never an installed series
        project = _project(args, None)
        if (wrong := _usage_errors(project)) is not None:
            return wrong
        args.paths = [_shown(r.path) for r in project.roots if r.series is None]

    return command(args)


def cmd_lsp(args: argparse.Namespace) -> int:
    try:
        from .lsp import main as serve
    except ImportError as e:
        print(f"rulec: the language server needs pygls ({e}); pip install 'rulec[lsp]'", file=sys.stderr)
        return EXIT_USAGE
    return serve()


MAX_STATE_BYTES = 20_000_000  # a --state file
MAX_STATE_DEPTH = 100  # objects and arrays nested in a --state file


def read_state(path: Path) -> dict[str, Any]:
    """A --state file's named records, or ValueError saying what is wrong with it: never more than
    its bounds of size, nesting and digits, and only what JSON allows (no NaN or Infinity)."""
    from .state_schema import MAX_DIGITS

    with open(path, "rb") as f:
        data = f.read(MAX_STATE_BYTES + 1)
    if len(data) > MAX_STATE_BYTES:
        raise ValueError(f"the file is larger than {MAX_STATE_BYTES:,} bytes")

    def whole(text: str) -> int:
        if len(text.lstrip("-")) > MAX_DIGITS:
            raise ValueError(f"a number of more than {MAX_DIGITS:,} digits")
        return int(text)

    def real(text: str) -> float:
        mantissa = text.lower().partition("e")[0]
        value = float(text)
        if len(mantissa) > MAX_DIGITS + 2 or not math.isfinite(value):
            raise ValueError(f"a number of more than {MAX_DIGITS:,} digits: {text[:40]}")
        return value

    def refuse(name: str) -> None:
        raise ValueError(f"{name} is not a number (JSON has no {name})")

    text = data.decode("utf-8")
    depth, quoted, escaped = 0, False, False
    for at, ch in enumerate(text):  # nesting counted before the parser recurses into it
        if quoted:
            escaped, quoted = (False, True) if escaped else (ch == "\\", ch != '"')
        elif ch == '"':
            quoted = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_STATE_DEPTH:
                raise ValueError(f"objects and arrays nested more than {MAX_STATE_DEPTH} deep (at character {at})")
        elif ch in "]}":
            depth -= 1
    state = json.loads(text, parse_int=whole, parse_float=real, parse_constant=refuse)
    if not isinstance(state, dict):
        raise ValueError("it must hold a JSON object of named records")
    return state


COMMANDS = {"check": cmd_check, "build": cmd_build, "diff": cmd_diff, "eval": cmd_eval, "test": cmd_test,
            "fmt": cmd_fmt, "init": cmd_init, "lsp": cmd_lsp}


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM, at any point: not a bug, and nothing half-written is left
        print("rulec: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _main(argv: Sequence[str] | None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a lone surrogate ('\\ud800' in a --state file) is shown escaped
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    args = make_parser().parse_args(argv)
    # SIGTERM (a CI job cancelled, a container stopped) ends rulec as Ctrl-C does: the temporary
    # folders and the browser of a build in progress are cleaned up on the way out.
    try:
        previous = signal.signal(signal.SIGTERM, _interrupt)
    except ValueError:  # not the main thread (rulec called from a program's thread): leave it be
        previous = None
    try:
        return _run(args)
    finally:
        # The command is done with its models: a program calling main() again lets them go (the
        # rule sheets' words keep them, where a command made any).
        sheets_text = sys.modules.get(f"{__package__}.sheets.text")
        if sheets_text is not None:
            sheets_text.forget_models()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _run(args: argparse.Namespace) -> int:
    try:
        return COMMANDS[args.command](args)
    except BrokenPipeError:  # the reader stopped early (rulec eval ... | head): nothing is wrong
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so that the interpreter's last flush fails no more
        return EXIT_OK
    except Exception as e:  # a bug in rulec itself; never show a traceback to a designer
        print(f"rulec: internal error ({type(e).__name__}: {e}). This is a bug in rulec, not in your "
              "rules; please report it with the files that caused it.", file=sys.stderr)
        return EXIT_INTERNAL


def run() -> None:
    """The `rulec` command. Its process ends as soon as the command is done: by then everything rulec
    writes is written and closed, its temporary folders removed and its browser stopped, and what is
    left in memory (a build's parses, models and caches: a few hundred thousand objects) the
    interpreter would otherwise free one by one, after a last collection over all of it, 0.08-0.1 s
    of a 1 s one-card edit. main() returns as ever to a program that calls it."""
    code = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a reader gone (rulec ... | head), or the stream closed
            pass
    os._exit(code)


__all__ = ["main", "run", "Diagnostic"]
