"""Editor and documentation highlighting: the Pygments lexer and the TextMate grammar classify
every token of the shipped rules, and both know every keyword of the grammar."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, RULES

pytest.importorskip("pygments")

from pygments.token import Error, Text, Whitespace  # noqa: E402

from rulec.highlight import (  # noqa: E402
    CONSTANTS,
    DECLARATIONS,
    KEYWORDS,
    OPERATOR_WORDS,
    TYPES,
    RulesLexer,
    highlight_html,
)
from rulec.parser import grammar_text  # noqa: E402

SHIPPED = sorted(RULES.rglob("*.rules"))
IDS = [p.relative_to(ROOT).as_posix() for p in SHIPPED]
TM_PATH = ROOT / "editors" / "vscode" / "syntaxes" / "rulec.tmLanguage.json"


def grammar_keywords() -> set[str]:
    """Every keyword the Lark grammar spells out ("rule", "text-only", ...)."""
    text = re.sub(r"//[^\n]*", "", grammar_text())
    return set(re.findall(r'"([a-z][a-z-]*)"', text)) | {"text-only", "ordered", "cyclic"}


def test_the_lexer_knows_every_keyword_of_the_grammar() -> None:
    known = set(DECLARATIONS) | set(KEYWORDS) | set(OPERATOR_WORDS) | set(CONSTANTS) | set(TYPES)
    known |= {"text-only", "see", "by"}
    assert grammar_keywords() - known == set()


def test_the_language_server_completes_every_keyword_of_the_grammar() -> None:
    """`requires` came with the sitting that added it; `card`, `theme`, `show`, `size`, `columns` and
    `illustrative` had never been offered."""
    from rulec.symbols import KEYWORDS as COMPLETED
    assert grammar_keywords() - set(COMPLETED) == set()


@pytest.mark.parametrize("path", SHIPPED, ids=IDS)
def test_pygments_classifies_every_token_of_the_shipped_rules(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    tokens = list(RulesLexer().get_tokens_unprocessed(text))
    assert "".join(v for _, _, v in tokens) == text
    for pos, kind, value in tokens:
        assert kind is not Error and kind not in Error, (pos, value)
        if value.strip():
            assert kind is not Text and kind not in Whitespace, (pos, value, kind)


def test_pygments_tells_rule_numbers_from_numbers() -> None:
    kinds = {v: str(k) for _, k, v in RulesLexer().get_tokens_unprocessed(
        "rule 4.5b {\n  see 4.5a, 9.12e\n  expect odds(2.5, 1) == 3 by DAK 4.5a F\n}\n")}
    assert kinds["4.5b"] == kinds["4.5a"] == kinds["9.12e"] == "Token.Name.Label"
    assert kinds["2.5"] == "Token.Literal.Number"
    assert kinds["odds"] == "Token.Name.Function"
    assert kinds["rule"] == "Token.Keyword.Declaration"


def test_the_lexer_is_a_pygments_plugin_and_renders_html() -> None:
    html = highlight_html('rule 4.5a "Actions" { text "x" }  # c\n')
    assert 'class="highlight"' in html and "4.5a" in html and 'class="c1"' in html
    from pygments.lexers import get_lexer_by_name

    try:
        lexer = get_lexer_by_name("rulec")
    except Exception:  # the entry point is registered when rulec is installed (pip install -e .)
        pytest.skip("rulec is not installed as a package here")
    assert lexer.name == "rulec"


# ---- the TextMate grammar ----------------------------------------------------------------


def tm() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(TM_PATH.read_text(encoding="utf-8"))
    return data


def test_textmate_grammar_loads_and_its_keywords_match_the_grammar() -> None:
    g = tm()
    assert g["scopeName"] == "source.rulec" and "rules" in g["fileTypes"]
    words = re.compile(r"\\b\(\?:([a-z|-]+)\)\\b")
    listed = {w for rule in g["repository"].values() for m in words.finditer(rule.get("match", ""))
              for w in m.group(1).split("|")}
    listed |= {"text-only", "see", "by", "rule", "external", "override"}
    assert grammar_keywords() - listed == set()
    package = json.loads((TM_PATH.parent.parent / "package.json").read_text(encoding="utf-8"))
    assert package["contributes"]["grammars"][0]["path"] == "./syntaxes/rulec.tmLanguage.json"


def tm_scopes(text: str) -> list[str | None]:
    """A small TextMate tokenizer (match, captures, begin/end, include): the scope of each character."""
    g = tm()
    repo = g["repository"]

    def resolve(patterns: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out = []
        for p in patterns:
            out += resolve([repo[p["include"][1:]]]) if "include" in p else [p]
        return out

    top = resolve(g["patterns"])
    compiled = [re.compile(p.get("match") or p["begin"], re.MULTILINE) for p in top]
    ahead: list[re.Match[str] | None | bool] = [True] * len(top)  # each pattern's next match (True: unknown)
    scopes: list[str | None] = [None] * len(text)
    pos = 0
    while pos < len(text):
        for i, r in enumerate(compiled):
            m = ahead[i]
            if m is True or (isinstance(m, re.Match) and m.start() < pos):
                ahead[i] = r.search(text, pos)
        found = [(m.start(), i) for i, m in enumerate(ahead) if isinstance(m, re.Match) and m.end() > m.start()]
        if not found:
            break
        p, m = top[min(found)[1]], ahead[min(found)[1]]
        assert isinstance(m, re.Match)
        end = m.end()
        if "begin" in p:  # up to the end pattern, past what the inner patterns match (escapes)
            inner = [re.compile(q["match"], re.MULTILINE) for q in resolve(p.get("patterns", []))]
            closer = re.compile(p["end"], re.MULTILINE)
            while True:
                close = closer.search(text, end)
                skip = [x for x in (r.search(text, end) for r in inner)
                        if x and (not close or x.start() < close.start())]
                if not skip:
                    break
                end = max(x.end() for x in skip)
            end = close.end() if close else len(text)
        for i in range(m.start(), end):
            scopes[i] = p.get("name")
        for n, cap in p.get("captures", {}).items():
            if m.group(int(n)) is not None:
                for i in range(m.start(int(n)), m.end(int(n))):
                    scopes[i] = cap["name"]
        pos = end
    return scopes


@pytest.mark.parametrize("path", SHIPPED, ids=IDS)
def test_textmate_classifies_every_token_of_the_shipped_rules(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    scopes = tm_scopes(text)
    for i, ch in enumerate(text):
        if not ch.isspace():
            assert scopes[i] and not scopes[i].startswith("invalid"), (i, text[max(0, i - 20):i + 20])


def test_textmate_scopes_rule_numbers_and_strings() -> None:
    text = 'override 4.5a F: not negatable\n  note game "x # not a comment"  # a comment\n'
    scopes = tm_scopes(text)
    assert scopes[text.index("4.5a")] == "entity.name.section.rulec"
    assert scopes[text.index("# not")] == "string.quoted.double.rulec"
    assert scopes[text.index("# a comment")] == "comment.line.number-sign.rulec"


def spans(text: str) -> dict[str, list[str | None]]:
    """Each run of one scope by its text (stripped): the scopes each text was given, in order."""
    scopes, start = tm_scopes(text), 0
    out: dict[str, list[str | None]] = {}
    for i in range(1, len(text) + 1):
        if i == len(text) or scopes[i] != scopes[start]:
            if text[start:i].strip():
                out.setdefault(text[start:i].strip(), []).append(scopes[start])
            start = i
    return out


def test_textmate_tells_the_text_of_a_clause_from_the_text_type() -> None:
    got = spans('rule 1.1 "T" {\n  text "A clause\'s text"\n  record R { name: text "doc"  tags: list of text }\n'
                '  define f(x: text) -> text = x\n}\noverride 4.5b: text "new"\noverride 4.5c F:\n  text "newer"\n')
    assert got["text"] == ["keyword.other.rulec", "support.type.rulec", "support.type.rulec",
                           "support.type.rulec", "support.type.rulec", "keyword.other.rulec", "keyword.other.rulec"]
    assert got["list"] == ["support.type.rulec"] and got["of"] == ["keyword.other.rulec"]
    assert got["F"] == ["variable.other.rulec"] and got["4.5c"] == ["entity.name.section.rulec"]


def test_textmate_scopes_the_kind_of_a_note_as_a_name() -> None:
    kinds = ("game", "design", "play", "encoding", "example", "reminder")
    got = spans("".join(f'note {k} "a {k} note"\n' for k in kinds) + 'override 4.5a F: not negatable note game "x"\n'
                'note "no kind"\n')
    for kind in kinds:
        assert got[kind] == ["variable.parameter.rulec"] * (2 if kind == "game" else 1), kind
    assert set(got["note"]) == {"keyword.other.rulec"} and len(got["note"]) == len(kinds) + 2


def test_textmate_scopes_a_layer_header() -> None:
    got = spans('game DAK "Deutsches Afrikakorps" extends OCS "4.3" version "II"\n'
                'option fog "Fog of War" extends DAK\nseries OCS "Operational Combat Series" version "4.3"\n')
    assert got["game"] == got["option"] == got["series"] == ["storage.type.rulec"]
    assert got["DAK"] == ["entity.name.namespace.rulec", "entity.other.inherited-class.rulec"]
    assert got["OCS"] == ["entity.other.inherited-class.rulec", "entity.name.namespace.rulec"]
    assert got['"4.3"'] == ["string.quoted.double.version.parent.rulec", "string.quoted.double.version.rulec"]
    assert got['"II"'] == ["string.quoted.double.version.rulec"]
    assert got['"Deutsches Afrikakorps"'] == ["string.quoted.double.rulec"]
    assert got["extends"] == ["keyword.other.rulec"] * 2 and got["version"] == ["keyword.other.rulec"] * 2


KEYWORD_SCOPES = ("storage.type.", "support.type.", "keyword.", "constant.language.")


@pytest.mark.parametrize("path", SHIPPED, ids=IDS)
def test_textmate_agrees_with_the_parser_on_the_shipped_rules(path: Path) -> None:
    """The parser is the oracle: a name (a note's kind, a layer's) is never scoped as a keyword, a
    declaration or a type; every keyword is; `text` is a keyword in a clause and a type in a type."""
    from lark import Token, Tree

    from rulec.parser import lark_parser

    text = path.read_text(encoding="utf-8")
    scopes = tm_scopes(text)
    wrong = []

    def walk(tree: Tree[Token]) -> None:
        for child in tree.children:
            if isinstance(child, Tree):
                walk(child)
            elif isinstance(child, Token) and child.start_pos is not None:
                scope = scopes[child.start_pos] or ""
                if child.type == "NAME":
                    ok = not scope.startswith(KEYWORD_SCOPES)
                elif child.value == "text":
                    ok = scope == ("support.type.rulec" if tree.data == "t_text" else "keyword.other.rulec")
                elif re.fullmatch(r"[a-z][a-z-]*", child.value):
                    ok = scope.startswith(KEYWORD_SCOPES) or scope.startswith("storage.modifier.")
                else:
                    continue
                if not ok:
                    wrong.append((child.line, child.value, tree.data, scope))

    walk(lark_parser("tree").parse(text, start="start"))
    assert wrong == []


@pytest.mark.parametrize("line, word, expected", [
    ('  text "Words."\n', "text", "Token.Keyword"),  # a clause's text
    ('  note game "In DAK, ..."\n', "game", "Token.Name.Attribute"),  # a note's kind, not a declaration
    ('  note design "..."\n', "design", "Token.Name.Attribute"),
    ('  formation: text = "" "The formation"\n', "text", "Token.Keyword.Type"),
    ('  define f(t: text) -> text = t\n', "text", "Token.Keyword.Type"),
    ('  units: list of text = []\n', "text", "Token.Keyword.Type"),
    ('game DAK "x" extends OCS "4.3" version "II"\n', "game", "Token.Keyword.Declaration"),
])
def test_pygments_tells_a_text_from_the_text_type_and_a_note_kind_from_a_layer(
        line: str, word: str, expected: str) -> None:
    tokens = [(str(t), v) for t, v in RulesLexer().get_tokens(line)]
    assert (expected, word) in tokens, tokens
    assert ("Token.Punctuation", "->") not in tokens and ("Token.Punctuation", "of") not in tokens
