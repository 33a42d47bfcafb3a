"""Kotlin through a real git history: a Spring controller's class, its methods with their owner
and KDoc purpose, its routes under the class's ``@RequestMapping`` prefix, a rename that
supersedes, a test directory's controller that states no route, and a commit of broken Kotlin
that is a logged skip keeping the file's facts."""

from __future__ import annotations

import logging

import pytest

from repomem.miners import MineError
from repomem.miners.lang.walker import MINER
from repomem.service.query import facts, history
from tests.conftest import indexed

PATH = "src/main/kotlin/com/example/web/GreetingController.kt"
FIXTURE = "src/test/kotlin/com/example/web/FixtureController.kt"


def controller(method: str, extra: str = "") -> str:
    # two annotations on a class with a declaration after it: tree-sitter-kotlin 1.1 misreads
    # the class as an expression unless the walker parses it again on its own
    return f"""package com.example.web

import org.springframework.web.bind.annotation.*

/** Greets the people who ask, counting them. */
@RestController
@RequestMapping("/api")
class GreetingController(private val counter: Counter) {{

    companion object {{
        const val TEMPLATE = "Hello, %s!"
    }}

    /**
     * A greeting for the name given, numbered.
     *
     * @param name who to greet
     */
    @GetMapping("/greeting")
    fun {method}(@RequestParam name: String = "World"): Greeting {{
        return Greeting(counter.next(), TEMPLATE.format(name))
    }}
{extra}}}

data class Greeting(val id: Long, val content: String)
"""


FIXTURE_SRC = """package com.example.web

@RestController
class FixtureController {
    @GetMapping("/fixture")
    fun fixture() = "x"
}
"""

BROKEN = controller("greet") + "class Half {\n    fun open() {\n"


def _current(r, kind):
    return {f["value"]: f for f in facts(r, kind=kind)["facts"]}


def test_a_spring_controller_has_a_history(new_repo, caplog):
    caplog.set_level(logging.INFO, logger="repomem")
    r = indexed(new_repo(),
                ("2025-03-01T10:00:00Z", {PATH: controller("greeting"), FIXTURE: FIXTURE_SRC}),
                ("2025-03-02T10:00:00Z", {PATH: controller("greet")}),
                ("2025-03-03T10:00:00Z", {PATH: BROKEN}))

    classes = _current(r, "class")
    assert classes["GreetingController"]["purpose"] == "Greets the people who ask, counting them."
    assert classes["GreetingController"]["path"] == PATH and "Greeting" in classes

    funcs = _current(r, "function")
    greet = funcs["greet"]
    assert greet["subject"] == "method GreetingController.greet"
    assert greet["attrs"]["class"] == "GreetingController"
    assert greet["purpose"] == "A greeting for the name given, numbered."
    assert "greeting" not in funcs and "open" not in funcs  # renamed; the broken commit was skipped
    # the rename superseded the method's fact: one key, two versions
    versions = history(r, greet["key"])["versions"]
    assert [(v["value"], v["end_reason"]) for v in versions] == [("greeting", "superseded"), ("greet", None)]

    routes = _current(r, "route")
    assert set(routes) == {"GET /api/greeting"}  # the test directory's controller is a fixture
    route = routes["GET /api/greeting"]
    assert route["subject"] == "route of GreetingController.greet" and route["attrs"]["handler"] == "greet"
    # one route whose handler was renamed: its key followed the method
    assert [v["value"] for v in history(r, route["key"])["versions"]] == ["GET /api/greeting"] * 2

    consts = _current(r, "constant")
    assert consts["Hello, %s!"]["key"] == f"constant:{PATH}:GreetingController.TEMPLATE"
    assert any(f"skip {PATH}" in m and "syntax error" in m for m in caplog.messages)


@pytest.mark.parametrize("src", [BROKEN, "fun broken( {\n", "class A {\n  fun x() {\n}\n", "\x00\x01 @@@ }}}"])
def test_unparseable_kotlin_is_a_one_line_mine_error(src):
    with pytest.raises(MineError) as e:
        MINER.mine("src/main/kotlin/A.kt", src)
    assert "\n" not in str(e.value) and str(e.value).startswith("syntax error")


def test_top_level_annotated_function_keeps_its_annotations_and_doc():
    src = ("/** Runs the app. */\n@JvmName(\"start\")\n@Suppress(\"unused\")\nfun main(args: Array<String>) {\n"
           "    runApplication<App>(*args)\n}\n\nfun other() = 1\n")
    got = {f.value: f for f in MINER.mine("src/main/kotlin/App.kt", src) if f.kind == "function"}
    assert set(got) == {"main", "other"}
    assert got["main"].purpose == "Runs the app." and got["main"].line == 2
    assert dict(got["main"].attrs)["signature"].startswith("@JvmName(\"start\") @Suppress(\"unused\") fun main(")


def test_scripts_are_left_to_the_build_miners():
    assert not MINER.accepts("build.gradle.kts") and not MINER.accepts("scripts/release.main.kts")
    assert MINER.accepts("src/main/kotlin/App.kt")


def test_const_vals_at_top_level_and_in_objects():
    src = ('const val MAX_UPLOAD = 10 * 1024 * 1024\nconst val GREETING = "Hi $name"\nval plain = 3\n'
           "const val DEBUG = false\n"
           "class A {\n    companion object Limits {\n        const val PAGE = 20\n    }\n}\n"
           "object Defaults {\n    const val RATIO = 2.5\n}\n")
    got = {f.key.rsplit(":", 1)[1]: f.value for f in MINER.mine("src/main/kotlin/A.kt", src) if f.kind == "constant"}
    # a string template is computed at run time; a plain val is no constant
    assert got == {"MAX_UPLOAD": "10485760", "DEBUG": "false", "A.Limits.PAGE": "20", "Defaults.RATIO": "2.5"}


def test_parameter_defaults_and_bodiless_functions():
    src = ("interface GreetingRepository {\n    fun findByContent(content: String): Greeting?\n}\n"
           "class GreetingController {\n"
           '    fun greeting(@RequestParam name: String = "World", @RequestParam(defaultValue = "10") size: Int,\n'
           "                 strict: Boolean = false, @PathVariable id: Long, _hidden: Int = 1) = name\n}\n")
    mined = MINER.mine("src/main/kotlin/Greeting.kt", src)
    find = next(f for f in mined if f.value == "findByContent")
    assert find.subject == "method GreetingRepository.findByContent"
    assert dict(find.attrs)["signature"] == "fun findByContent(content: String): Greeting?"
    settings = {f.key.rsplit(":", 1)[1]: (f.value, f.purpose.split(" - ")[1]) for f in mined if f.kind == "config"}
    assert settings == {"GreetingController.greeting.name": ("World", "a default of greeting() (RequestParam)"),
                        "GreetingController.greeting.size": ("10", "a default of greeting() (RequestParam)"),
                        "GreetingController.greeting.strict": ("false", "a default of greeting()")}
    assert MINER.mine("src/test/kotlin/Greeting.kt", src) and not [
        f for f in MINER.mine("src/test/kotlin/Greeting.kt", src) if f.kind == "config"]


def test_a_file_the_grammar_parses_in_quadratic_time_is_skipped():
    # each top-level annotation with arguments costs the grammar time in proportion to the ones
    # before it: past the bound the file is refused before it is parsed
    src = "".join(f'@Suppress("x{i}")\nfun f{i}() = {i}\n' for i in range(2001))
    with pytest.raises(MineError, match="too costly to parse"):
        MINER.mine("src/main/kotlin/Generated.kt", src)
    assert len(MINER.mine("src/main/kotlin/Generated.kt", src.split("@Suppress(\"x1000\")")[0])) == 1000
