"""What learners read: the curriculum (katas, functions, points, pitfalls, hints; ``curriculum``) and
every generic message in English and Chinese (``messages``). Pure Python, no torch.
"""
