"""The one error of a command that cannot run as asked (a bad option, an unknown kata, a folder
that is not there): raised wherever it is found, by the commands and the Python API alike, and
printed once, by grade.py, with exit status 2."""


class UsageError(Exception):
    """A command that cannot run as asked: ``text`` says why (one line, or argparse's usage line
    and its error), ``status`` is the exit status (2)."""

    def __init__(self, text: str, status: int = 2):
        super().__init__(text)
        self.text, self.status = text, status

    def __str__(self) -> str:
        return self.text
