"""A Pygments lexer for the rules language, so documentation tools highlight ```rulec blocks.

Registered as the Pygments plugin `rulec` (aliases `rules`), so any Pygments-based renderer
(MkDocs, Sphinx, `pygmentize -l rulec`) finds it once rulec is installed. The keyword lists
here are checked against compiler/rules.lark by the tests.
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, default, words  # type: ignore[import-untyped]
from pygments.token import (  # type: ignore[import-untyped]
    Comment,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Whitespace,
)

# Words that open an item (the first word of a line in a rules file).
DECLARATIONS = ("series", "game", "scenario", "option", "ruleset", "rule", "external", "override", "except",
                "enum", "record", "define", "const", "table", "limits", "invariant", "example", "card", "theme")
# Other keywords.
KEYWORDS = ("extends", "version", "with", "at", "has", "checks", "when", "otherwise", "unless", "most", "title",
            "let", "expect", "text", "note", "if", "then", "else", "for", "where", "ordered", "cyclic", "of", "in",
            "show", "size", "columns", "says", "requires", "illustrative")
OPERATOR_WORDS = ("and", "or", "not")
CONSTANTS = ("true", "false")
TYPES = ("bool", "int", "number", "text", "list", "set")

_RULENUM = r"\d+(?:\.[0-9A-Za-z]+)*"


class RulesLexer(RegexLexer):  # type: ignore[misc]
    """The rulec rules language (`.rules` files)."""

    name = "rulec"
    aliases = ["rulec", "rules"]
    filenames = ["*.rules"]
    mimetypes = ["text/x-rulec"]
    url = "https://example.invalid/rulec"  # none published; Pygments asks for one

    tokens = {
        "root": [
            (r"(\n[ \t]*)(-)([ \t]+)([A-Za-z][A-Za-z0-9_]*)",  # a list value: - combat "Combat"
             bygroups(Whitespace, Punctuation, Whitespace, Name.Constant)),
            (r"\s+", Whitespace),
            (r"#[^\n]*", Comment.Single),
            (r'"""(?:[^"\\]|\\.|"(?!""))*"""', String.Double),
            (r'"(?:[^"\\\n]|\\.)*"', String.Double),
            (r"text-only\b", Keyword.Pseudo),
            (r"not[ \t]+in\b", Operator.Word),
            # a rule number is a label wherever a clause is named
            (r"\b(rule|external|override)(\s+)(" + _RULENUM + ")",
             bygroups(Keyword.Declaration, Whitespace, Name.Label)),
            (r"(see)\b", Keyword, "refs"),
            (r"(by)\b", Keyword, "cited"),
            # `note game "..."`: the note's kind is not a declaration
            (r"(note)([ \t]+)([A-Za-z][A-Za-z0-9_]*)(?=[ \t]+\")", bygroups(Keyword, Whitespace, Name.Attribute)),
            # `text` is a type after `:`, `->` or `of`, and the keyword of a clause's text elsewhere (`text "..."`)
            (r"(:)([ \t]*)(text)\b", bygroups(Punctuation, Whitespace, Keyword.Type)),
            (r"(->)([ \t]*)(text)\b", bygroups(Operator, Whitespace, Keyword.Type)),
            (r"\b(of)([ \t]*)(text)\b", bygroups(Keyword, Whitespace, Keyword.Type)),
            (r"text(?=[ \t]+\")", Keyword),
            (words(DECLARATIONS, suffix=r"\b"), Keyword.Declaration),
            (words(TYPES, suffix=r"\b"), Keyword.Type),
            (words(OPERATOR_WORDS, suffix=r"\b"), Operator.Word),
            (words(CONSTANTS, suffix=r"\b"), Keyword.Constant),
            (words(KEYWORDS, suffix=r"\b"), Keyword),
            (r"\d+\.\d*[A-Za-z][0-9A-Za-z.]*|\d+(?:\.\d+){2,}", Name.Label),  # 4.5a, 3.F.1.a, 10.06.01
            (r"\d+(?:\.\d+)?", Number),
            (r"[A-Za-z][A-Za-z0-9_]*(?=\s*\()", Name.Function),
            (r"[A-Za-z][A-Za-z0-9_]*", Name),
            (r"==|!=|<=|>=|=>|->|[<>=+\-*/]", Operator),
            (r"[{}()\[\],.:;]", Punctuation),
        ],
        "refs": [  # see 4.5b, 14.2a
            (r"[ \t]+", Whitespace),
            (_RULENUM, Name.Label),
            (r"(,)", Punctuation),
            (r"[A-Za-z][A-Za-z0-9_]*(?![\w(])", Name.Constant),
            default("#pop"),
        ],
        "cited": [  # by DAK 4.5a F, 4.5b
            (r"[ \t]+", Whitespace),
            (_RULENUM, Name.Label),
            (r",", Punctuation),
            (r"[A-Za-z][A-Za-z0-9_]*", Name.Constant),
            default("#pop"),
        ],
    }


def highlight_html(text: str) -> str:
    """The text as highlighted HTML (`<div class="highlight">`), with Pygments' default classes."""
    from pygments import highlight  # type: ignore[import-untyped]
    from pygments.formatters import HtmlFormatter  # type: ignore[import-untyped]

    result: str = highlight(text, RulesLexer(), HtmlFormatter())
    return result
