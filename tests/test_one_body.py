"""One body per check (issue #16, item 1): a check's fast function and its traced twin (the one its
explain_ function runs) are one rendering of the same code, the citation hooks compiled out of the
first and into the second. So `_t_X` with its hooks taken out must read as `_s_X` (or as X, where
the module has no scaled twin), statement by statement.

A statement of the fast function that a rewrite made unlike the rule (a small definition written
in place of its call, the tests of one list value folded into one set, the totals of a limits check
counted in one loop) says so: the comment above it quotes the rule's expression, `# rule: ...`. The
values of the two are compared on random states by tests/test_differential.py; this test holds
their shape.
"""

from __future__ import annotations

import ast
import copy
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MODULES = sorted((ROOT / "generated" / "python").glob("*.py"))
HOOKED = {"_attr", "_attr_yes", "_cite", "_cite_yes"}  # the hooks' helpers: f(_t, cites, ..., value)


class _Unhook(ast.NodeTransformer):
    """Traced code as the fast code reads: _t_f(x, _t) is the fast twin's call, _attr(_t, C, T, k)
    is T[k], _cite(_t, C, v) is v, and _t.extend(...) statements are gone."""

    def __init__(self, fast_name: dict[str, str]):
        self.fast_name = fast_name

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        fn = node.func.id if isinstance(node.func, ast.Name) else None
        if fn in ("_attr", "_attr_yes"):
            return ast.Subscript(node.args[2], node.args[3], ast.Load())
        if fn in ("_cite", "_cite_yes"):
            return node.args[2]
        if fn in self.fast_name:
            node.func = ast.Name(self.fast_name[fn], ast.Load())
            node.args = node.args[:-1]  # the _t it passes on
        return node

    def visit_Expr(self, node: ast.Expr) -> ast.AST | None:
        call = node.value
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and \
                isinstance(call.func.value, ast.Name) and call.func.value.id == "_t":
            return None
        return self.generic_visit(node)


def _fast_names(tree: ast.Module) -> dict[str, str]:
    defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    out = {}
    for name in defined:
        if name.startswith("_t_"):
            stem = name[3:]
            out[name] = f"_s_{stem}" if f"_s_{stem}" in defined else stem
    return out


def _statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements that compute: not the docstring, not a local read into a name (_u_type = u.type),
    which the fast code makes of a field it reads more than once."""
    out = []
    for s in body:
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
            continue
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
                and s.targets[0].id.startswith("_") and isinstance(s.value, ast.Attribute):
            continue
        out.append(s)
    return out


class _Reads(ast.NodeTransformer):
    """The fast code's locals of field reads put back as the reads (_u_type -> u.type)."""

    def __init__(self, reads: dict[str, ast.expr]):
        self.reads = reads

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return self.reads.get(node.id, node) if isinstance(node.ctx, ast.Load) else node


def _local_reads(fn: ast.FunctionDef) -> dict[str, ast.expr]:
    return {s.targets[0].id: s.value for s in ast.walk(fn) if isinstance(s, ast.Assign) and len(s.targets) == 1
            and isinstance(s.targets[0], ast.Name) and s.targets[0].id.startswith("_")
            and isinstance(s.value, ast.Attribute)}


def _rewritten_lines(source: list[str]) -> set[int]:
    """The (1-based) lines of statements a `# rule:` comment heads, the comment's own lines skipped."""
    marked = set()
    for n, line in enumerate(source, 1):
        if line.strip().startswith("# rule:"):
            k = n
            while k < len(source) and source[k].strip().startswith("#"):
                k += 1
            marked.add(k + 1)
    return marked


def _exact_only(body: list[ast.stmt], params: set[str]) -> list[ast.stmt]:
    """A public function that answers exact values itself (its rows once more: `return _Q_1_2`
    where the scaled twin returns 2): its arguments scaled for the conditions (`attack = attack *
    SCALE`) and its returns are its own; the conditions are compared."""
    out: list[ast.stmt] = []
    for s in body:
        if isinstance(s, ast.Return) or isinstance(s, ast.AnnAssign):
            continue
        if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name) \
                and (s.targets[0].id in params or s.targets[0].id == "_v" or s.targets[0].id.startswith("_as_")):
            continue
        if isinstance(s, ast.If):
            s = copy.copy(s)
            s.body, s.orelse = _exact_only(s.body, params), _exact_only(s.orelse, params)
        out.append(s)
    return out


def _differ(fast: list[ast.stmt], plain: list[ast.stmt], marked: set[int], where: str) -> list[str]:
    """The statements of fast that differ from the unhooked traced ones and carry no `# rule:`."""
    fast, plain = _statements(fast), _statements(plain)
    if len(fast) != len(plain):
        first = fast[0].lineno if fast else 0
        return [] if first in marked else [f"{where}: {len(fast)} statements against {len(plain)} (line {first})"]
    problems = []
    for f, p in zip(fast, plain, strict=True):
        if isinstance(f, ast.If) and isinstance(p, ast.If):
            if ast.dump(f.test) != ast.dump(p.test) and f.lineno not in marked:
                problems.append(f"{where}: line {f.lineno}: `if {ast.unparse(f.test)}` against `{ast.unparse(p.test)}`")
            problems += _differ(f.body, p.body, marked, where) + _differ(f.orelse, p.orelse, marked, where)
        elif ast.dump(f) != ast.dump(p) and f.lineno not in marked:
            problems.append(f"{where}: line {f.lineno}: `{ast.unparse(f)[:120]}` against `{ast.unparse(p)[:120]}`")
    return problems


def _problems(text: str) -> tuple[list[str], int, int]:
    """The statements that differ without a `# rule:`, how many checks read the same once
    unhooked, and how many are limits checks counted in one loop."""
    tree = ast.parse(text)
    source = text.splitlines()
    marked = _rewritten_lines(source)
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    twins = _fast_names(tree)
    problems: list[str] = []
    same = fused = 0
    for traced, fast in sorted(twins.items()):
        if fast not in functions:
            continue
        node = functions[fast]
        own = source[node.lineno - 1:node.end_lineno]
        if any(line.strip().startswith("# rule: the totals of") for line in own):
            fused += 1  # a limits check whose totals are counted in one loop, each quoted as the rule writes it
            continue
        plain = _Unhook(twins).visit(copy.deepcopy(functions[traced]))
        fast_fn = _Reads(_local_reads(node)).visit(copy.deepcopy(node))
        fast_body, plain_body = fast_fn.body, plain.body
        if "Numbers are exact" in " ".join((ast.get_docstring(node) or "").split()) and not fast.startswith("_"):
            params = {a.arg for a in node.args.args}
            fast_body, plain_body = _exact_only(fast_body, params), _exact_only(plain_body, params)
        found = _differ(fast_body, plain_body, marked, fast)
        problems += found
        same += not found
    return problems, same, fused


@pytest.mark.parametrize("path", MODULES, ids=[p.stem for p in MODULES])
def test_the_fast_body_is_the_traced_body_without_its_hooks(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    problems, same, fused = _problems(text)
    assert not problems, f"{len(problems)} statements differ without a `# rule:` comment:\n" + "\n".join(problems[:40])
    checks = text.count("\ndef _t_")
    assert checks and same + fused >= checks * 0.8, f"{same} + {fused} of {checks} checks compared: it lost its grip"


SYNTHETIC = """
def _t_is_big(u, _t):
    _t.extend(_RULES_4_6)
    return _attr_yes(_t, _CITES_big, UnitType_big, u.type)


def is_big(u):
    {note}return {fast}


def _t_fits(u, _t):
    if _t_is_big(u, _t):
        _t.extend(_RULES_4_8)
        return False
    return True


def fits(u):
    _u_type = u.type
    if is_big(u):
        return False
    return True
"""


def test_a_fast_body_unlike_its_traced_twin_is_found_unless_it_quotes_the_rule() -> None:
    assert _problems(SYNTHETIC.format(note="", fast="UnitType_big[u.type]")) == ([], 2, 0)
    problems, _, _ = _problems(SYNTHETIC.format(note="", fast="u.type == 'tank'"))
    assert len(problems) == 1 and "is_big: line 8" in problems[0]
    quoted = SYNTHETIC.format(note="# rule: u.type == tank\n    ", fast="u.type == 'tank'")
    assert _problems(quoted) == ([], 2, 0)
