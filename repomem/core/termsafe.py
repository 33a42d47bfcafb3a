"""Printable text for the terminal: every command's plain-text output goes through ``safe``.

File names, values and texts come from the repository, and a repository is input from anyone:
a file named ``"\\x1b]0;owned\\x07.py"`` or a value holding ``"\\x1b[2J"`` would drive the
user's terminal (retitle, clear, fake a prompt), and a newline in a file name splits one line of
output into two that a script reads as two results.  So control characters -- C0 (newline and
tab included unless asked to keep them), DEL, C1, the Unicode line separators and the bidi
overrides that reorder what is shown ("Trojan Source") -- are written as visible escapes, and
the lone surrogates that stand for undecodable bytes in file names (``surrogateescape``) are
written as the byte (``\\xe9``) instead of crashing the UTF-8 encoder.  Backslashes stay as
they are, for readable Windows paths and regexes; ``--json`` output is exact and unaffected.
"""

from __future__ import annotations

import logging
import re
import sys

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\udc80-\udcff]")


def _escape(m: re.Match) -> str:
    c = m.group(0)
    n = ord(c)
    if c in _NAMED:
        return _NAMED[c]
    if 0xDC80 <= n <= 0xDCFF:
        return f"\\x{n - 0xDC00:02x}"  # the original byte of an undecodable file name
    return f"\\x{n:02x}" if n <= 0xFF else f"\\u{n:04x}"


def safe(value: object, keep: str = "") -> str:
    """``str(value)`` with control characters escaped; characters in ``keep`` (e.g. "\\n" for a
    multi-line block that is meant to be one) pass through."""
    text = value if isinstance(value, str) else str(value)
    return _CONTROL.sub(lambda m: m.group(0) if m.group(0) in keep else _escape(m), text)


def echo(text: object = "", keep: str = "", file=None, flush: bool = False) -> None:
    """``print`` for command output: one call, one line (unless ``keep`` lets newlines through)."""
    print(safe(text, keep), file=file or sys.stdout, flush=flush)


class SafeFormatter(logging.Formatter):
    """Log lines quote file names too; a traceback's own newlines stay."""

    def format(self, record: logging.LogRecord) -> str:
        return safe(super().format(record), keep="\n")
