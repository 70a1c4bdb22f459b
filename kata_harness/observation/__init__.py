"""Observing a function, in a grading child or in pytest: calling it on fresh inputs and describing
what can be seen as plain data (``observe``, ``describe``, ``containers``), and grading in one process
(``local``: the pytest route and the self-tests). With ``kata_harness.spec`` (the vocabulary kata tests
are written in), the only modules that import torch; grade.py's parent never imports them.
"""
