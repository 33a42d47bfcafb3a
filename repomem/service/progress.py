"""Progress a person can see, on stderr: a bar per phase on a terminal (rich), else one line
every few seconds (CI, an IDE task, an agent's shell; a phase quicker than that prints
nothing), or nothing (``-q``).  Never stdout, so
``--json`` output stays clean.

  with progress.Progress.for_stderr(quiet) as p:
      with p.phase("mining history", total=n, unit="commits") as task:
          task.advance(k)
"""

from __future__ import annotations

import os
import sys
import time
from contextlib import contextmanager
from typing import Any, Iterator

INTERVAL = float(os.environ.get("REPOMEM_PROGRESS_INTERVAL", "5"))  # seconds between lines


def _eta(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    seconds = int(seconds)
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


class Task:
    """One phase: counts, a rate and an ETA."""

    def __init__(self, owner: "Progress", name: str, total: int | None, unit: str):
        self.owner, self.name, self.total, self.unit = owner, name, total, unit
        self.done = 0
        self.started = time.monotonic()
        self.last_line = self.started
        self.printed = False
        self.rich_id = None

    def rate(self) -> float:
        spent = time.monotonic() - self.started
        return self.done / spent if spent > 0 else 0.0

    def line(self) -> str:
        rate = self.rate()
        count = f"{self.done}/{self.total}" if self.total is not None else str(self.done)
        eta = (self.total - self.done) / rate if rate and self.total is not None else None
        return (f"repomem: {self.name}: {count} {self.unit} ({rate:.1f}/s, ETA {_eta(eta)})")

    def advance(self, n: int = 1) -> None:
        self.done += n
        self.owner._advanced(self, n)


class Progress:
    """mode: "bar" (rich, a terminal), "lines" (periodic lines) or "off"."""

    def __init__(self, mode: str, file=None):
        self.mode = mode
        self.file = file if file is not None else sys.stderr
        self.rich: Any = None
        self.depth = 0  # entered again by a callee: the outermost exit stops the bar

    @classmethod
    def for_stderr(cls, quiet: bool = False) -> "Progress":
        if quiet:
            return cls("off")
        return cls("bar" if sys.stderr.isatty() else "lines")

    def __enter__(self) -> "Progress":
        self.depth += 1
        return self

    def _start_bar(self) -> None:
        """Rich's bar, started at the first phase rather than on entering: its refresh thread
        would make the tree's mining workers spawn instead of fork (service/current.py)."""
        if self.mode == "bar" and self.rich is None and self.depth > 0:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                ProgressColumn,
                SpinnerColumn,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
            from rich.progress import Progress as RichProgress
            from rich.text import Text

            class Rate(ProgressColumn):
                def render(self, task) -> Text:
                    speed = task.finished_speed or task.speed
                    return Text(f"{speed:.1f}/s" if speed else "", style="progress.data.speed")

            self.rich = RichProgress(
                SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                MofNCompleteColumn(), TextColumn("{task.fields[unit]}"), Rate(),
                TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                console=Console(file=self.file), transient=False)
            self.rich.start()

    def __exit__(self, *exc) -> None:
        self.depth -= 1
        if self.rich is not None and self.depth == 0:
            self.rich.stop()
            self.rich = None

    @contextmanager
    def phase(self, name: str, total: int | None = None, unit: str = "") -> Iterator[Task]:
        task = Task(self, name, total, unit)
        self._start_bar()
        if self.rich is not None:
            task.rich_id = self.rich.add_task(name, total=total, unit=unit)
        yield task
        # (not on an error: the error's own line says what happened)
        if self.rich is not None and task.rich_id is not None:
            self.rich.update(task.rich_id, completed=task.done if total is None else total,
                             total=total if total is not None else task.done)
        elif self.mode == "lines" and (task.printed or
                                       time.monotonic() - task.started >= INTERVAL):
            spent = time.monotonic() - task.started
            print(f"repomem: {name}: done, {task.done} {unit} in {spent:.1f} s",
                  file=self.file, flush=True)

    def _advanced(self, task: Task, n: int) -> None:
        if self.rich is not None and task.rich_id is not None:
            self.rich.advance(task.rich_id, n)
        elif self.mode == "lines":
            now = time.monotonic()
            if now - task.last_line >= INTERVAL:  # a quick phase prints nothing
                task.last_line = now
                task.printed = True
                print(task.line(), file=self.file, flush=True)


OFF = Progress("off")
