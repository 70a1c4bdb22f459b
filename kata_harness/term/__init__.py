"""The instructor's term after grading a class: the record of when each submission was made and at
which commit (``record``), the late policy applied to it (``late``), the roster (``roster``),
identical solutions shared by several submissions (``shared``), a class graded in shards and merged
(``shards``), and what one batch run does of all that,
settled once (``plan``). Pure Python: no torch, no child process; the instructor's files are read
here, the students' never."""
