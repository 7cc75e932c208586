"""compiler/wrap.py: long lines of the generated modules broken without changing what they mean.

The modules are compared before and after wrapping as syntax trees (docstrings compared word by
word, as their text is re-filled), for the shipped rules and for generated programs; every line
of generated/python is within the width, and wrapping twice changes nothing.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rulec import emit_python
from rulec.build import compile_sources
from rulec.wrap import WIDTH, data_literal, wrap_line, wrap_module
from tests import progen

ROOT = Path(__file__).resolve().parent.parent


def _tree(source: str) -> str:
    """The module's syntax tree, with each docstring's words joined by single spaces."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                first.value.value = " ".join(first.value.value.split())
    return ast.dump(tree)


def _unwrapped(model: object, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """A model's module as emitted without and with the wrapping."""
    wrapped = emit_python.ModuleEmitter(model).run()  # type: ignore[arg-type]
    with monkeypatch.context() as patch:
        patch.setattr(emit_python, "wrap_module", lambda text: text)
        plain = emit_python.ModuleEmitter(model).run()  # type: ignore[arg-type]
    return plain, wrapped


@pytest.mark.parametrize("ruleset", ["OCS", "DAK", "DAK_fog", "ZCS", "ACW"])
def test_wrapping_the_shipped_modules_keeps_their_code(shipped, monkeypatch: pytest.MonkeyPatch,
                                                       ruleset: str) -> None:
    plain, wrapped = _unwrapped(shipped.models[ruleset], monkeypatch)
    assert any(len(line) > WIDTH for line in plain.splitlines()), "nothing to wrap: the test proves nothing"
    assert _tree(plain) == _tree(wrapped)
    assert [line for line in wrapped.splitlines() if len(line) > WIDTH] == []
    assert wrap_module(wrapped) == wrapped


@pytest.mark.parametrize("index", range(12))
def test_wrapping_generated_programs_keeps_their_code(index: int, monkeypatch: pytest.MonkeyPatch) -> None:
    result = compile_sources(progen.generate(7, index).files())
    for model in result.models.values():
        plain, wrapped = _unwrapped(model, monkeypatch)
        assert _tree(plain) == _tree(wrapped)
        assert wrap_module(wrapped) == wrapped


@pytest.mark.parametrize("folder", progen.fixtures(), ids=lambda f: f.name)
def test_wrapping_the_programs_that_found_bugs_keeps_their_code(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.rules"))}
    for model in compile_sources(files).models.values():
        plain, wrapped = _unwrapped(model, monkeypatch)
        assert _tree(plain) == _tree(wrapped)


def test_the_committed_modules_are_within_the_width() -> None:
    for path in sorted((ROOT / "generated" / "python").glob("*.py")):
        long = [n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if len(line) > WIDTH]
        assert long == [], f"{path.name}: lines {long[:10]} are longer than {WIDTH}"


def _same(source: str, width: int = 40, body: str = "") -> list[str]:
    """The line wrapped, checked to parse (followed by a body, for a def or an if) as it did."""
    lines = wrap_line(source, width)
    assert ast.dump(ast.parse("\n".join(lines) + body)) == ast.dump(ast.parse(source + body)), "\n".join(lines)
    return lines


def test_a_call_is_split_at_its_last_brackets_one_argument_a_line() -> None:
    assert _same("x = f(alpha, beta)(gamma_gamma, delta_delta, epsilon)") == [
        "x = f(alpha, beta)(",
        "    gamma_gamma, delta_delta, epsilon",
        ")",
    ]
    assert _same("x = ffff(alpha_alpha, beta_beta, gamma_gamma, delta)") == [
        "x = ffff(",
        "    alpha_alpha,",
        "    beta_beta,",
        "    gamma_gamma,",
        "    delta,",
        ")",
    ]


def test_a_signature_is_split_at_its_parameters_not_at_its_return_type() -> None:
    lines = _same("def explain_it(alpha_alpha: int, beta_beta: Unit) -> Answer[bool]:", 40, "\n    pass")
    assert lines[0] == "def explain_it("
    assert lines[-1] == ") -> Answer[bool]:"


def test_an_expression_without_brackets_gets_a_pair_split_at_its_weakest_operator() -> None:
    assert _same("return alpha and beta_beta or gamma and delta_delta") == [
        "return (",
        "    alpha and beta_beta",
        "    or gamma and delta_delta",
        ")",
    ]
    assert _same("if alpha_alpha and beta_beta and gamma:", 30, "\n    pass") == [
        "if (",
        "    alpha_alpha",
        "    and beta_beta",
        "    and gamma",
        "):",
    ]


def test_tighter_operators_split_inside_brackets_of_their_own() -> None:
    lines = _same("return (alpha_alpha and beta_beta_beta or gamma)", 30)
    assert lines == [
        "return (",
        "    (",
        "        alpha_alpha",
        "        and beta_beta_beta",
        "    )",
        "    or gamma",
        ")",
    ]


def test_a_generator_keeps_its_for_and_its_if_and_a_conditional_its_else() -> None:
    lines = _same("y = any(uuu.kind for uuu in units_units if uuu.kind_kind_kind or uuu.other_other)", 40)
    assert "    for uuu in units_units" in lines
    assert any(line.strip() == "if (" for line in lines)
    lines = _same("return aaaa_aaaa if bbbb_bbbb else cccc_cccc", 30)
    assert lines == ["return (", "    aaaa_aaaa", "    if bbbb_bbbb", "    else cccc_cccc", ")"]


def test_strings_are_not_cut_where_they_hold_brackets_commas_or_hashes() -> None:
    lines = _same("x = f('a, (b] #c', 'and d or e', gamma_gamma_gamma)", 30)
    assert "    'a, (b] #c'," in lines
    assert "    'and d or e'," in lines


def test_a_long_string_alone_becomes_literals_python_joins() -> None:
    source = "    title='" + "word " * 30 + "end',"
    lines = wrap_line(source, 60)
    assert lines[0] == "    title=("
    assert lines[-1] == "    ),"
    assert ast.literal_eval("(" + "".join(line.strip() for line in lines[1:-1]) + ")") == "word " * 30 + "end"


def test_comments_and_docstrings_are_refilled_and_a_trailing_comment_left_alone() -> None:
    assert wrap_line("    # " + "word " * 20, 40) == ["    # word word word word word word word",
                                                    "    # word word word word word word word",
                                                    "    # word word word word word word"]
    doc = wrap_line('    """' + "word " * 12 + 'end."""', 40)
    assert doc[0].startswith('    """word') and doc[-1] == '    """'
    assert " ".join(ast.literal_eval("\n".join(line.strip() for line in doc)).split()) == ("word " * 12 + "end.")
    commented = "x = f(alpha_alpha, beta_beta, gamma_gamma)  # keep"
    assert wrap_line(commented, 30) == [commented]


def test_data_is_written_on_one_line_where_it_fits_and_big_powers_of_ten_by_their_exponent() -> None:
    assert data_literal({"b": [1, 2], "a": None}) == "{'a': None, 'b': [1, 2]}"
    text = data_literal({"limit": 10 ** 1200, "words": ["x" * 30, "y" * 30]}, width=44)
    assert "10 ** 1200" in text
    assert eval(text) == {"limit": 10 ** 1200, "words": ["x" * 30, "y" * 30]}  # noqa: S307
    assert max(len(line) for line in text.splitlines()) <= 44


def test_a_generator_whose_item_is_a_conditional_keeps_the_conditional_whole() -> None:
    lines = _same("return _first(aaaa_aaaa if cond_cond else bbbb_bbbb for zzz in things if all_all(zzz))", 30)
    assert "    for zzz in things" in lines and "    if all_all(zzz)" in lines
