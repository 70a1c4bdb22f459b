"""Deciding the score, in grade.py's parent process (no torch, no learner code): comparing two
observations (``compare``), verdicts (``verdicts``), the judge that follows a learner's jobs and
trusts nothing they send (``judge``), where expected results come from (``expectations``: the live
reference, ``answer_key``, ``hidden``), and the integrity manifest (``integrity``).
"""
