"""The parser: each construct becomes the expected syntax-tree node, and syntax errors
are reported where they are, all of them, each with its own code."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from rulec import ast, limits
from rulec.diagnostics import Diagnostic, Span
from rulec.parser import parse, parse_query

PATH = "t.rules"


def parse_ok(text: str) -> ast.File:
    tree, diags = parse(text, PATH)
    assert diags == [], "\n".join(d.render({PATH: text}) for d in diags)
    assert tree is not None
    return tree


def errors(text: str) -> list[Diagnostic]:
    tree, diags = parse(text, PATH)
    assert tree is None, "a file with syntax errors gives no tree"
    assert diags, "a file that does not parse reports why"
    return diags


def where(d: Diagnostic) -> tuple[str, int, int]:
    return (d.code, d.span.line, d.span.col)


def sexp(e: Any) -> str:
    """An expression as an s-expression, to compare trees (the nodes compare by identity)."""
    if isinstance(e, ast.Number):
        return str(e.value)
    if isinstance(e, ast.Text):
        return repr(e.value)
    if isinstance(e, ast.Bool):
        return "true" if e.value else "false"
    if isinstance(e, ast.Name):
        return e.name
    if isinstance(e, ast.Field):
        return f"(. {sexp(e.of)} {e.name})"
    if isinstance(e, ast.Call):
        return f"({e.fn}{''.join(' ' + sexp(a) for a in e.args)})"
    if isinstance(e, ast.Op):
        return f"({e.op} {' '.join(sexp(a) for a in e.args)})"
    if isinstance(e, ast.If):
        return f"(if {sexp(e.cond)} {sexp(e.then)} {sexp(e.else_)})"
    if isinstance(e, ast.Comprehension):
        where_ = "" if e.where is None else f" where {sexp(e.where)}"
        return f"({e.fn} {sexp(e.body)} for {e.var} in {sexp(e.source)}{where_})"
    if isinstance(e, ast.RecordLit):
        return f"({e.record} {{{', '.join(f'{n}: {sexp(v)}' for n, v, _ in e.fields)}}})"
    if isinstance(e, ast.ListLit):
        return f"[{' '.join(sexp(i) for i in e.items)}]"
    if isinstance(e, ast.SetLit):
        return f"{{{' '.join(sexp(i) for i in e.items)}}}"
    raise TypeError(type(e).__name__)


def expr(source: str) -> str:
    """Parse `source` as the value of a const and give it as an s-expression."""
    tree = parse_ok(f'series S "S"\nconst x = {source}\n')
    const = tree.items[1]
    assert isinstance(const, ast.ConstDecl)
    return sexp(const.value)


# ---- layers and rulesets ---------------------------------------------------------------


def test_layer_headers_and_rulesets() -> None:
    tree = parse_ok(
        'series OCS "Operational Combat Series" version "4.3"\n'
        'game DAK "Deutsches Afrika Korps" extends OCS version "II"\n'
        'scenario crusader "Operation Crusader" extends DAK\n'
        'option fog_of_war "Fog of War" extends DAK\n'
        "in OCS\n"
        'ruleset dak_fow "DAK with Fog of War" = DAK with fog_of_war, other\n'
        'ruleset plain "Plain" = OCS\n'
    )
    series, game, scenario, option, in_layer, rs, plain = tree.items
    assert series == ast.LayerDecl("series", "OCS", "Operational Combat Series", None, "4.3", Span(PATH, 1, 1, 1, 53))
    assert (game.kind, game.name, game.parent, game.version) == ("game", "DAK", "OCS", "II")
    assert (scenario.kind, scenario.name, scenario.title, scenario.parent, scenario.version) == \
        ("scenario", "crusader", "Operation Crusader", "DAK", None)
    assert (option.kind, option.parent) == ("option", "DAK")
    assert in_layer == ast.InLayer("OCS", Span(PATH, 5, 1, 5, 7))
    assert isinstance(rs, ast.Ruleset)
    assert (rs.name, rs.title, rs.base, rs.options) == ("dak_fow", "DAK with Fog of War", "DAK",
                                                        ("fog_of_war", "other"))
    # each option keeps its own place, so a mistake in one is shown under that one
    assert [(s.line, s.col, s.end_col) for s in rs.option_spans] == [(6, 50, 60), (6, 62, 67)]
    assert isinstance(plain, ast.Ruleset) and plain.options == () and plain.option_spans == ()


# ---- clauses --------------------------------------------------------------------------------


def test_rule_with_text_notes_and_see() -> None:
    tree = parse_ok(
        'series S "S"\n'
        'rule 4.5a "Actions not allowed in an enemy ZOC" {\n'
        '  text "The following actions cannot be taken in an enemy ZOC."\n'
        '  note design "Quoted \\"as written\\"\\tand\\\\ escaped"\n'
        '  note "A note of no kind"\n'
        "  see 4.5b, 3.1a A\n"
        "}\n"
        'rule 4.9 "Fog of War" text-only {\n'
        "}\n"
        "rule 4.9a {\n"
        "}\n"
        'external 3.1a "Mobility Types" at "../3-0-units-and-markers/#31-ground-units"\n'
        'external 9.14 at "x"\n'
    )
    rule, fog, untitled, ext, ext2 = tree.items[1:]
    assert isinstance(rule, ast.Rule)
    assert (rule.number, rule.title, rule.text_only) == ("4.5a", "Actions not allowed in an enemy ZOC", False)
    assert rule.texts == ("The following actions cannot be taken in an enemy ZOC.",)
    assert [(n.kind, n.text) for n in rule.notes] == [("design", 'Quoted "as written"\tand\\ escaped'),
                                                      (None, "A note of no kind")]
    assert [(r.number, r.item) for r in rule.see] == [("4.5b", None), ("3.1a", "A")]
    assert rule.span == Span(PATH, 2, 1, 7, 2)
    assert isinstance(fog, ast.Rule) and fog.text_only and fog.title == "Fog of War"
    assert isinstance(untitled, ast.Rule) and untitled.title is None and not untitled.text_only
    assert ext == ast.External("3.1a", "Mobility Types", "../3-0-units-and-markers/#31-ground-units",
                               Span(PATH, 12, 1, 12, 78))
    assert isinstance(ext2, ast.External) and ext2.title is None


def test_triple_quoted_text_is_dedented() -> None:
    tree = parse_ok(
        'series S "S"\n'
        "rule 4.6 {\n"
        '  text """\n'
        "    The concept of Regimental Equivalents.\n"
        "\n"
        '      * Battalions are "1/2" RE.\n'
        '    """\n'
        "}\n"
    )
    rule = tree.items[1]
    assert isinstance(rule, ast.Rule)
    assert rule.texts == ('The concept of Regimental Equivalents.\n\n  * Battalions are "1/2" RE.',)


def test_enum_with_attributes_settings_and_member_bodies() -> None:
    tree = parse_ok(
        'series S "S"\n'
        "ordered enum Level \"Supply level\" {\n"
        "  has negatable: bool = false \"<Negation>\"\n"
        "  has cost: number = -1\n"
        "  has label: text\n"
        '  - A "Truck Movement" negatable see 3.1a {\n'
        '      text "A unit with Truck MP."\n'
        '      note game "In DAK."\n'
        "      see 4.5b\n"
        "    }\n"
        "  - C not negatable cost = 2.5 label = \"rail\"\n"
        "  - K\n"
        "}\n"
    )
    enum = tree.items[1]
    assert isinstance(enum, ast.EnumDecl)
    assert (enum.name, enum.title, enum.ordered) == ("Level", "Supply level", True)
    negatable, cost, label = enum.attrs
    assert (negatable.name, negatable.type.kind, sexp(negatable.default), negatable.title) == \
        ("negatable", "bool", "false", "<Negation>")
    assert (cost.type.kind, cost.default.value) == ("number", Fraction(-1))  # type: ignore[union-attr]
    assert (label.type.kind, label.default, label.title) == ("text", None, None)
    a, c, k = enum.members
    assert (a.name, a.title) == ("A", "Truck Movement")
    assert [(s.name, sexp(s.value)) for s in a.settings] == [("negatable", "true")]
    assert [r.number for r in a.see] == ["3.1a", "4.5b"]  # the header's see, then the body's
    assert a.texts == ("A unit with Truck MP.",)
    assert [(n.kind, n.text) for n in a.notes] == [("game", "In DAK.")]
    assert [(s.name, sexp(s.value)) for s in c.settings] == [("negatable", "false"), ("cost", "5/2"),
                                                              ("label", "'rail'")]
    assert c.title is None
    assert (k.settings, k.see, k.texts, k.notes) == ((), (), (), ())


def test_record_fields_and_types() -> None:
    tree = parse_ok(
        'series S "S"\n'
        'record Hex "A hex" {\n'
        '  units: list of Unit = [] "The friendly units"\n'
        "  seen: set of list of int\n"
        "  mode: Mode = combat\n"
        "  off_map: bool = false\n"
        "  name: text\n"
        "  strength: number = 1/2\n"
        "}\n"
    )
    rec = tree.items[1]
    assert isinstance(rec, ast.RecordDecl) and (rec.name, rec.title) == ("Hex", "A hex")
    units, seen, mode, off_map, name, strength = rec.fields
    assert (units.type.kind, units.type.item.kind, units.type.item.name) == \
        ("list", "named", "Unit")  # type: ignore[union-attr]
    assert (sexp(units.default), units.title) == ("[]", "The friendly units")
    assert seen.type.kind == "set" and seen.type.item.kind == "list"  # type: ignore[union-attr]
    assert seen.default is None
    assert (mode.type.kind, mode.type.name, sexp(mode.default)) == ("named", "Mode", "combat")
    assert (off_map.type.kind, name.type.kind, sexp(strength.default)) == ("bool", "text", "(/ 1 2)")


def test_define_const_table_limits() -> None:
    tree = parse_ok(
        'series S "S"\n'
        "rule 4.6 {\n"
        '  define rounded(x: number) -> int "Rounded" = floor(x + 1/2)\n'
        "  define ten = 10\n"
        "  define allowed(a: EzocAction, negated: bool see 4.5b) = a.negatable and negated\n"
        '  const max_stack_re "The most RE" = 10\n'
        '  table re_size(u: Unit) -> number "RE size" {\n'
        '    battalion: when u.size == battalion => 1/2 "Battalions are 1/2 RE"\n'
        "    other: otherwise => 1\n"
        "  }\n"
        '  limits stacking(h: Hex) "Stacking limits" {\n'
        '    unless h.off_map "Off-map boxes"\n'
        '    ports "Ports": count(u for u in h.units where u.type == port) at most 1\n'
        "    combat_re: sum(re_size(u) for u in h.units) at most max_stack_re\n"
        "  }\n"
        "}\n"
    )
    rule = tree.items[1]
    assert isinstance(rule, ast.Rule)
    rounded, ten, allowed, const, table, limits = rule.decls
    assert isinstance(rounded, ast.DefineDecl)
    assert [(p.name, p.type.kind) for p in rounded.params or ()] == [("x", "number")]
    assert (rounded.returns.kind, rounded.title) == ("int", "Rounded")  # type: ignore[union-attr]
    assert sexp(rounded.body) == "(floor (+ x (/ 1 2)))"
    assert isinstance(ten, ast.DefineDecl) and ten.params is None and ten.returns is None
    assert isinstance(allowed, ast.DefineDecl)
    assert [(p.name, [r.number for r in p.see]) for p in allowed.params or ()] == [("a", []), ("negated", ["4.5b"])]
    assert isinstance(const, ast.ConstDecl) and (const.name, const.title, sexp(const.value)) == \
        ("max_stack_re", "The most RE", "10")
    assert isinstance(table, ast.TableDecl)
    assert (table.name, table.returns.kind, table.title) == ("re_size", "number", "RE size")
    battalion, other = table.rows
    assert (battalion.label, sexp(battalion.when), sexp(battalion.value), battalion.title) == \
        ("battalion", "(== (. u size) battalion)", "(/ 1 2)", "Battalions are 1/2 RE")
    assert (other.label, other.when, sexp(other.value), other.title) == ("other", None, "1", None)
    assert isinstance(limits, ast.LimitsDecl)
    assert [(u.title, sexp(u.cond)) for u in limits.unless] == [("Off-map boxes", "(. h off_map)")]
    ports, combat_re = limits.limits
    assert (ports.name, ports.title, sexp(ports.measure), sexp(ports.bound)) == \
        ("ports", "Ports", "(count u for u in (. h units) where (== (. u type) port))", "1")
    assert (combat_re.title, sexp(combat_re.bound)) == (None, "max_stack_re")


def test_excepts_in_a_rule_and_at_top_level() -> None:
    tree = parse_ok(
        'series S "S"\n'
        "rule 4.8a {\n"
        '  except stacking.combat_re when h.phase == reinforcement "Not in the Reinforcement Phase."\n'
        "}\n"
        "except re_size {\n"
        '  hq: when u.type == hq => 1 "An HQ is 1 RE"\n'
        "}\n"
        "except stacking when true\n"
    )
    rule, table_exc, limit_exc = tree.items[1:]
    assert isinstance(rule, ast.Rule)
    (exc,) = rule.excepts
    assert isinstance(exc, ast.ExceptLimit)
    assert (exc.target, sexp(exc.cond), exc.title) == \
        (("stacking", "combat_re"), "(== (. h phase) reinforcement)", "Not in the Reinforcement Phase.")
    assert type(exc.target) is tuple
    assert isinstance(table_exc, ast.ExceptTable) and table_exc.target == ("re_size",)
    assert [(r.label, sexp(r.value), r.title) for r in table_exc.rows] == [("hq", "1", "An HQ is 1 RE")]
    assert isinstance(limit_exc, ast.ExceptLimit) and limit_exc.target == ("stacking",) and limit_exc.title is None


def test_override_changes_of_every_kind() -> None:
    tree = parse_ok(
        'game DAK "D" extends OCS\n'
        "override 4.5a F: not negatable\n"
        '  note game "In either edition of DAK."\n'
        "override 4.5a A: negatable cost = 2\n"
        "override 4.6 re_size.battalion: when u.size == battalion => 1\n"
        "override 4.6 re_size.quarter: 1/4\n"
        "override 4.8 stacking.combat_re: at most 12\n"
        'override 4.8: title "Stacking in the desert" text "New text." see 4.8a\n'
    )
    f, a, row, value, bound, clause = tree.items[1:]
    assert isinstance(f, ast.Override)
    assert (f.number, f.target) == ("4.5a", ("F",))
    assert type(f.target) is tuple
    assert [(c.kind, sexp(c.expr) if c.expr else None) for c in f.changes] == [("value", "(not negatable)"),
                                                                               ("note", None)]
    assert f.changes[1].note == ast.Note("game", "In either edition of DAK.", Span(PATH, 3, 3, 3, 40))
    # where the number and the target are written, for diagnostics about them
    assert f.number_span == Span(PATH, 2, 10, 2, 14)
    assert f.target_span == Span(PATH, 2, 15, 2, 16)
    assert f.span == Span(PATH, 2, 1, 3, 40)
    assert isinstance(a, ast.Override)
    assert [(c.kind, c.name, sexp(c.expr)) for c in a.changes] == [("value", "", "negatable"), ("set", "cost", "2")]
    assert isinstance(row, ast.Override) and row.target == ("re_size", "battalion")
    assert row.target_span == Span(PATH, 5, 14, 5, 31)
    (ch,) = row.changes
    assert (ch.kind, sexp(ch.expr), sexp(ch.expr2)) == ("row", "(== (. u size) battalion)", "1")
    assert isinstance(value, ast.Override) and [c.kind for c in value.changes] == ["value"]
    assert isinstance(bound, ast.Override)
    assert [(c.kind, sexp(c.expr)) for c in bound.changes] == [("bound", "12")]
    assert isinstance(clause, ast.Override) and clause.target == () and clause.target_span is None
    title, text, see = clause.changes
    assert (title.kind, title.text) == ("title", "Stacking in the desert")
    assert (text.kind, text.text) == ("text", "New text.")
    assert (see.kind, [r.number for r in see.refs]) == ("see", ["4.8a"])


def test_examples_with_let_and_cited_rules() -> None:
    tree = parse_ok(
        'series S "S"\n'
        "rule 1.1 {\n"
        '  example "Port Operations" {\n'
        "    let h = Hex { units: [] }\n"
        "    expect not ezoc_allows(F, true) by DAK 4.5a F, 4.5b\n"
        "  }\n"
        "  example {\n"
        "  }\n"
        "}\n"
    )
    rule = tree.items[1]
    assert isinstance(rule, ast.Rule)
    ex, empty = rule.examples
    assert ex.title == "Port Operations" and empty.title is None and empty.steps == ()
    let, expect = ex.steps
    assert isinstance(let, ast.Let) and (let.name, sexp(let.value)) == ("h", "(Hex {units: []})")
    assert isinstance(expect, ast.Expect)
    assert sexp(expect.expr) == "(not (ezoc_allows F true))"
    assert [(r.layer, r.number, r.item) for r in expect.cited] == [("DAK", "4.5a", "F"), (None, "4.5b", None)]


def test_comments_are_ignored() -> None:
    tree = parse_ok('# a comment\nseries S "S"  # after an item\n# { not a brace\nconst x = 1 # the end\n')
    assert [type(i).__name__ for i in tree.items] == ["LayerDecl", "ConstDecl"]


# ---- expressions --------------------------------------------------------------------------------


@pytest.mark.parametrize("source, tree", [
    ("a or b and not c", "(or a (and b (not c)))"),
    ("not a and b", "(and (not a) b)"),
    ("not not a", "(not (not a))"),
    ("1 + 2 * 3 - 4 / 5", "(- (+ 1 (* 2 3)) (/ 4 5))"),
    ("(1 + 2) * 3", "(* (+ 1 2) 3)"),
    ("-x * 2", "(* (neg x) 2)"),
    ("1 - -1", "(- 1 (neg 1))"),
    ("a + 1 <= b * 2", "(<= (+ a 1) (* b 2))"),
    ("a == b", "(== a b)"),
    ("a != b", "(!= a b)"),
    ("a < b", "(< a b)"),
    ("a >= b", "(>= a b)"),
    ("u.mode in {strat, reserve}", "(in (. u mode) {strat reserve})"),
    ("u.mode not in {strat, reserve}", "(not in (. u mode) {strat reserve})"),
    ("u.mode not  in [strat]", "(not in (. u mode) [strat])"),
    ("not in_supply", "(not in_supply)"),
    ("if a then 1 else if b then 2 else 3", "(if a 1 (if b 2 3))"),
    ("u.type.combat", "(. (. u type) combat)"),
    ("f()", "(f)"),
    ("odds(attack / defense, 2)", "(odds (/ attack defense) 2)"),
    ("sum(re_size(u) for u in h.units where is_combat(u))",
     "(sum (re_size u) for u in (. h units) where (is_combat u))"),
    ("count(u for u in h.units)", "(count u for u in (. h units))"),
    ("Unit { mode: strat, strength: 0 }", "(Unit {mode: strat, strength: 0})"),
    ("Unit {}", "(Unit {})"),
    ("[1, 2.5, 1/4]", "[1 5/2 (/ 1 4)]"),
    ("[]", "[]"),
    ("{}", "{}"),
    ('"text"', "'text'"),
    ("true or false", "(or true false)"),
])
def test_expression_trees(source: str, tree: str) -> None:
    assert expr(source) == tree


def test_numbers_are_exact() -> None:
    tree = parse_ok('series S "S"\nconst x = 4.875\nconst y = 0.1\n')
    x, y = tree.items[1:]
    assert isinstance(x, ast.ConstDecl) and isinstance(x.value, ast.Number)
    assert x.value.value == Fraction(39, 8) and x.value.text == "4.875"
    assert isinstance(y, ast.ConstDecl) and isinstance(y.value, ast.Number)
    assert y.value.value == Fraction(1, 10)


def test_expression_spans() -> None:
    tree = parse_ok('series S "S"\nconst x = a +\n  b.c\n')
    const = tree.items[1]
    assert isinstance(const, ast.ConstDecl) and isinstance(const.value, ast.Op)
    assert const.value.span == Span(PATH, 2, 11, 3, 6)
    left, right = const.value.args
    assert left.span == Span(PATH, 2, 11, 2, 12)
    assert right.span == Span(PATH, 3, 3, 3, 6)


# ---- syntax errors ------------------------------------------------------------------------------------


def test_unexpected_token_is_located() -> None:
    (d,) = errors('series S "S"\n\nrule 4.1 "A" {\n  const x = = 2\n}\n')
    assert where(d) == ("R001", 4, 13)
    assert d.span.file == PATH
    assert d.message == "unexpected '=' in rule 4.1; expected an expression"
    assert str(d.span) == "t.rules:4:13"


def test_single_equals_in_a_comparison_hints_double() -> None:
    (d,) = errors('series S "S"\ndefine f(u: number) -> bool = u = 1\n')
    assert where(d) == ("R001", 2, 33)
    assert d.hint == "compare with '==' ('=' is only for settings)"
    # inside a rule, and after a call: the parser has taken `u.f(x)` as the whole body by then (a
    # definition's `requires` comes before its '=')
    (d,) = errors('series S "S"\nrule 1 "R" {\n  define f(u: number) -> bool "F" = abs(u) = 1\n}\n')
    assert d.hint == "compare with '==' ('=' is only for settings)"
    (d,) = errors('series S "S"\nconst x "T" says = 3\n')  # a phrase missing, not a comparison
    assert d.hint is None


def test_a_name_where_a_rule_number_belongs() -> None:
    (d,) = errors('series S "S"\nrule A.1 "A" {\n}\n')
    assert where(d) == ("R001", 2, 6)
    assert d.message == "unexpected 'A' in rule A.1; expected a rule number such as 4.5a"


def test_a_plain_number_is_a_rule_number_as_some_systems_print_them() -> None:
    tree, diags = parse('series S "S"\nrule 5 "Zones of Control" {\n}\n', PATH)
    assert diags == [] and tree is not None
    assert isinstance(tree.items[1], ast.Rule) and tree.items[1].number == "5"


def test_unexpected_name_and_quoted_text_are_named() -> None:
    (name,) = errors('series S "S"\nrule 4.1 "A" {\n  bogus x\n}\n')
    assert where(name) == ("R001", 3, 3)
    assert name.message.startswith("unexpected 'bogus' in rule 4.1; expected ")
    (text,) = errors('series S "S"\nconst x "A" "B" = 1\n')
    assert where(text) == ("R001", 2, 13)
    assert text.message.startswith("unexpected quoted text in const x; expected ")


def test_unterminated_brace_before_the_next_rule() -> None:
    diags = errors(
        'series S "S"\n'
        'rule 4.1 "A" {\n'
        "  const x = 2\n"
        "\n"
        'rule 4.2 "B" {\n'
        "  const y = 3\n"
        "}\n"
    )
    (d,) = diags
    # at the end of the rule that was never closed, not at the end of the file
    assert where(d) == ("R003", 3, 14)
    assert d.message.startswith("rule 4.1 ends too early; expected ")
    assert d.hint == "add the missing '}'"


def test_unterminated_brace_at_the_end_of_the_file() -> None:
    (d,) = errors('series S "S"\nrule 4.1 "A" {\n  const x = 2\n\n# trailing comment\n\n')
    assert d.code == "R003"
    assert (d.span.line, d.span.col) == (5, 19)
    assert d.hint == "add the missing '}'"


def test_a_text_that_ends_too_early_lacks_the_closer_of_its_innermost_open_bracket() -> None:
    (d,) = errors('series S "S" version "1"\n\nconst c "C" = max(1, 2\n')
    assert where(d) == ("R003", 3, 23)
    assert d.message.startswith("const c ends too early; expected ')', ")  # the one missing comes first
    assert d.hint == "add the missing ')'"
    # a bracket in a quoted text or a comment is not one the text leaves open
    (d,) = errors('series S "S"\nconst c = [max(1, "(" # {\n  , 2)\n')
    assert d.hint == "add the missing ']'"
    (d,) = errors('series S "S"\nrule 4.1 "A" {\n  const c = (1 + 2)\n')
    assert d.hint == "add the missing '}'"


@pytest.mark.parametrize(("query", "closer"), [("odds(15, 6", ")"), ("[1, (2", ")"), ("[1, 2", "]")])
def test_a_question_that_ends_too_early_lacks_the_closer_of_its_innermost_open_bracket(query: str,
                                                                                       closer: str) -> None:
    expr, (d,) = parse_query(query)
    assert expr is None and d.code == "R003"
    assert d.hint == f"add the missing '{closer}'"


def test_an_item_after_a_block_left_open_asks_for_the_missing_brace() -> None:
    (d,) = errors('series S "S" version "1"\n\nenum Mode "M" {\n  - a\n  - b\n\nconst k "K" = 1\n')
    assert where(d) == ("R001", 7, 9)  # `const k` is read as a member's setting, up to the "K"
    assert d.hint == "is a '}' missing before this line? the '{' on line 3 is still open here"
    (d,) = errors('series S "S"\ntable t(x: int) -> int {\n  a: when x > 1 => 2\n\nconst c = 3\n')
    assert where(d) == ("R001", 5, 1)
    assert d.hint == "is a '}' missing before this line? the '{' on line 2 is still open here"
    # an unindented const may be in a rule's body: a '}' before it would not mend this mistake
    (d,) = errors('series S "S"\nrule 4.1 "A" {\nconst x = = 2\n}\n')
    assert where(d) == ("R001", 3, 11) and d.hint is None


def test_an_unknown_word_between_items_is_not_said_to_be_inside_the_item_before() -> None:
    """`clause 1.1` after a record closed was reported 'in record Unit; expected '}', ...' (a newcomer
    took it for a brace missing in the record): it is between items, and the hint names the keyword."""
    text = 'series S "S" version "1"\n\nrecord Unit "A unit" {\n  sp: int = 1 "Strength"\n}\n\nclause 1.1 "M" {\n}\n'
    (d,) = errors(text)
    assert where(d) == ("R001", 7, 1)
    assert d.message.startswith("unexpected 'clause' between items; expected 'card', ")
    assert "'}'" not in d.message
    assert d.hint == 'did you mean \'rule\'? it is written rule 4.5a "Title" { ... }'
    (d,) = errors('series S "S"\nrule 1.1 "A" {\n  text "a"\n}\ndefne f() -> int = 1\n')
    assert d.message.startswith("unexpected 'defne' between items") and d.hint is not None
    assert d.hint.startswith("did you mean 'define'?")
    (d,) = errors('series S "S"\nrule 1.1 "A" {\n  text "a"\n}\nwhatever 3\n')
    assert d.hint == "each item starts with its keyword: rule, define, const, enum, record, table, override, ..."
    # inside a rule's braces an unindented word is still the rule's: a '}' may be what is missing
    (d,) = errors('series S "S"\nrule 1.1 "A" {\n  text "a"\nclause 1.2 "B" {\n}\n')
    assert "in rule 1.1" in d.message


def test_a_layer_header_and_an_override_title_written_out_of_order_get_their_shape() -> None:
    (d,) = errors('game G "Game" version "1" extends T\n')
    assert d.hint == ('a game names the layer it is over first, then its own version: '
                      'game NAME "Title" extends LAYER version "1"')
    (d,) = errors('series S "S"\nrule 1.1 "A" {\n  define f(h: Hex) -> int "F" = len([u.sp for u in h.units])\n}\n')
    assert d.hint is not None and d.hint.startswith("a list is written item by item ([5, 4])")
    (d,) = errors('game G "G" extends T\noverride 1.2 moves "Moves here": u.sp > 1\n')
    assert d.hint == 'a new title is one of the changes, after the colon: override 4.8 stacking: title "..."'


def test_every_mistake_in_an_item_is_reported_not_only_its_first() -> None:
    """Two mistakes in one rule were reported one run at a time (the rule was one item to the
    recovery): each mistake's line is now left out and the rule read again."""
    text = (
        'series T "T" version "1"\n'
        'record Unit "U" {\n  sp: int = 1 "Strength"\n}\n'
        'rule 1.1 "A" {\n'                                              # line 5
        '  define strong(u: Unit) -> bool "S" = u.sp > 3 && u.sp < 9\n'
        '  define weak(u: Unit) -> bool "W" = u.sp <= 1 || u.sp > 20\n'
        '  const k "K" = = 3\n'
        '  define long(u: Unit) -> bool "L" =\n'
        '    u.sp > 3 &&\n'                                              # line 10
        '    u.sp < 9\n'
        '}\n'
        'rule 1.2 "B" {\n  text "y" z\n}\n')
    diags = errors(text)
    assert [where(d) for d in diags] == [("R002", 6, 49), ("R002", 7, 48), ("R001", 8, 17), ("R002", 10, 14),
                                         ("R001", 14, 12)]
    assert [d.hint.split(" ")[1] for d in diags if d.code == "R002" and d.hint] == ["'and'", "'or'", "'and'"]
    # a line that leaves a bracket open is not left out: what follows it would be misread
    diags = errors('series T "T"\nrule 1.1 "A" {\n  define f(u: Unit -> int "F" = 1\n  const k "K" = = 3\n}\n')
    assert [where(d) for d in diags] == [("R001", 3, 20)]
    # nor is a mistake at the first word of a line reported after another: it may be the first's doing
    diags = errors('series T "T"\nrule 1.1 "A" {\n  define f() -> int "F" = 1 +\n  defne g() -> int = 2\n}\n')
    assert len(diags) == 1


def test_stray_character() -> None:
    (d,) = errors('series S "S"\nrule 4.1 "A" {\n  const x = 2 @ 3\n}\n')
    assert where(d) == ("R002", 3, 15)
    assert d.message == "unexpected character '@' in rule 4.1"
    assert d.hint is None


def test_quoted_text_left_open_on_its_line() -> None:
    (d,) = errors('series S "S"\nrule 4.1 "A {\n  const x = 2\n}\n')
    assert where(d) == ("R002", 2, 10)
    assert d.hint is not None and "close on the same line" in d.hint


def test_triple_quoted_text_never_closed() -> None:
    (d,) = errors('series S "S"\nrule 4.1 "A" {\n  text """ the start\n  and more\n}\n')
    assert where(d) == ("R002", 3, 8)  # at the opening """
    assert d.hint == 'this """ text is never closed; end it with """'


def test_bad_escape_points_at_the_backslash() -> None:
    (d,) = errors('series S "S"\nrule 4.1 "A" {\n  text "a \\q b"\n}\n')
    assert where(d) == ("R001", 3, 11)
    assert (d.span.end_line, d.span.end_col) == (3, 13)
    assert d.message == "unknown escape '\\q' in a quoted text"
    assert d.hint == 'write \\\\ for a backslash, \\" for a quote'


def test_bad_escape_inside_triple_quoted_text() -> None:
    (d,) = errors('series S "S"\nrule 4.1 {\n  text """\n    one\n    two \\d\n  """\n}\n')
    assert where(d) == ("R001", 5, 9)


def test_every_bad_escape_is_reported() -> None:
    diags = errors('series S "S"\nconst a = "\\q"\nconst b = "ok \\" \\\\ \\n \\t"\nconst c = "\\w"\n')
    assert [where(d) for d in diags] == [("R001", 2, 12), ("R001", 4, 12)]
    assert [d.message for d in diags] == ["unknown escape '\\q' in a quoted text",
                                          "unknown escape '\\w' in a quoted text"]


def test_several_syntax_errors_are_all_reported() -> None:
    diags = errors(
        'series S "S"\n'           # 1
        "\n"
        'rule 4.1 "A" {\n'         # 3
        "  const x = = 2\n"        # 4: unexpected '='
        "}\n"
        "\n"
        'rule 4.2 "B" {\n'         # 7
        "  const y = 2 $ 3\n"      # 8: stray character
        "}\n"
        "\n"
        'rule 4.3 "C" {\n'         # 11
        '  text "bad \\escape"\n'  # 12: bad escape in an item that parses
        "}\n"
        "\n"
        'rule 4.4 "D" {\n'         # 15
        "  const z = 1\n"          # 16: never closed
    )
    assert [where(d) for d in diags] == [("R001", 4, 13), ("R002", 8, 15), ("R001", 12, 13), ("R003", 16, 14)]


def test_unindented_rule_bodies_do_not_cause_extra_errors() -> None:
    # `const` and `define` at the start of a line inside a rule's braces continue the rule;
    # only the one real mistake is reported.
    diags = errors(
        'series S "S"\n'
        'rule 4.1 "A" {\n'
        "const x = 1\n"
        "define f = 2\n"
        "}\n"
        'rule 4.2 "B" {\n'
        "const y = 2 +\n"
        "}\n"
    )
    assert [where(d) for d in diags] == [("R001", 8, 1)]
    assert diags[0].message == "unexpected '}' in rule 4.2; expected an expression"


def test_keywords_in_texts_and_braces_in_comments_do_not_split_items() -> None:
    diags = errors(
        'series S "S"\n'
        'rule 4.1 "A" {\n'
        '  text """\n'
        "rule 9.9 looks like a rule but is text { {\n"
        '  """\n'
        '  text "a { brace" # and } { in a comment\n'
        "const x = 1\n"
        "}\n"
        "rule 4.2 {\n"
        "  const y = )\n"
        "}\n"
    )
    assert [where(d) for d in diags] == [("R001", 10, 13)]


def test_too_deeply_nested() -> None:
    text = 'series S "S"\nconst x = ' + "(" * 101 + "1" + ")" * 101 + "\n"
    (d,) = errors(text)
    assert where(d) == ("R005", 2, 111)
    assert d.message == f"brackets nested more than {limits.MAX_NESTING} deep"
    # one bracket less parses
    parse_ok('series S "S"\nconst x = ' + "(" * 100 + "1" + ")" * 100 + "\n")


def test_file_too_large() -> None:
    text = 'series S "S"\n' + "# filler\n" * (limits.MAX_FILE_BYTES // 9 + 1)
    assert len(text.encode()) > limits.MAX_FILE_BYTES
    (d,) = errors(text)
    assert where(d) == ("R005", 1, 1)
    assert d.message == f"file is larger than {limits.MAX_FILE_BYTES:,} bytes"


def test_an_empty_file_parses() -> None:
    assert parse_ok("").items == ()
    assert parse_ok("# only a comment\n\n").items == ()


# ---- how a diagnostic is shown --------------------------------------------------------------------


def test_render_shows_the_line_a_caret_and_the_hint() -> None:
    text = 'series S "S"\nrule 4.1 "A" {\n  const x = 2 @ 3\n}\n'
    (d,) = errors(text)
    assert d.render({PATH: text}) == (
        "t.rules:3:15: error R002: unexpected character '@' in rule 4.1\n"
        "    3 |   const x = 2 @ 3\n"
        "                      ^"
    )
    d2 = Diagnostic(Span(PATH, 3, 13, 3, 16), "R101", "unknown name", hint="did you mean 'y'?")
    assert d2.render({PATH: text}) == (
        "t.rules:3:13: error R101: unknown name\n"
        "    3 |   const x = 2 @ 3\n"
        "                    ^^^\n"
        "      = hint: did you mean 'y'?"
    )


def test_render_without_the_source_gives_the_head_line_only() -> None:
    d = Diagnostic(Span("gone.rules", 1, 1, 1, 1), "R004", "cannot read gone.rules", hint="h")
    assert d.render({}) == "gone.rules:1:1: error R004: cannot read gone.rules\n      = hint: h"
