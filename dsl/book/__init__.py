"""The rule books, from the IR: model (what a book holds, filled from a spec), worked (the worked examples and
rounds, run through the interpreter as the book is written), prose (rules in the spec's notation and in words),
round_prose (the `round:` rules in words), figures (tiles and the exclusion graph), options (the options and
the presets that set them), variantdiff (what differs between two variants), examples (a spec's worked examples
as tests), and render (the templates -> files).
"""
