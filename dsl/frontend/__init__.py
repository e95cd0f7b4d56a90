"""The front end: spec text -> parse tree -> AST -> resolved, checked IR (frozen dataclasses with source positions).

source (positions and diagnostics) -> parser (Lark grammar, AST) -> resolve, which runs in order: extends
(parents and imports merged), declarations (tiles, tile sets, melds, shapes, context, options), expressions
(names bound in their scopes, with typecheck, and arithmetic's bounds on numbers), fans (values, exclusions,
scoring order), settlement, presets (named rule sets of option values), bounds (the work a case may take),
examples, resolve_rounds (round rules and worked rounds); lint warns about a resolved spec. builtin_names holds
the language's own names. -> ir, the one contract every back end reads; arithmetic, the exact and bounded
arithmetic of expressions, is shared with the interpreter. It imports no back end.
"""
