"""Synthetic rules trees for the compile-speed figures: N clauses in the mix a real series has.

A series (SYN) of chapters, 50 clauses a file, and a game (SYG) that extends it and overrides
some of them. Of every 20 clauses: 6 rules of text with notes and cross-references, 3 text-only
clauses, 3 predicates (define + worked example), 3 tables of 3 to 4 rows (+ example), 1 limits
group (+ example), 2 constants with a definition that uses them, and 2 aggregates over a hex
(+ example). The game overrides one clause in 25 (table rows, constants, limits, titles) and adds
its own clauses. Everything is deterministic in (clauses, seed) and compiles without a mistake.
"""

from __future__ import annotations

import random
from pathlib import Path

PER_FILE = 50

_HEADER = '''series SYN "Synthetic Series" version "1.0"

enum Mode "Mode" {
  - combat "Combat"
  - move "Move"
  - reserve "Reserve"
  - strat "Strat"
}

external 0.1 "Unit Types" at "../0-0-units/" {
  enum Kind "Unit type" {
    has combat: bool = false "A combat unit"
    has cost: number = 1 "What it costs"
    - infantry "Infantry" combat
    - armor "Armor" combat cost = 2
    - artillery "Artillery" combat cost = 1.5
    - hq "HQ" combat cost = 0.5
    - supply "Supply"
    - port "Port"
  }
}

enum Size "Size" {
  - company "Company"
  - battalion "Battalion"
  - regiment "Regiment"
  - division "Division"
}

record Unit "A unit" {
  kind: Kind = infantry "What it is"
  size: Size = regiment "Its size"
  mode: Mode = combat "Its mode"
  strength: number = 1 "Its strength"
  steps: int = 1 "Its steps"
  supplied: bool = true "In supply"
  moved: bool = false "Has moved"
}

record Hex "A hex" {
  units: list of Unit = [] "The units in it"
  night: bool = false "A night turn"
}
'''

_WORDS = ("unit hex supply mode combat move reserve strat stack limit phase turn range river road town "
          "city attack defend retreat advance barrage air naval rail truck leg track marker").split()


def _sentence(rng: random.Random, words: int) -> str:
    text = " ".join(rng.choice(_WORDS) for _ in range(words))
    return text[0].upper() + text[1:] + "."


def _text(rng: random.Random) -> str:
    return " ".join(_sentence(rng, rng.randint(8, 20)) for _ in range(rng.randint(2, 5)))


def _cond(rng: random.Random, var: str = "u", mode: bool = True) -> str:
    options = [f"{var}.mode == {rng.choice(['combat', 'move', 'reserve', 'strat'])}"] if mode else []
    options += [f"{var}.kind == {rng.choice(['infantry', 'armor', 'artillery', 'hq'])}",
               f"{var}.size == {rng.choice(['company', 'battalion', 'regiment', 'division'])}",
               f"{var}.supplied", f"not {var}.moved", f"{var}.kind.combat",
               f"{var}.strength >= {rng.randint(1, 6)}", f"{var}.steps > {rng.randint(0, 2)}"]
    return " and ".join(rng.sample(options, rng.randint(1, 2)))


def _clause(rng: random.Random, chapter: int, i: int, index: int) -> tuple[str, str | None]:
    """One clause; and, for a clause the game may override, the override line."""
    num = f"{chapter}.{i}"
    title = _sentence(rng, rng.randint(2, 4)).rstrip(".")
    kind = index % 20
    see = f"\n  see {chapter}.{rng.randint(1, i - 1)}" if i > 1 else ""
    n = index
    if kind < 6:
        return (f'rule {num} "{title}" {{\n  text "{_text(rng)}"\n  note design "{_text(rng)}"{see}\n}}\n', None)
    if kind < 9:
        return (f'rule {num} "{title}" text-only {{\n  text "{_text(rng)}"\n}}\n',
                f'override {num}: title "{title} (game)"')
    if kind < 12:
        return (f'rule {num} "{title}" {{\n  text "{_text(rng)}"\n'
                f'  define p{n}(u: Unit) -> bool "{title}" = {_cond(rng)} or u.mode == combat\n'
                f'  example "Combat Mode" {{\n    expect p{n}(Unit {{ mode: combat }})\n'
                f'    expect p{n}(Unit {{ mode: combat, moved: true }})\n  }}\n}}\n', None)
    if kind < 15:
        rows = rng.randint(2, 3)
        modes = ["combat", "move", "reserve"]  # one mode a row: no row can shadow another
        body = "".join(f'    r{j}: when u.mode == {modes[j]} and {_cond(rng, mode=False)} => '
                       f'{rng.choice(["1/4", "1/2", "2", "3", "u.strength"])} "Row {j}"\n' for j in range(rows))
        return (f'rule {num} "{title}" {{\n  text "{_text(rng)}"\n'
                f'  table t{n}(u: Unit) -> number "{title}" {{\n{body}    other: otherwise => 1 "Others"\n  }}\n'
                f'  example "A default unit" {{\n'
                f'    expect t{n}(Unit {{ mode: strat, kind: supply }}) == 1\n  }}\n}}\n',
                f'override {num} t{n}.r0: 5/4 title "Row 0 (game)"')
    if kind < 16:
        return (f'rule {num} "{title}" {{\n  text "{_text(rng)}"\n'
                f'  limits l{n}(h: Hex) "{title}" {{\n    unless h.night "Not at night."\n'
                f'    combat "Combat units": sum(u.kind.cost for u in h.units where u.kind.combat) at most'
                f' {rng.randint(4, 12)}\n'
                f'    ports "Ports": count(u for u in h.units where u.kind == port) at most 1\n  }}\n'
                f'  example "An empty hex" {{\n    expect len(l{n}(Hex {{ units: [] }})) == 0\n  }}\n}}\n',
                f"override {num} l{n}.combat: at most {rng.randint(13, 20)}")
    if kind < 18:
        value = rng.randint(1, 9)
        return (f'rule {num} "{title}" {{\n  text "{_text(rng)}"\n  const c{n} "{title}" = {value}\n'
                f'  define q{n}(u: Unit) -> number "{title}" = u.strength * c{n} + u.kind.cost\n'
                f'  example "No strength, the cost alone" {{\n    expect q{n}(Unit {{ strength: 0 }}) == 1\n'
                f'  }}\n}}\n', f"override {num} c{n}: {value + 1}")
    return (f'rule {num} "{title}" {{\n  text "{_text(rng)}"\n'
            f'  define a{n}(h: Hex) -> bool "{title}" = any({_cond(rng)} for u in h.units)\n'
            f'  define s{n}(h: Hex) -> number "{title}" = sum(u.strength for u in h.units where u.kind.combat)\n'
            f'  example "Nobody there" {{\n    expect not a{n}(Hex {{ units: [] }})\n'
            f'    expect s{n}(Hex {{ units: [Unit {{ strength: 2 }}, Unit {{ kind: port }}] }}) == 2\n  }}\n}}\n',
            None)


def generate(clauses: int, seed: int = 0) -> dict[str, str]:
    """The tree: relative path -> text. The game holds 1 clause in 50 of its own (in the count)."""
    rng = random.Random(seed)
    own = max(1, clauses // 50)
    files: dict[str, str] = {"syn/series.rules": _HEADER}
    overrides: list[str] = []
    index = 0
    chapter = 0
    while index < clauses - own:
        chapter += 1
        parts = ["in SYN\n"]
        for i in range(1, PER_FILE + 1):
            if index >= clauses - own:
                break
            text, override = _clause(rng, chapter, i, index)
            parts.append(text)
            if override is not None and rng.random() < 0.04 * 20 / 8:  # 1 in 25 clauses overall
                overrides.append(override)
            index += 1
        files[f"syn/ch{chapter:04d}.rules"] = "\n".join(parts)
    items = [o + "\n" for o in overrides]
    items += [f'rule {chapter + 1000}.{i} "Game rule {i}" {{\n  text "{_text(rng)}"\n}}\n' for i in range(1, own + 1)]
    files["syg/game.rules"] = 'game SYG "Synthetic Game" extends SYN version "1"\n'
    for part in range(0, len(items), PER_FILE):  # the game's overrides and rules, 50 to a file
        files[f"syg/part{part // PER_FILE + 1:04d}.rules"] = "in SYG\n\n" + "\n".join(items[part:part + PER_FILE])
    return files


def write(tree: dict[str, str], root: Path) -> Path:
    """Write the tree under root/rules; returns that folder."""
    rules = root / "rules"
    for rel, text in tree.items():
        path = rules / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return rules


def count_clauses(tree: dict[str, str]) -> int:
    return sum(text.count("\nrule ") + text.startswith("rule ") for text in tree.values())
