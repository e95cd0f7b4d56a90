"""The rule books: Markdown and HTML from the IR (docs and its templates), the prose of rules, figures,
the differences between two variants, and the spec's worked examples run as they are printed.
"""
