"""A Python function's or class's purpose is its docstring's first paragraph on one line: a
summary sentence wrapped onto a second line is whole, so a question's words that fall on the
second line still meet it."""

from __future__ import annotations

import textwrap

import pytest

from repomem.core.model import CLASS, FUNCTION
from repomem.miners import MAX_PURPOSE, mine_file
from repomem.service.query import facts
from tests.conftest import indexed

LAUNCH = '''\
def launch(url: str, wait: bool = False, locate: bool = False) -> int:
    """This function launches the given URL (or filename) in the default
    viewer application for this file type.  If this is an executable, it
    might launch the executable in a new session.

    :param url: URL or filename of the thing to launch.
    :param wait: wait for the program to exit before returning.
    """
    return open_url(url, wait=wait, locate=locate)
'''


def purpose_of(doc: str, kind: str = FUNCTION) -> str:
    head = "def load(path):" if kind == FUNCTION else "class Loader:"
    src = f"{head}\n    {textwrap.indent(doc, '    ').lstrip()}\n    pass\n"
    got = [f for f in mine_file("pkg/mod.py", src.encode()) if f.kind == kind]
    assert len(got) == 1, got
    return got[0].purpose


@pytest.mark.parametrize("doc,purpose", [
    ('"""Load the\nconfiguration file.\n\nDetails here."""', "Load the configuration file."),
    ('"""\nLoad the\n   configuration.\n"""', "Load the configuration."),
    ('"""Load the configuration.\n:param path: where it is\n"""', "Load the configuration."),
    ('"""Load the configuration.\nArgs:\n    path: where it is\n"""', "Load the configuration."),
    ('"""Load the configuration.\n>>> load("a.toml")\n"""', "Load the configuration."),
    ('"""Args:\n    path: where it is\n"""', "load (path)"),  # no summary: the signature's words
])
def test_function_purpose_is_the_first_paragraph(doc, purpose):
    assert purpose_of(doc) == purpose


def test_class_purpose_is_the_first_paragraph():
    assert purpose_of('"""Loads settings from\nthe environment.\n\nMore."""', CLASS) == \
        "Loads settings from the environment."


def test_a_long_summary_is_bounded_and_leaves_room_for_a_suffix():
    got = purpose_of('"""' + "word " * 200 + '"""')
    assert got.startswith("word word") and len(got) <= 300 < MAX_PURPOSE


def test_wrapped_summary_is_stored_whole_from_a_real_history(tmp_path):
    """typer's ``launch``: the first line ends "in the default"; what it launches is on the next."""
    r = indexed(tmp_path / "repo", ("2026-01-05T10:00:00+00:00", {"typer/main.py": LAUNCH}))
    got = [f for f in facts(r, kind="function")["facts"] if f["value"] == "launch"]
    assert [f["purpose"] for f in got] == [
        "This function launches the given URL (or filename) in the default viewer application for "
        "this file type. If this is an executable, it might launch the executable in a new session."]
