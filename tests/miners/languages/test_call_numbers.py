"""The values a function body passes that no name states: the one number a call is given
(gin's ``db.DB().SetMaxIdleConns(10)``, ``bcrypt.hash(password, 10)``, mini-redis's
``broadcast::channel(1024)``), a struct literal's number fields (``Connection { buffer:
BytesMut::with_capacity(4 * 1024) }``), and a Rust command-line option's default (clap's
``#[arg(long, default_value = "127.0.0.1")]``); see repomem/miners/_arguments.py."""

from __future__ import annotations

from repomem.miners import mine_file
from repomem.service.query import ask, history
from tests.conftest import indexed

CONNECTION_RS = """use bytes::BytesMut;

pub struct Connection {
    stream: TcpStream,
    buffer: BytesMut,
}

impl Connection {
    pub fn new(socket: TcpStream) -> Connection {
        Connection {
            stream: socket,
            buffer: BytesMut::with_capacity(%s),
        }
    }

    pub fn frame(&self) -> Frame {
        let head = self.bytes.get(2);
        let tail = Vec::with_capacity(0);
        Frame::new(head, tail)
    }
}
"""
DATABASE_GO = """package common

import "time"

// Init opens the database.
func Init() *gorm.DB {
	db, err := gorm.Open("sqlite3", "./gorm.db")
	if err != nil {
		fmt.Println("db err: (Init) ", err)
	}
	db.DB().SetMaxIdleConns(%d)
	time.Sleep(5)
	fmt.Sprintf("%%d", 7)
	return db
}
"""
CLI_RS = """use clap::Parser;

#[derive(Parser, Debug)]
struct Cli {
    #[clap(subcommand)]
    command: Command,

    /// Where the server listens
    #[arg(id = "hostname", long, default_value = "%s")]
    host: String,

    #[arg(long, default_value_t = 6379)]
    port: u16,

    #[arg(long, default_value = "Zq8rT2vLx9Wk4Np7")]
    password: String,
}
"""
AUTH_SERVICE_TS = """import bcrypt from 'bcryptjs';

export const createUser = async (password: string) => {
  const hashed = await bcrypt.hash(password, 10);
  const short = password.substring(0, 8);
  res.status(404);
  throw createError(422, 'no');
};
"""
VIEWS_PY = """from django.core.paginator import Paginator


def search(request, results):
    paginator = Paginator(results, 10)
    for i in range(10):
        print(i, 20)
    _set_progress(100)
    return paginator.page(request.GET.get("page"), 3, 4)
"""


FIRST = {"argument": "true", "position": "1"}


def _config(path: str, text: str) -> dict[str, tuple[str, dict]]:
    return {f.key: (f.value, dict(f.attrs)) for f in mine_file(path, text.encode()) if f.kind == "config"}


def test_a_calls_only_number_is_a_setting_of_the_calling_function():
    assert _config("common/database.go", DATABASE_GO % 10) == {
        "config:common/database.go:Init.db.DB.SetMaxIdleConns": ("10", {"argument": "true", "position": "1"}),
        "config:common/database.go:Init.gorm.Open": ("./gorm.db", {"argument": "true", "path": "true",
                                                                   "position": "2"})}
    assert _config("src/auth/auth.service.ts", AUTH_SERVICE_TS) == {
        "config:src/auth/auth.service.ts:createUser.bcrypt.hash": ("10", {"argument": "true", "position": "2"})}
    # range, print: no setting; two numbers: which one is not known; a private helper's: no setting
    assert _config("app/views.py", VIEWS_PY) == {
        "config:app/views.py:search.Paginator": ("10", {"argument": "true", "position": "2"})}
    assert _config("tests/test_views.py", VIEWS_PY) == {}
    assert _config("common/database_test.go", DATABASE_GO % 10) == {}


def test_a_struct_literals_number_field_is_a_setting_of_the_making_function():
    got = _config("src/connection.rs", CONNECTION_RS % "4 * 1024")
    assert got == {"config:src/connection.rs:Connection.new.Connection.buffer": ("4096", {"field": "true"}),
                   "config:src/connection.rs:Connection.new.BytesMut.with_capacity": ("4096", FIRST)}


def test_a_rust_cli_options_default_is_a_setting():
    got = _config("src/bin/cli.rs", CLI_RS % "127.0.0.1")
    assert got["config:src/bin/cli.rs:Cli.hostname.default"] == ("127.0.0.1", {"default": "true", "option": "true"})
    assert got["config:src/bin/cli.rs:Cli.port.default"][0] == "6379"
    # a constant's name is no default stated: the constant states its value
    assert not _config("src/bin/cli.rs", CLI_RS.replace("default_value_t = 6379", "default_value_t = DEFAULT_PORT"))\
        .get("config:src/bin/cli.rs:Cli.port.default")
    assert got["config:src/bin/cli.rs:Cli.password.default"][0].startswith("<redacted:")
    assert not [f for f in mine_file("src/bin/cli.rs", (CLI_RS % "x").encode())
                if "Zq8rT2vLx9Wk4Np7" in f"{f.value} {f.text}"]
    assert not [k for k in got if "command" in k]


def test_body_values_have_a_history_and_answer(tmp_path):
    r = indexed(tmp_path / "repo",
                ("2026-02-01T10:00:00+00:00", {"src/connection.rs": CONNECTION_RS % "4 * 1024",
                                                  "src/bin/cli.rs": CLI_RS % "127.0.0.1",
                                                  "common/database.go": DATABASE_GO % 10}),
                ("2026-03-01T10:00:00+00:00", {"src/connection.rs": CONNECTION_RS % "8 * 1024",
                                                  "src/bin/cli.rs": CLI_RS % "0.0.0.0"}))
    buffer = "config:src/connection.rs:Connection.new.Connection.buffer"
    assert [v["value"] for v in history(r, buffer)["versions"]] == ["4096", "8192"]
    host = "config:src/bin/cli.rs:Cli.hostname.default"
    assert [v["value"] for v in history(r, host)["versions"]] == ["127.0.0.1", "0.0.0.0"]
    got = ask(r, "how many idle connections does the database pool keep?")
    assert got["facts"][0]["key"] == "config:common/database.go:Init.db.DB.SetMaxIdleConns", \
        [f["key"] for f in got["facts"]]


POOL_JAVA = """package org.example;

class Pool {
    void setUp() {
        executor.setCorePoolSize(4);
        Thread.sleep(1000);
        String s = name.substring(0, 3);
        throw new IllegalStateException(String.valueOf(500));
    }
}
"""


def test_a_java_calls_only_number_and_what_is_no_setting():
    assert _config("src/main/java/org/example/Pool.java", POOL_JAVA) == {
        "config:src/main/java/org/example/Pool.java:Pool.setUp.executor.setCorePoolSize": ("4", FIRST)}


def test_a_broken_or_odd_call_is_no_traceback():
    odd = {"src/a.rs": "fn f() { Vec::<u8>::with_capacity(4096); make()(30)(40); x.y(1 << 200); }\n",
           "a/b.go": "package b\n\nfunc F() { g(1e400); h(0x10); T{A: 99999999999999999999999}; }\n",
           "src/c.ts": "export function f() { g(1 / 0, 'x'); h(-7); k(...[1, 2]); }\n",
           "app/d.py": "def f():\n    g(1 // 0)\n    h(-7)\n    k(*[5])\n    (lambda: 1)(30)\n"}
    got = {p: _config(p, t) for p, t in odd.items()}
    assert got["src/c.ts"] == {"config:src/c.ts:f.h": ("-7", {"argument": "true", "position": "1"})}
    assert got["app/d.py"] == {"config:app/d.py:f.h": ("-7", {"argument": "true", "position": "1"})}
    assert got["a/b.go"]["config:a/b.go:F.h"] == ("16", {"argument": "true", "position": "1"})
    assert got["a/b.go"]["config:a/b.go:F.g"] == ("1e400", {"argument": "true", "position": "1"})  # as written, not inf
    assert got["src/a.rs"] == {}


POOL_KT = """package org.example

class Pool {
    fun setUp() {
        executor.setCorePoolSize(4)
        pool(size = 10)
        Thread.sleep(1000)
        list.get(3)
    }
}
"""


def test_a_kotlin_calls_only_number_not_one_passed_by_name():
    assert _config("src/main/kotlin/org/example/Pool.kt", POOL_KT) == {
        "config:src/main/kotlin/org/example/Pool.kt:Pool.setUp.executor.setCorePoolSize": ("4", FIRST)}
