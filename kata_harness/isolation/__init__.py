"""Where learner code runs: the one protocol between grade.py and its children (``protocol``), the
children and the lanes that run a learner's kata jobs (``channel``: a zygote that forks a fresh
process per job, or a serial child where forking is unsafe), what runs inside a child (``child``),
the bubblewrap sandbox (``sandbox``), process trees on every OS (``processes``), and the private
view through which a submitted git repository is read (``repository``). Only ``child`` imports
torch, and only inside the child.
"""
