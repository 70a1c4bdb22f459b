"""Grading a whole class: ``engine`` reads each submission's kata files (from a folder, or a git
repository through ``isolation.repository`` at a tag, a date or the commit the instructor's record
names), keeps the cache of rows beside the gradebook, grades the submissions on a pool of workers
(each with its own staging folder and learner lane), grades each distinct kata file once however
many submissions share it, and writes the gradebook, the class report and each student's feedback.
grade.py's parent side only: no torch; learner code runs in the lanes' children."""
