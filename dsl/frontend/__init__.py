"""The front end: spec text -> parse tree -> AST -> resolved, checked IR (frozen dataclasses with source positions).

source (positions and diagnostics) -> parser (Lark grammar, AST) -> resolve (names, extends, tile sets,
exclusions; resolve_rounds for round rules) with typecheck -> ir, the one contract every back end reads.
It imports no back end.
"""
