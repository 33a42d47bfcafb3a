"""One error type for everything the user can fix; the CLI prints it as one line plus a hint."""

from __future__ import annotations


class RepomemError(Exception):
    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.hint = hint

    def __reduce__(self):  # keeps the hint when raised in a worker process
        return (type(self), (str(self), self.hint))
