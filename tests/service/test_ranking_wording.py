"""Question wording ranking reads: the class a method is asked by ("which Server method ..."), a
value offered as a choice ("strong or weak"), a version range, a default asked by what happens
when nothing is given, a route's method said of "the method and path", a port said by what is
served on it, a change by the noun of a value's shape, a quantity with its unit, a view, a time
asked by a count of its units ("how many seconds"), a class by its head noun ("which class holds
the main method ..."); and a
test's method, which words joined name only in a question about the tests."""

from __future__ import annotations

from repomem.service.query import ask
from repomem.service.question import parse, task_subject
from tests.conftest import indexed

SERVER_PY = '''class Client:
    """A client of the service."""

    def close(self):
        """Close the client's sockets and its open connections."""


class Server:
    """The server of the service."""

    def shutdown(self):
        """Stop serving: the listening sockets first, then wait for requests to finish."""

    def serve(self):
        """Accept requests until stopped."""
'''


def test_a_method_asked_by_its_class(new_repo):
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"service.py": SERVER_PY}))
    got = ask(r, "Which Server method closes the sockets and open connections?", k=3)
    assert got["facts"][0]["value"] == "shutdown", [f["subject"] for f in got["facts"]]


CACHE_PY = '''ETAG_KIND = "weak"
TAG_HASH = "sha256"
GENERATED_TAG_PREFIX = "W/"
CACHE_CONTROL = "no-cache"
'''


def test_a_value_offered_as_a_choice_is_said():
    assert {"strong", "weak"} <= parse("Are ETags strong or weak by default?").phrases
    assert not {"true", "false", "a"} & parse("Is it true or false for a file or a URL?").phrases


def test_the_setting_whose_value_the_question_offers_as_a_choice_comes_first(new_repo):
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"cache.py": CACHE_PY}))
    got = ask(r, "Are the generated tags strong or weak by default?", k=3)
    assert got["facts"][0]["subject"].startswith("ETAG_KIND "), [f["subject"] for f in got["facts"]]


CONFIG_PY = '''class Config:
    """The server's configuration."""

    def configure_logging(self):
        """Install the log handlers and their levels."""

    def load(self):
        """Load the application."""
'''
TEST_PY = '''class TestReload:
    def setup(self):
        """Prepare a reloader for each test."""
'''


def test_words_joined_name_no_tests_method_unless_the_tests_are_asked_about(new_repo):
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"config.py": CONFIG_PY,
                                                       "tests/test_reload.py": TEST_PY}))
    got = ask(r, "Which Config method sets up log handlers and levels?", k=3)
    assert got["facts"][0]["value"] == "configure_logging", [f["subject"] for f in got["facts"]]
    got = ask(r, "Which test method sets up the reloader tests?", k=3)
    assert got["facts"][0]["value"] == "setup", [f["subject"] for f in got["facts"]]


REQUIREMENTS = "Django>=6.0,<6.1\ndjango-csp>=3.8,<4\nwagtail>=7.2,<7.3\n"
SETTINGS_PY = '''import os

DJANGO_SETTINGS_MODULE = os.environ.get("DJANGO_SETTINGS_MODULE", "site.settings.dev")
DJANGO_LOG_LEVEL = "INFO"
'''


def test_a_version_range_asks_for_the_package_named_before_it(new_repo):
    assert "django" in parse("Which Django range is the site built on?").version_slots
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"requirements.txt": REQUIREMENTS,
                                                       "site/settings.py": SETTINGS_PY}))
    got = ask(r, "Which Django range is the site built on?", k=3)
    assert got["facts"][0]["kind"] == "dependency" and got["facts"][0]["value"] == "<6.1,>=6.0", \
        [(f["subject"], f["value"]) for f in got["facts"]]


GREET_PY = '''from flask import Flask

app = Flask(__name__)


@app.route("/greeting")
def greeting(name="World"):
    """Greet someone by name."""
    return f"Hello, {name}!"
'''


def test_what_happens_when_nothing_is_given_asks_for_a_default(new_repo):
    for question in ("What name does the greeting endpoint use when no `name` parameter is given?",
                     "Which name is greeted unless told otherwise?",
                     "What does greeting say if the name is omitted?"):
        assert {"config", "constant"} <= parse(question).kinds, question
    assert "config" not in parse("Which function runs when no command is given?").kinds
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"app.py": GREET_PY}))
    got = ask(r, "What name does the greeting endpoint use when no `name` parameter is given?", k=3)
    assert got["facts"][0]["value"] == "World", [(f["subject"], f["value"]) for f in got["facts"]]


MAIN_PY = '''import typer


def main(name: str = "World"):
    """Say hello."""
    print(f"Hello {name}")
'''


ROUTES_PY = '''from flask import Blueprint

bp = Blueprint("api", __name__)


@bp.route("/api/profiles/<username>", methods=["GET"])
def get_profile(username):
    """Get the profile of a user."""


@bp.route("/api/user", methods=["PUT"])
def update_user():
    """Update the current user."""
'''


def test_the_verb_said_of_a_method_and_path_is_a_routes_method(new_repo):
    assert parse("Which method and path edit the user's profile?").route_methods == {"PUT", "PATCH"}
    assert parse("Which HTTP method and URL delete a comment?").route_methods == {"DELETE"}
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"api.py": ROUTES_PY}))
    got = ask(r, "Which method and path edit the logged-in user's profile?", k=3)
    assert got["facts"][0]["value"] == "PUT /api/user", [f["value"] for f in got["facts"]]


def test_a_default_asked_of_a_function_it_names_is_its_parameters(new_repo):
    assert parse("Which class is used when no transport is given?").kinds >= {"class", "config"}
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"docs/hello.py": MAIN_PY}))
    got = ask(r, "What name does `main` greet when none is given?", k=3)
    assert got["facts"][0]["value"] == "World", [(f["subject"], f["value"]) for f in got["facts"]]


CONFIG_SETTINGS_PY = '''class Config:
    """The server's configuration."""

    def __init__(self, log_level=None, log_config=None, use_colors=None):
        self.log_level = log_level

    def configure_logging(self):
        """Install the log handlers and their levels."""
'''


def test_a_class_named_as_a_methods_owner_does_not_name_its_settings(new_repo):
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"config.py": CONFIG_SETTINGS_PY}))
    got = ask(r, "Which Config method sets up log handlers and levels?", k=3)
    assert got["facts"][0]["value"] == "configure_logging", [f["subject"] for f in got["facts"]]
    got = ask(r, "What is the default log level in Config?", k=3)  # a setting asked: its own
    assert got["facts"][0]["subject"].startswith("Config.log_level "), [f["subject"] for f in got["facts"]]


SERVER_SETTINGS_PY = '''import os

PORT = int(os.environ.get("PORT", "3000"))
SERVE = "static"
SERVE_STATIC = True
'''


def test_a_port_said_by_what_is_served_on_it():
    assert parse("Serve on 8080 by default").measured.text == "port on 8080 by default"
    assert parse("Run the app on :3000").measured.kinds >= {"config", "constant"}
    assert parse("It runs on 3 workers").measured.text == "It runs on 3 workers"


def test_the_port_served_on_comes_first_not_a_setting_named_by_the_verb(new_repo):
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"settings.py": SERVER_SETTINGS_PY}))
    got = ask(r, "Serve on 8080 instead", k=3)
    assert got["facts"][0]["subject"].startswith("PORT "), [f["subject"] for f in got["facts"]]


GREETING_JAVA = '''package com.example;

@RestController
public class GreetingController {
\tprivate static final String template = "Hello, %s!";
\tprivate static final int MAX_GREETINGS = 100;

\t@GetMapping("/greeting")
\tpublic Greeting greeting(@RequestParam(value = "name", defaultValue = "World") String name) {
\t\treturn new Greeting(String.format(template, name));
\t}
}
'''


def test_a_change_prompt_asks_for_the_value_of_the_shape_it_replaces(new_repo):
    assert parse("Change the greeting text to 'Hi, %s!'.").asked_shape == "text"
    assert parse("Set the separator to a pipe").asked_shape == "symbol"
    assert parse(task_subject("Change the greeting text to 'Hi'")).asked_shape == "text"  # the context's
    assert parse("Change the port to 8080").asked_shape is None
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"GreetingController.java": GREETING_JAVA}))
    got = ask(r, "Change the greeting text to 'Hi, %s!'.", k=3)
    assert got["facts"][0]["value"] == "Hello, %s!", [f["subject"] for f in got["facts"]]


WS_PY = '''class Config:
    """Server configuration."""

    def __init__(self, ws_max_size=16 * 1024 * 1024, ws_ping_timeout=20.0, limit_concurrency=None):
        self.ws_max_size = ws_max_size


class WSProtocol:
    """The websocket protocol."""

    def reject(self):
        """Reject the websocket frames of a rejected connection."""
        return 403
'''


def test_a_quantity_said_with_its_unit_is_the_number_code_writes():
    assert {"16777216", "16000000"} <= parse("Why are frames over 16 MB rejected?").numbers
    assert {"300", "300000"} <= parse("Sessions end after 5 minutes").numbers
    assert "2.5" in parse("Set the timeout to 2.5s").numbers
    assert not parse("Which s3 bucket do we use?").numbers


def test_the_setting_stating_a_quantity_said_with_its_unit_comes_first(new_repo):
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"config.py": WS_PY}))
    got = ask(r, "Why are websocket frames over 16 MB rejected?", k=3)
    assert got["facts"][0]["subject"].startswith("Config.ws_max_size "), [f["subject"] for f in got["facts"]]


VIEWS_PY = '''from django.shortcuts import render

SEARCH_RESULTS_PER_PAGE = 10


def search(request):
    """Search the site's pages for the query of the search box."""
    return render(request, "search/search_results.html")
'''
SEARCH_HOOKS_PY = '''class PageViewSet:
    search_fields = ("title", "body")
    search_box_placeholder = "Search pages"
'''


def test_which_view_asks_for_a_function_or_a_class(new_repo):
    assert parse("Which view handles the search box?").kinds >= {"function", "class"}
    assert "function" not in parse("Which template does the book detail view render?").kinds
    assert "function" not in parse("Which view engine does the app use?").kinds
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"search/views.py": VIEWS_PY,
                                                       "base/hooks.py": SEARCH_HOOKS_PY}))
    got = ask(r, "Which view handles the site's search box?", k=3)
    assert got["facts"][0]["value"] == "search", [f["subject"] for f in got["facts"]]


def test_a_count_of_time_units_asks_for_a_time():
    assert parse("How many seconds is a password-reset link good for?").asks_duration
    assert parse("How long do API tokens stay valid by default, in seconds?").asks_duration
    assert parse("After how many minutes does a session end?").asks_duration
    assert not parse("How many workers does the server start?").asks_duration
    assert not parse("How many seconds-long clips are in the fixtures folder list?").asks_duration


POOL_PY = '''MAX_CONNECTIONS = 100
MAX_KEEPALIVE_CONNECTIONS = 20
KEEPALIVE_EXPIRY = 5.0
'''


def test_a_time_asked_finds_the_setting_named_as_a_time_is(new_repo):
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"pool.py": POOL_PY}))
    got = ask(r, "How many seconds does the pool keep an idle keep-alive connection?", k=3)
    assert got["facts"][0]["subject"].startswith("KEEPALIVE_EXPIRY "), \
        [f["subject"] for f in got["facts"]]


def test_a_class_asked_by_its_head_noun_whatever_method_it_holds():
    assert parse("Which class holds the main method that boots the application?").kinds == {"class"}
    assert parse("Which struct stores the connection state?").kinds == {"class"}
    assert parse("Which class method handles the request?").kinds == {"function"}


APP_JAVA = '''package com.example;

public class RestServiceApplication {
    public static void main(String[] args) {
        SpringApplication.run(RestServiceApplication.class, args);
    }
}
'''


def test_the_class_holding_the_method_named_comes_first(new_repo):
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {
        "src/main/java/com/example/RestServiceApplication.java": APP_JAVA}))
    got = ask(r, "Which class holds the main method that boots the application?", k=3)
    assert got["facts"][0]["subject"] == "class RestServiceApplication", \
        [f["subject"] for f in got["facts"]]
