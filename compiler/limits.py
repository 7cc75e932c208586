"""The input limits: how big a rules file, and its parts, may be.

Both parsing paths (compiler.parser, compiler.fastparse) read them, so they live apart from both.
"""

MAX_FILE_BYTES = 2_000_000
MAX_NESTING = 100
# Limits that keep every later stage (all of them recursive over the tree) clear of Python's
# recursion limit and of work that grows faster than the input.
MAX_DEPTH = 60        # levels of the syntax tree: an expression of about 50 operators
MAX_DIGITS = 100      # digits of one number
MAX_RULENUM = 24      # characters of one rule number (19.A.1.a): it names a page of the rule sheet
MAX_PARTS = 100_000   # parts of a file: clauses, declarations, rows, values, expressions (ch13: 2,900;
                      # the 100k-clause benchmark's game file: 22,000)
MAX_LIST = 1_000      # items of one list: values of an enum, rows, arguments, [a, b, ...]
