"""rulec: board-wargame rules as data, compiled into check functions, rule sheets and a JSON IR.

The pipeline, one module a stage: parser (text -> ast) -> lower/checker/exprs
(names, types, layers) -> resolver (a ruleset's model, the IR) -> analysis
(enumeration, examples) -> emitters (ir, ...) -> build (atomic writes) -> cli.
"""

__version__ = "0.1.0"
