"""What belongs to each platform a class runs on, one module each, every one taking the project it
releases (a ``Layout``) as a value: the student template and its practice workflow (``student``),
the graders of Gradescope (``gradescope``), Classroom 50 (``classroom50``) and Codio (``codio``),
and what they share (``common``: the project's files they copy, the pins, the refusals, the
grading each release checks itself with); the practice workflow's grading step (``classroom_step``,
a standalone script: standard library only, run by the template's workflow in the student's
repository); and the learning platforms' gradebook imports, Canvas and Moodle (``lms``)."""
