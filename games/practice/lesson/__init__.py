"""Learn by playing: a first game against a friendly computer whose table explains each step.

``deals`` chooses the game's first deals, ``words`` puts the engine's events and counts into the
words a teacher says at the table, and ``coach`` decides what the coach panel says to the learner
on each board. The play app draws the panel (``play/parts/coach.jinja``) from the context
``coach.coach`` answers, which ``PracticeConfig.ready`` lends it.
"""
