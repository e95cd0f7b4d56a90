"""The compiled back end: the IR as a Cython checker module (codegen and its templates), compiled
(extensions), and found or built on demand (checkers).
"""
