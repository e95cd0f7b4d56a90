"""The interpreter: the reference semantics. Decompositions of a hand, combination fans, scoring and
exclusions (interpreter), and round records settled event by event (rounds).
"""
