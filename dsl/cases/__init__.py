"""Cases: reading and validating a case (a hand and its context) against a spec's IR, refusing impossible
ones, the size limits of input, the options a preset chooses for every case, and random cases for tests and
benchmarks. The only Python the compiled runtime imports.
"""
