"""A number or a value the question states ranks the facts whose value states it
(features.number_said, features.value_said)."""

from __future__ import annotations

from repomem.service.query import ask
from repomem.service.question import parse
from tests.conftest import indexed

POOL_PY = '''class Limits:
    """Limits on the connection pool."""

    def __init__(self, max_connections=None, max_keepalive_connections=None):
        self.max_connections = max_connections


DEFAULT_LIMITS = Limits(max_connections=100, max_keepalive_connections=20)
DEFAULT_MAX_REDIRECTS = 20
DEFAULT_TIMEOUT = 5.0


class PoolTimeout(Exception):
    """Timed out waiting to acquire a connection from the pool."""


class ConnectError(Exception):
    """Failed to establish a connection."""


class ConnectTimeout(Exception):
    """Timed out while connecting."""


def acquire_connection(pool):
    """Take a pooled connection for a request, waiting while every connection is in use."""


def release_connection(pool, connection):
    """Give a pooled connection back once its request is done."""


def close_connections(pool):
    """Close every pooled connection."""
'''


def test_the_numbers_a_question_states():
    assert parse("Why do we run out of connections at 100 concurrent requests?").numbers == {"100"}
    assert parse("Upgrade Django to 6.1 and Wagtail to 7.5").numbers == {"6.1", "7.5"}
    # one digit, a part of a name or a path: not a number stated
    assert not parse("Why does py311 fail on /api/v1 with 2 workers?").numbers


def test_the_value_stating_the_number_asked_comes_first(new_repo):
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"pool.py": POOL_PY}))
    got = ask(r, "Why do we run out of pooled connections at 100 concurrent requests?", k=3)
    assert got["facts"][0]["subject"].startswith("DEFAULT_LIMITS"), \
        [f["subject"] for f in got["facts"]]


STYLES_PY = '''STYLE_OPTION = "bold cyan"
STYLE_SWITCH = "bold green"
STYLE_METAVAR = "bold yellow"
STYLE_USAGE = "yellow"
STYLE_HELPTEXT = "dim"
STYLE_OPTION_HELP = ""
STYLE_OPTION_DEFAULT = "dim"
STYLE_REQUIRED_SHORT = "red"
STYLE_REQUIRED_LONG = "dim red"
'''


def test_a_value_the_prompt_says_in_words_comes_first(new_repo):
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"rich_utils.py": STYLES_PY}))
    assert "bold cyan" in parse("Why are option names bold cyan in --help?").phrases
    got = ask(r, "Why are option names bold cyan in --help? I want to restyle them.", k=3)
    assert got["facts"][0]["subject"].startswith("STYLE_OPTION "), \
        [f["subject"] for f in got["facts"]]


GRADLE = """plugins {{
\tid 'java'
\tid 'org.springframework.boot' version '{v}'
}}
"""


KTS = """plugins {{
    id("org.springframework.boot") version "{v}"
    kotlin("jvm") version "2.2.21"
}}
"""


def test_a_file_the_question_names_by_its_path_comes_first(new_repo):
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {
        "initial/build.gradle": GRADLE.format(v="3.2.0"),
        "complete/build.gradle": GRADLE.format(v="3.3.1"),
        "initial-kotlin/build.gradle.kts": KTS.format(v="3.1.0"),
        "complete-kotlin/build.gradle.kts": KTS.format(v="3.0.0")}))
    assert parse("Which Spring Boot version does complete/build.gradle apply?").paths == {
        "complete/build.gradle"}
    assert not parse("Why does GET /api/users fail?").paths  # a route is no file
    for path, version in (("complete/build.gradle", "3.3.1"), ("initial/build.gradle", "3.2.0")):
        got = ask(r, f"Which Spring Boot plugin version does the build ({path}) apply?", k=3)
        assert (got["facts"][0]["path"], got["facts"][0]["value"]) == (path, version), got["facts"]


def test_the_rows_of_a_path_said_are_found_by_any_ending_of_one_folder_at_least():
    from repomem.service.rowindex import _Facts

    rows = [{"kind": "config", "key": f"config:{p}:x", "subject": f"x in {p}", "value": "1",
             "path": p, "line": 1} for p in ("gs/complete/build.gradle", "gs/complete-kotlin/build.gradle.kts",
                                             "build.gradle")]
    facts = _Facts(rows)
    assert list(facts.in_paths({"complete/build.gradle"})) == [1, 0, 0]
    assert list(facts.in_paths({"gs/complete/build.gradle"})) == [1, 0, 0]
    assert not facts.in_paths({"build.gradle"}).any()  # a bare file name: path_named's part


STORE_PY = '''import sqlite3

STORE_NAME = "data"


class Store:
    """The data store of the app: saves and loads its records."""

    def save(self, record):
        """Save one record of data to the store."""

    def load(self, key):
        """Load one record of data from the store."""


def connect():
    """Open the app's data store."""
    return sqlite3.connect("./var/app.db")
'''


def test_the_shape_of_the_value_a_question_asks_for():
    assert parse("Which SQLite file does the app keep its data in?").asked_shape == "file"
    assert parse("Where does the app write its log?").asked_shape == "file"
    assert parse("What folder are uploads saved to?").asked_shape == "file"
    assert parse("What character does the progress bar draw when empty?").asked_shape == "symbol"
    assert parse("What error message does the parser give?").asked_shape == "text"
    assert parse("In which style are option names printed?").asked_shape == "style"
    # the file that defines or holds a name is asked by its facts, not by a path's shape
    assert parse("Which file defines the routes?").asked_shape is None
    assert parse("In which file is the shipping quote implemented?").asked_shape is None
    assert parse("Which file is the parcel quote implemented in?").asked_shape is None
    assert parse("Where is the login view?").asked_shape is None
    assert parse("What port does the app listen on?").asked_shape is None


def test_the_path_a_function_passes_answers_a_file_asked(new_repo):
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"app/store.py": STORE_PY}))
    got = ask(r, "Which SQLite file does the app keep its data in?", k=3)
    assert got["answer"] == "./var/app.db", [(f["subject"], f["value"]) for f in got["facts"]]


BAR_PY = '''BAR_WIDTH = 30
FILL_CHAR = "#"
EMPTY_CHAR = "-"
EMPTY_LABEL = "empty_bar"
ERROR_TEXT = "the bar could not be drawn"
STYLE_DONE = "bold green"
'''


def test_a_value_of_the_shape_asked_comes_first(new_repo):
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"app/bar.py": BAR_PY}))
    assert ask(r, "What character marks the empty part of the bar?", k=3)["answer"] == "-"
    assert ask(r, "What message is shown when the bar fails?", k=3)["answer"] == \
        "the bar could not be drawn"
    assert ask(r, "In which colour is a finished bar drawn?", k=3)["answer"] == "bold green"


HELP_PY = '''RICH_HELP = "Try the help option for more."
REQUIRED_SHORT_STRING = "*"
RICH_HELP_WIDTH = 80
'''


def test_a_named_setting_answers_a_shape_asked_only_when_its_value_has_it(new_repo):
    # the question names RICH_HELP ("rich help"), whose value is a sentence, not a symbol
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"app/help.py": HELP_PY}))
    got = ask(r, "What symbol does the rich help print to flag a required parameter?", k=3)
    assert got["answer"] == "*", [(f["subject"], f["value"]) for f in got["facts"]]
    # a number asked: likewise a named setting whose value states none
    got = ask(r, "How many columns wide is the rich help?", k=3)
    assert got["answer"] == "80", [(f["subject"], f["value"]) for f in got["facts"]]
