"""What one grading prints: each verdict explained in the learner's words (``explanations``),
grade.py's JSON document (``document``), the text report (``text``), the Markdown summary
(``summary``), the reporter's and Gradescope's formats (``official``), and ``--format``'s dispatch
(``render``); for a class graded by batch, each function's details in the JSON gradebook
(``gradebook``) and the class report drawn from them (``class_report``).
"""
