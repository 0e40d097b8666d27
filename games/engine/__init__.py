"""A pure-Python cribbage engine: cards, scoring, the game state machine and computer players.

Nothing in this package imports Django, reads a clock or does I/O; randomness is injected.
"""
