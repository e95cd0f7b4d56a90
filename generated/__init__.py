"""Compiled checkers, one extension module per bundled spec (generated/<variant>.pyx)."""
