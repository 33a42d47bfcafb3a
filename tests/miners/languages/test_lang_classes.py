"""Classes of JavaScript, TypeScript, Go, Rust, Java and Kotlin as facts, like Python's: a class,
interface, struct, trait, enum or type alias by its name, its bases and doc comment, its identity
surviving a rename (node-express-realworld's "what is the article model?" found no interface)."""

from __future__ import annotations

import pytest

from repomem.miners.lang.walker import MINER
from repomem.service.query import ask, history
from tests.conftest import indexed

SOURCES = {
    "js": ("a.js", "/** A user of the site. */\nclass User extends Base {\n  constructor(name) {\n"
                   "    this.name = name;\n  }\n}\nfunction f() {\n  class Local {}\n}\n",
           [("User", "extends Base", "A user of the site.", 2)]),
    "ts": ("a.ts", "export interface Article {\n  slug: string;\n}\n/** Roles a user may have. */\n"
                   "export enum Role { Admin, User }\nexport type Id = string | number;\n"
                   "export abstract class Repo<T> implements Store<T> {\n  abstract get(id: Id): T;\n}\n",
           [("Article", "", "article", 1), ("Role", "", "Roles a user may have.", 5), ("Id", "", "id", 6),
            ("Repo", "implements Store<T>", "repo", 7)]),
    "go": ("a.go", "package main\n\n// Server serves requests.\ntype Server struct {\n\tAddr string\n}\n\n"
                   "type Handler interface {\n\tServe()\n}\n\nfunc f() {\n\ttype local struct{}\n}\n",
           [("Server", "", "Server serves requests.", 4), ("Handler", "", "handler", 8)]),
    "rs": ("a.rs", "/// A point in space.\npub struct Point { x: i32, y: i32 }\npub enum Shape { Circle, Square }\n"
                   "pub trait Draw { fn draw(&self); }\n",
           [("Point", "", "A point in space.", 2), ("Shape", "", "shape", 3), ("Draw", "", "draw", 4)]),
    "java": ("A.java", "/** Users. */\npublic class UserController extends Base implements Api {\n"
                       "  public void get() {}\n}\nenum Color { RED }\n",
             [("UserController", "extends Base implements Api", "Users.", 2), ("Color", "", "color", 5)]),
    "kt": ("A.kt", "/** A user of the site. */\ndata class User(val name: String) : Base(), Api\n"
                   "/** The app's settings. */\nobject Settings {\n  fun load() = 1\n}\n"
                   "interface Store {\n  fun get(id: Long): User\n}\nenum class Color { RED }\n"
                   "fun f() {\n  class Local\n}\n",
           [("User", "(val name: String) : Base(), Api", "A user of the site.", 2),
            ("Settings", "", "The app's settings.", 4), ("Store", "", "store", 7), ("Color", "", "color", 10)]),
}


@pytest.mark.parametrize("lang", sorted(SOURCES))
def test_class_facts(lang):
    path, src, want = SOURCES[lang]
    got = [(f.value, dict(f.attrs)["bases"], f.purpose, f.line) for f in MINER.mine(path, src)
           if f.kind == "class"]
    assert got == want  # not a class local to a function
    cls = next(f for f in MINER.mine(path, src) if f.kind == "class")
    assert (cls.key, cls.anchor, cls.subject) == ("class", f"{path}::class {want[0][0]}", f"class {want[0][0]}")


RENAMED = {
    "js": ("lib/user.js", "class {n} {{\n  constructor(name, email) {{\n    this.name = name;\n"
                          "    this.email = email.toLowerCase();\n  }}\n}}\n"),
    "ts": ("src/article.model.ts", "export interface {n} {{\n  id: number;\n  title: string;\n"
                                   "  slug: string;\n  description: string;\n}}\n"),
    "go": ("server.go", "package main\n\ntype {n} struct {{\n\tAddr string\n\tPort int\n\tTLS bool\n"
                        "\tTimeout int\n}}\n"),
    "rs": ("src/point.rs", "pub struct {n} {{\n    x: i32,\n    y: i32,\n    z: i32,\n    label: String,\n}}\n"),
    "java": ("src/Account.java", "public class {n} {{\n  private String owner;\n  private long balance;\n"
                                 "  private boolean frozen;\n}}\n"),
    "kt": ("src/Account.kt", "class {n}(val owner: String) {{\n  private var balance: Long = 0\n"
                             "  private var frozen = false\n"
                             "  fun deposit(amount: Long) {{\n    balance += amount\n  }}\n}}\n"),
}


@pytest.mark.parametrize("lang", sorted(RENAMED))
def test_a_renamed_class_is_one_history(new_repo, lang):
    path, src = RENAMED[lang]
    r = indexed(new_repo(), ("2024-01-01T10:00:00Z", {path: src.format(n="Model")}),
                ("2024-02-01T10:00:00Z", {path: src.format(n="Record")}))
    got = history(r, "Record")["versions"]
    assert [(v["value"], v["end_reason"]) for v in got] == [("Model", "superseded"), ("Record", None)]
    top = ask(r, "What is the Record class?")["facts"][0]
    assert (top["kind"], top["value"]) == ("class", "Record")


def test_an_undocumented_records_purpose_names_its_components():
    got = {f.value: f.purpose for f in MINER.mine(
        "src/Greeting.java", "public record Greeting(long id, String content) { }\n"
                             "/** A documented one. */\nrecord Doc(int x) { }\nclass Plain { }\n")
        if f.kind == "class"}
    assert got == {"Greeting": "greeting (id, content)", "Doc": "A documented one.",
                   "Plain": "plain"}
