"""The Python miner's shortcuts give what the long way gives: a string literal's content without
``ast.literal_eval``, and the configuration queries run over the spans around their words instead
of the whole tree."""

from __future__ import annotations

import ast

import pytest
from tree_sitter import QueryCursor

from repomem.miners._pysource import _Source, _string_value
from repomem.miners.lang import LANGS, parse, query
from repomem.miners.lang import python as py

STRINGS = ['"plain"', "'single'", '""', "''", '"""triple\nlines"""', "'''a 'quoted' \"one\"'''",
           '""""""', "u'unicode'", 'U"x"', '"\'"', "'\"\"\"'", '"tab\there"', '"é ünï 😀"',
           r'"escaped\n"', r"'back\\slash'", 'r"raw"', r'r"raw\d"', 'b"bytes"', 'rb"x"',
           '"""ends with quote\\""""', '"a" "b"', '"a" \'b\' """c"""', "f'{x}'", 'F"lit"',
           r'"\N{BULLET}"', r'"\x41"', '"""\n"""', "'#not a comment'"]


@pytest.mark.parametrize("literal", STRINGS)
def test_a_string_literal_is_read_as_python_reads_it(literal):
    src = _Source(f"X = {literal}\n")
    root = parse(LANGS["python"], "strings.py", src.data).root_node
    node = root.named_children[0].named_children[0].child_by_field_name("right")
    prefix = literal[: len(literal) - len(literal.lstrip("rRbBuUfF"))].lower()
    if "f" in prefix:
        want = None  # an f-string is no literal, placeholders or not
    else:
        value = ast.literal_eval(literal)
        want = value if isinstance(value, str) else src.text(node)
    assert _string_value(src, node) == want


# CLI options and middleware: at module and class level, inside a function (middleware only),
# far apart (separate spans), a call that two spans intersect (found once), and words in other places (Exception,
# description) that are no option.
CONFIGURED = '''
import click, typer
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware


class OptionError(Exception):
    """description of an exception"""


@click.command()
@click.option("--port", default=8000, help="the port")
@click.argument("name")
def serve(port, name):
    app.add_middleware(CORSMiddleware, allow_origins=["*"])

    @click.option("--inner", default=1)
    def nested(inner):
        pass


class Commands:
    @click.option("--level", default=3)
    def run(self, level):
        pass


def main(port: int = typer.Option(5000, "--port"), verbose: bool = typer.Argument(False)):
    pass
''' + "\n# padding\n" * 300 + '''
middleware = [
    Middleware(CORSMiddleware, allow_origins=["https://example.org"],
''' + "               # padding\n" * 150 + '''
               allow_methods=["GET"], wrapping=GZipMiddleware),
    GZipMiddleware(app, minimum_size=1000),
]
'''


def test_configuration_spans_find_what_a_pass_over_the_whole_tree_finds():
    src = _Source(CONFIGURED)
    root = parse(LANGS["python"], "cli.py", src.data).root_node
    depth = py._fact_depth(root)
    whole = []
    for name, _, _, anywhere in py._CONFIG_QUERIES:
        cursor = QueryCursor(query(LANGS["python"], name))
        if not anywhere:
            cursor.set_max_start_depth(depth)
        whole += [caps for _, caps in cursor.matches(root)]

    def ids(matches):
        return sorted(tuple(sorted((k, tuple(n.id for n in v)) for k, v in caps.items())) for caps in matches)

    spanned = py._configuring(src, root, depth)
    assert len(py._spans(src.data, (b"iddleware",))) > 1  # the padding splits the file's spans
    assert ids(spanned) == ids(whole)
    # 4 decorators (the nested one too: _configured drops it), 2 typer parameters, 3 middleware calls
    assert len(whole) == 9


SETTINGS = '''import os


def from_host(name, default):
    return int(os.environ.get(name, default))


class Config:
    DEBUG = False
    POOL = from_host("POOL", 5)  # connections


class Dev(Config):
    DEBUG = True


class Article(models.Model):
    title = models.CharField(max_length=200, default="untitled")
    views = 0

    def __init__(self, limit=10):
        self.limit = limit

    def page(self, size=20):
        return size


def connect(timeout=30, retries=POOL_RETRIES):
    pass
'''


def _fresh(path: str, text: str):
    from repomem.miners import _pysettings, mine_file

    _pysettings._DEFINED.clear()
    return mine_file(path, text.encode())


def _fields(facts):
    return [(f.key, f.kind, f.value, f.line, f.text, f.purpose, f.attrs) for f in facts]


def test_settings_of_remembered_definitions_equal_freshly_mined_ones():
    """Each version is mined after the one before (most classes and functions come from the
    memo), and again with the memo emptied: every fact, line included, must agree.  The memo's
    key holds what a definition's facts depend on outside its text: a base class that stops
    being a settings class, a helper that stops reading the environment."""
    from repomem.miners import mine_file

    versions = [
        SETTINGS,
        "# moved down\n\n" + SETTINGS,  # every definition moves
        SETTINGS.replace("class Config:", "class Basic:").replace("class Dev(Config):", "class Dev(Basic):"),
        SETTINGS.replace("class Config:", "class Base:"),  # Dev's text is unchanged, its kind is not
        SETTINGS.replace("return int(os.environ.get(name, default))", "return int(default)"),
        SETTINGS.replace("max_length=200", "max_length=120"),
        SETTINGS.replace("# connections", "# pooled connections"),
    ]
    remembered = [mine_file("app/settings_mod.py", v.encode()) for v in versions]
    for v, got in zip(versions, remembered):
        assert _fields(got) == _fields(_fresh("app/settings_mod.py", v))
    # the cases above do change what is mined
    dev = [[(f.value, f.attrs) for f in fs if f.key.endswith(":Dev.DEBUG")] for fs in remembered]
    assert dev[0] == [("True", ())] and dev[3] == [("True", (("class", "true"),))]  # a plain attribute
    pool = [[(f.value, f.attrs) for f in fs if f.key.endswith(":Config.POOL")] for fs in remembered]
    assert pool[0] == [("5", (("env", "POOL"),))] and pool[4] != pool[0]
