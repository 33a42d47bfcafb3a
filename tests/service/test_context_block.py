"""The agent's context block is compact: a subject does not repeat its file, code is its name and
what it is, only the first facts carry their source line, and a fact copied into other files is
one bullet naming them (context.build_context)."""

from __future__ import annotations

import re

from repomem.service import context
from repomem.service.context import build_context
from tests.conftest import indexed

PYPROJECT = '[project]\nname = "{name}"\nversion = "1.0"\nrequires-python = ">=3.10"\n'
APP = '''import os

PORT = 8080
HOST = "127.0.0.1"
TIMEOUT = 30
RETRIES = 3


def get_app_dir(app_name, roaming=True):
    """Return the config folder for the application."""
    return os.path.join("~", app_name)


class Settings:
    def get_app_dir(self):
        return get_app_dir("x")
'''


def _bullets(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("- ")]


def test_copies_of_a_fact_in_other_files_are_one_bullet(new_repo):
    files = {"pyproject.toml": PYPROJECT.format(name="app")}
    files.update({f"examples/{n}/pyproject.toml": PYPROJECT.format(name="app") for n in "abcdefgh"})
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", files))
    text = build_context(r, "Drop Python 3.9 and require Python 3.10", budget=400)
    python = [b for b in _bullets(text) if "required Python version" in b]
    assert python == [python[0]] and "(`pyproject.toml`:4," in python[0], text
    same = next(line for line in text.splitlines() if line.startswith("  same in "))
    assert "`examples/a/pyproject.toml`:4" in same and same.endswith(" and 2 more"), same


def test_code_is_its_name_and_a_subject_does_not_repeat_its_file(new_repo):
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"app/main.py": APP}))
    text = build_context(r, "Where is the app dir function, and what is the port?", budget=2000)
    # (the day and the commit only on the first facts: which those are is ranking's choice)
    assert re.search(r"- `get_app_dir` function \(`app/main.py`:9, 2024-03-01[ )]", text), text
    assert "- `get_app_dir` method of `Settings` (`app/main.py`:" in text, text
    assert "- `PORT`: `8080` (`app/main.py`:3, 2024-03-01 " in text, text
    assert " in app/main.py" not in text


def test_only_the_first_facts_carry_their_source_line(new_repo):
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"app/main.py": APP}))
    text = build_context(r, "port host timeout retries app dir settings", budget=4000)
    lines = text.splitlines()
    assert len(_bullets(text)) > context.SOURCED, text
    sourced = [i for i, line in enumerate(lines) if line.startswith("  source: ")]
    assert len(sourced) == context.SOURCED and all(lines[i - 1].startswith("- ") for i in sourced)
    # white space collapsed: a signature over several lines is one
    assert all("\\n" not in lines[i] for i in sourced), text
    # in a small block (the hook's 250 tokens) only the first fact has its source line
    small = build_context(r, "port host timeout retries app dir settings", budget=250).splitlines()
    assert [i for i, line in enumerate(small) if line.startswith("  source: ")] == [3], small


def test_a_fact_too_long_for_the_budget_leaves_room_for_a_shorter_one_after_it(new_repo):
    long = "Welcome! " * 60
    app = f'BANNER = "{long}"\nBANNER_WIDTH = 80\n'
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"app/banner.py": app}))
    full = _bullets(build_context(r, "What is `BANNER`, the banner?", budget=4000))
    assert [b.split("`")[1] for b in full[:2]] == ["BANNER", "BANNER_WIDTH"], full
    short = build_context(r, "What is `BANNER`, the banner?", budget=80)
    assert "`BANNER_WIDTH`: `80`" in short and "Welcome!" not in short, short


def test_only_the_first_facts_name_their_commit_and_later_ones_their_day_when_recent(new_repo):
    old = "2023-01-10T10:00:00Z"
    r = indexed(new_repo(), (old, {"app/main.py": APP}),
                ("2024-03-01T10:00:00Z", {"app/main.py": APP.replace("TIMEOUT = 30", "TIMEOUT = 60")}))
    text = build_context(r, "port host timeout retries app dir settings", budget=4000)
    bullets = _bullets(text)
    assert len(bullets) > context.SOURCED + 1, text
    first, rest = bullets[:context.SOURCED], bullets[context.SOURCED:]
    assert all(re.search(r", \d{4}-\d\d-\d\d [0-9a-f]{7}\)$", b) for b in first), text
    assert not any(re.search(r"[0-9a-f]{7}\)$", b) for b in rest), text
    # the value changed lately says its day; the ones unchanged for a year only where they are
    assert any(b.startswith("- `TIMEOUT`") for b in rest), text
    for b in rest:
        if b.startswith("- `TIMEOUT`"):
            assert b.endswith(", 2024-03-01)"), b
        else:
            assert re.search(r"`:\d+\)$", b), b


def test_a_settings_source_line_is_left_out_when_it_does_not_state_its_value():
    f = {"kind": "config", "subject": "Typer.help", "value": "Default(None)", "path": "t/main.py",
         "line": 3, "valid_from": "2024-03-01T10:00:00Z", "commit": "abcdef1234",
         "text": "help: Annotated["}
    assert not any(x.startswith("  source:") for x in context.compact_lines(f))
    g = dict(f, text='help: str = Default(None)')
    assert "  source: `help: str = Default(None)`" in context.compact_lines(g)
    h = dict(f, kind="function", subject="function main", value="main", text="def main(")
    assert "  source: `def main(`" in context.compact_lines(h)


POM = """<project>
  <parent>
    <groupId>org.springframework.boot</groupId>
    <artifactId>spring-boot-starter-parent</artifactId>
    <version>4.0.6</version>
  </parent>
  <artifactId>{name}</artifactId>
</project>
"""


def test_a_dependency_pinned_alike_in_twin_folders_is_one_bullet(new_repo):
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {
        "initial/pom.xml": POM.format(name="initial"), "complete/pom.xml": POM.format(name="complete")}))
    text = build_context(r, "Upgrade Spring Boot to 4.1", budget=400)
    parent = [b for b in _bullets(text) if "spring-boot-starter-parent" in b]
    assert len(parent) == 1, text
    other = "complete" if "initial/pom.xml" in parent[0] else "initial"
    assert f"  same in `{other}/pom.xml`:" in text, text
