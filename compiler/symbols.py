"""What the rules declare and where: rule numbers and names, for hover, go to definition and
completion in editors (the language server) without any editor library."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from . import ast
from .diagnostics import Span
from .sheets.text import md_escape, md_link_target

KEYWORDS = sorted(set(
    "series game scenario option in extends version ruleset with rule external at text note see text-only "
    "enum ordered cyclic has record define const invariant checks table when otherwise limits unless at most "
    "except override title example let expect by if then else and or not true false list set of bool int "
    "number for where says requires card theme show size columns illustrative".split()))

_WORD = re.compile(r"\d+(?:\.[0-9A-Za-z]+)*|[A-Za-z][A-Za-z0-9_]*")
_RULE_CONTEXT = re.compile(r"(?:\b(?:see|override|rule|external|by)\s+(?:[A-Za-z]\w*\s+)?|,\s*)$")
_RULENUM = re.compile(r"\d+(?:\.[0-9A-Za-z]+)+")


@dataclass(frozen=True)
class RuleInfo:
    number: str
    title: str | None
    text: str
    span: Span
    layer: str | None
    url: str | None = None  # an external clause: where its text is


@dataclass(frozen=True)
class NameInfo:
    name: str
    kind: str  # define table const limits invariant enum record value field layer ruleset
    title: str | None
    span: Span
    layer: str | None
    rule: str | None  # the clause it is declared in
    header: str = ""  # its declaration as written (first line)


@dataclass
class Index:
    rules: dict[str, list[RuleInfo]] = field(default_factory=dict)
    names: dict[str, list[NameInfo]] = field(default_factory=dict)

    def add_rule(self, info: RuleInfo) -> None:
        self.rules.setdefault(info.number, []).append(info)

    def add_name(self, info: NameInfo) -> None:
        self.names.setdefault(info.name, []).append(info)


def build_index(files: Iterable[ast.File], sources: Mapping[str, str]) -> Index:
    index = Index()
    for f in files:
        _FileIndexer(index, sources.get(f.path, "").split("\n")).add(f)
    return index


class _FileIndexer:
    def __init__(self, index: Index, lines: list[str]) -> None:
        self.index, self.lines = index, lines
        self.layer: str | None = None

    def header(self, span: Span) -> str:
        return self.lines[span.line - 1].strip() if 0 < span.line <= len(self.lines) else ""

    def name(self, name: str, kind: str, title: str | None, span: Span, rule: str | None) -> None:
        self.index.add_name(NameInfo(name, kind, title, span, self.layer, rule, self.header(span)))

    def decl(self, d: ast.Declaration, rule: str | None) -> None:
        kind = {ast.EnumDecl: "enum", ast.RecordDecl: "record", ast.ConstDecl: "const",
                ast.TableDecl: "table", ast.LimitsDecl: "limits"}.get(type(d), "define")
        if isinstance(d, ast.DefineDecl) and d.invariant:
            kind = "invariant"
        self.name(d.name, kind, d.title, d.span, rule)
        if isinstance(d, ast.EnumDecl):
            for m in d.members:
                self.name(m.name, "value", m.title, m.span, rule)
        if isinstance(d, ast.RecordDecl):
            for fl in d.fields:
                self.name(fl.name, "field", fl.title, fl.span, rule)

    def add(self, f: ast.File) -> None:
        for item in f.items:
            if isinstance(item, ast.LayerDecl):
                self.layer = item.name
                self.name(item.name, "layer", item.title, item.span, None)
            elif isinstance(item, ast.InLayer):
                self.layer = item.name
            elif isinstance(item, ast.Ruleset):
                self.name(item.name, "ruleset", item.title, item.span, None)
            elif isinstance(item, ast.Rule):
                self.index.add_rule(RuleInfo(item.number, item.title, "\n\n".join(item.texts), item.span,
                                             self.layer))
                for d in item.decls:
                    self.decl(d, item.number)
            elif isinstance(item, ast.External):
                self.index.add_rule(RuleInfo(item.number, item.title, "", item.span, self.layer, item.url))
                for d in item.decls:
                    self.decl(d, item.number)
            elif isinstance(item, (ast.EnumDecl, ast.RecordDecl, ast.DefineDecl, ast.ConstDecl, ast.TableDecl,
                                   ast.LimitsDecl)):
                self.decl(item, None)


# ---- what is under the cursor ------------------------------------------------------------


@dataclass(frozen=True)
class Word:
    text: str
    line: int  # 0-based, as editors count
    start: int
    end: int
    rule_ref: bool  # a rule number (see 4.5b, override 4.5a, by DAK 4.5a F)


def word_at(text: str, line: int, char: int) -> Word | None:
    lines = text.split("\n")
    if not 0 <= line < len(lines):
        return None
    src = lines[line]
    for m in _WORD.finditer(src):
        if m.start() <= char <= m.end():
            before = src[:m.start()]
            ref = bool(_RULENUM.fullmatch(m.group())) and (bool(_RULE_CONTEXT.search(before))
                                                           or before.strip() == "")
            return Word(m.group(), line, m.start(), m.end(), ref)
    return None


def prefix_at(text: str, line: int, char: int) -> str:
    lines = text.split("\n")
    src = lines[line][:char] if 0 <= line < len(lines) else ""
    m = re.search(r"[0-9A-Za-z_.]*$", src)
    return m.group() if m else ""


def hover_text(index: Index, text: str, line: int, char: int) -> str | None:
    """Markdown for what is under the cursor: a rule's number, title and text, or a name's declaration.
    Text from the rules is escaped as on the rule sheets, so an editor shows it as written (a title's
    `[x](command:...)` is no link) and a declaration's code block is fenced longer than any backtick
    run in it."""
    w = word_at(text, line, char)
    if w is None:
        return None
    if w.rule_ref or (w.text in index.rules and "." in w.text):
        infos = index.rules.get(w.text)
        if not infos:
            return None
        parts = []
        for r in infos:
            title = md_escape(r.title or "")
            head = (f"**{md_escape(r.number)} {title}**".replace(" **", "**")
                    + (f"  ({md_escape(r.layer)})" if r.layer else ""))
            body = ("\n\n".join(md_escape(p, line_start=True) for p in re.split(r"\n\s*\n", _clip(r.text)))
                    if r.text else
                    f"Not encoded here: see [{md_escape(r.url)}]({md_link_target(r.url)})" if r.url else "")
            parts.append(head + ("\n\n" + body if body else ""))
        return "\n\n---\n\n".join(parts)
    names = index.names.get(w.text)
    if not names:
        return None
    parts = []
    for n in names:
        where = f"{n.kind}" + (f" in rule {n.rule}" if n.rule else "") + (f" ({n.layer})" if n.layer else "")
        fence = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", n.header)), default=0))
        parts.append(f"{fence}rulec\n{n.header}\n{fence}\n{md_escape(where)}"
                     + (f": {md_escape(n.title)}" if n.title else ""))
    return "\n\n---\n\n".join(parts)


def _clip(text: str, limit: int = 1500) -> str:
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " ..."


def definitions(index: Index, text: str, line: int, char: int) -> list[Span]:
    w = word_at(text, line, char)
    if w is None:
        return []
    if w.rule_ref or (w.text in index.rules and "." in w.text):
        return [r.span for r in index.rules.get(w.text, [])]
    return [n.span for n in index.names.get(w.text, [])]


@dataclass(frozen=True)
class Completion:
    label: str
    kind: str  # rule, name kinds (see NameInfo), keyword
    detail: str


def completions(index: Index, text: str, line: int, char: int) -> list[Completion]:
    """Rule numbers where a rule reference is being written (or a number is begun), else names and keywords."""
    prefix = prefix_at(text, line, char)
    lines = text.split("\n")
    before = lines[line][:char - len(prefix)] if 0 <= line < len(lines) else ""
    out: list[Completion] = []
    if (prefix[:1].isdigit()) or _RULE_CONTEXT.search(before):
        for number, infos in sorted(index.rules.items(), key=lambda kv: _rule_key(kv[0])):
            out.append(Completion(number, "rule", infos[0].title or ""))
        if prefix[:1].isdigit():
            return out
    seen = set()
    for name, named in sorted(index.names.items()):
        n = named[0]
        if name not in seen:
            seen.add(name)
            out.append(Completion(name, n.kind, n.title or n.header))
    out += [Completion(k, "keyword", "") for k in KEYWORDS if k not in seen]
    return out


def _rule_key(number: str) -> tuple[tuple[int, int | str], ...]:
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in number.split("."))
