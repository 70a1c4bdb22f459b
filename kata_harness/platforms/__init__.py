"""What belongs to each platform a class runs on: the student template and the graders of
Gradescope, Classroom 50 and Codio, each built and checked by ``release``; the practice workflow's
grading step (``classroom_step``, a standalone script: standard library only, run by the template's
workflow); and the learning platforms' gradebook imports, Canvas and Moodle (``lms``)."""
