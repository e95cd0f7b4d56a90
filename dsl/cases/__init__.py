"""Cases: reading and validating a case (a hand and its context) against a spec's IR, refusing impossible
ones, the size limits of input, and random cases for tests and benchmarks. The only Python the compiled
runtime imports.
"""
