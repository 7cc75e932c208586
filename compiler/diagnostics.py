"""Source spans and the one Diagnostic type every stage reports with."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Span:
    """A place in a rules file: 1-based line and column, end exclusive."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


NOWHERE = Span("<rulec>", 1, 1, 1, 1)

# Stable codes.  Tests hold one fixture per code; never reuse a retired code.
CODES: dict[str, str] = {
    "R001": "syntax error: unexpected token",
    "R002": "syntax error: unexpected character",
    "R003": "syntax error: unexpected end of file",
    "R004": "file cannot be read",
    "R005": "input too large",
    "R006": "number too long",
    "R007": "too many items",
    "R008": "nesting too deep",
    "R101": "unknown name",
    "R102": "unknown rule reference",
    "R103": "duplicate rule number",
    "R104": "duplicate name",
    "R105": "override of something that does not exist",
    "R106": "two overrides of one thing in one layer",
    "R107": "unknown or misplaced layer",
    "R108": "cyclic layers",
    "R109": "cyclic definitions",
    "R110": "change that does not fit its target",
    "R111": "invalid ruleset",
    "R112": "unknown note kind",
    "R113": "unsafe link",
    "R115": "row override that keeps the series' title",
    "R116": "link to an anchor its page does not have",
    "R117": "cited declaration outside every numbered clause",
    "R118": "extends a version of a layer other than the one found",
    "R119": "mistake in rulec.toml",
    "R120": "card that shows what is not there, or of an unknown size",
    "R121": "card content that does not fit its card",
    "R122": "theme that could load from outside it, or is not there",
    "R201": "type mismatch",
    "R202": "wrong number of arguments",
    "R203": "unknown field or attribute",
    "R204": "ambiguous name",
    "R205": "not a constant",
    "R206": "missing field",
    "R301": "table row that can never match",
    "R302": "case no table row covers",
    "R303": "contradictory clauses",
    "R304": "table condition not decided",
    "R305": "value that cannot be computed",
    "R306": "table row whose condition cannot be worked out for some input",
    "R307": "table row whose value cannot be worked out for some input that reaches it (a warning)",
    "R308": "definition whose value cannot be worked out for some input it answers (a warning)",
    "R401": "example failed",
    "R402": "example could not be evaluated",
    "R403": "rule no example exercises",
    "R900": "the generated module and the reference interpreter disagree (a bug in rulec)",
}


@dataclass(frozen=True, order=True)
class Diagnostic:
    span: Span
    code: str
    message: str
    severity: str = "error"  # error | warning
    hint: str | None = None

    def render(self, sources: Mapping[str, str]) -> str:
        """`file:line:col: error R101: message`, the source line, a caret, the hint."""
        head = f"{self.span}: {self.severity} {self.code}: {self.message}"
        lines = [head]
        text = sources.get(self.span.file)
        if text is not None:
            src_lines = text.split("\n")  # lines as the parser counts them (not at \f, \x1c or \u2028)
            if 1 <= self.span.line <= len(src_lines):
                # a control character or bidi mark in the file is shown as \ufffd, never sent to the terminal
                src = "".join(c if c.isprintable() or c == "\t" else "\ufffd"
                              for c in src_lines[self.span.line - 1].removesuffix("\r")).expandtabs(1)
                width = 1
                if self.span.end_line == self.span.line and self.span.end_col > self.span.col:
                    width = self.span.end_col - self.span.col
                col = self.span.col
                if len(src) > SHOWN_LINE:  # a long line is shown around the place, never whole
                    start = max(0, min(col - 1 - SHOWN_LINE // 3, len(src) - SHOWN_LINE))
                    end = start + SHOWN_LINE
                    src = ("…" if start else "") + src[start:end] + ("…" if end < len(src) else "")
                    col = col - start + (1 if start else 0)
                width = max(1, min(width, len(src) - col + 1))
                gutter = f"{self.span.line:>5} | "
                lines.append(gutter + src)
                lines.append(" " * (len(gutter) + col - 1) + "^" * width)
        if self.hint:
            lines.append(f"      = hint: {self.hint}")
        return "\n".join(lines)


SHOWN_LINE = 200  # characters of a source line a diagnostic shows (a longer one: those around the place)


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A hint naming the closest candidate, or None."""
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


def has_errors(diags: Iterable[Diagnostic]) -> bool:
    return any(d.severity == "error" for d in diags)


def unique_sorted(diags: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics in file order, each once (analysis runs per ruleset may repeat one)."""
    return sorted(set(diags))
