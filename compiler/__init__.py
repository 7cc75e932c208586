"""rulec: board-wargame rules as data, compiled into check functions, rule sheets and a JSON IR.

The pipeline, one module a stage: parser (text -> ast) -> checker, with layercheck, scope
and exprs (every diagnostic: names, types, layers, overrides) -> lower (the checked program
as typed layers, rulec.model) -> resolver (a ruleset's typed model) -> ir (its JSON form)
-> analysis (tables and examples; crosscheck runs the examples on the generated module too)
-> emitters (ir, python, sheets) -> build (atomic writes) -> cli.
"""

__version__ = "0.1.0"
