"""The query-driven miners file by file: what each language states, and what it leaves out."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from repomem.core.identity import match_moves
from repomem.core.model import FUNCTION, Fact
from repomem.miners import mine_file
from repomem.miners.lang.walker import MINER
from repomem.miners.manifests import MINER as MANIFESTS
from repomem.service.check import scannable


def mine(path, src):
    return MINER.mine(path, textwrap.dedent(src))


def by_kind(facts, kind):
    return {f.value: f for f in facts if f.kind == kind}


def test_javascript_definitions_and_purposes():
    facts = mine("lib/response.js", """
        'use strict';
        var deprecate = require('depd')('express');

        /**
         * Send a response.
         *
         * @param {string|number|boolean|object|Buffer} body
         * @public
         */
        res.send = function send(body) {
          var chunk = body;
          return this;
        };

        // Set the Content-Type of the response.
        exports.type = (type) => type;

        function helper(a) {
          function nested() { return a; }
          return nested();
        }

        class Router {
          /** Dispatch a request. */
          handle(req, res, out) { return out(); }
          #secret() {}
        }
        """)
    funcs = {f.anchor.split("::")[1]: f for f in facts if f.kind == FUNCTION}
    assert set(funcs) == {"res.send", "exports.type", "helper", "Router.handle", "Router.#secret"}
    assert funcs["res.send"].purpose == "Send a response."
    assert funcs["res.send"].subject == "method res.send" and funcs["res.send"].value == "send"
    assert funcs["exports.type"].purpose == "Set the Content-Type of the response."
    assert funcs["Router.handle"].purpose == "Dispatch a request."
    assert funcs["helper"].purpose == "helper (a)"  # no doc: words of the signature
    assert funcs["res.send"].attrs[2] == ("signature", "res.send = function send(body)")


def test_typescript_and_tsx():
    facts = mine("web/src/auth.tsx", """
        import { useState } from 'react';

        /** The current user, and the login and logout actions. */
        export function useAuth(): AuthState {
          const [user, setUser] = useState<User | null>(null);
          return { user, login: (u: User) => setUser(u), logout: () => setUser(null) };
        }

        export const isLoggedIn = (state: AuthState): boolean => state.user !== null;

        export const LoginButton = ({ onClick }: Props) => <button onClick={onClick}>Log in</button>;

        export class Store {
          reset = (): void => { this.items = []; };
        }
        """)
    funcs = {f.value: f for f in facts if f.kind == FUNCTION}
    assert set(funcs) == {"useAuth", "isLoggedIn", "LoginButton", "reset"}
    assert funcs["useAuth"].purpose == "The current user, and the login and logout actions."
    assert funcs["isLoggedIn"].purpose == "is logged in (state) returns boolean"
    assert funcs["reset"].anchor == "web/src/auth.tsx::Store.reset"


def test_constants_are_literal_and_module_level():
    js = by_kind(mine("src/config.ts", """
        export const MAX_RETRIES = 3;
        const TIMEOUT_MS = -1.5;
        export const NAME = 'api';
        const TEMPLATE = `v${MAX_RETRIES}`;
        const LEVELS = ['debug', 'info'];
        const client = createClient();
        function f() { const INNER = 4; return INNER; }
        """), "constant")
    assert {f.key: v for v, f in js.items()} == {
        "constant:src/config.ts:MAX_RETRIES": "3", "constant:src/config.ts:TIMEOUT_MS": "-1.5",
        "constant:src/config.ts:NAME": "api", "constant:src/config.ts:LEVELS": "[debug, info]"}
    go = by_kind(mine("cmd/main.go", """
        package main

        // DefaultPort is where the server listens.
        const DefaultPort = 8080
        const (
            Name = "svc"
            Mode = iota
        )
        """), "constant")
    assert set(go) == {"8080", "svc"}
    assert go["8080"].purpose == "default port - DefaultPort is where the server listens."
    rust = by_kind(mine("src/lib.rs", """
        pub const MAX: u32 = 3;
        static GREETING: &str = "hi";
        impl Server { const PORT: u16 = 80; }
        """), "constant")
    assert {f.key for f in rust.values()} == {
        "constant:src/lib.rs:MAX", "constant:src/lib.rs:GREETING", "constant:src/lib.rs:Server.PORT"}
    java = by_kind(mine("src/A.java", """
        public class A {
            public static final int MAX = 3;
            private final int notStatic = 4;
            static int notFinal = 5;
        }
        """), "constant")
    assert {f.key: v for v, f in java.items()} == {"constant:src/A.java:A.MAX": "3"}


def test_express_koa_and_route_chains():
    facts = mine("server.js", """
        const express = require('express');
        const Router = require('@koa/router');
        const app = express();
        const v1 = new Router({ prefix: '/v1' });

        /** List the books. */
        app.route('/book').get(listBooks).post((req, res) => res.send('ok'));
        v1.get('/items', (ctx) => { ctx.body = []; });
        app.get('env');
        cache.get('/key', value);

        function listBooks(req, res) { res.json([]); }
        """)
    routes = by_kind(facts, "route")
    assert set(routes) == {"GET /book", "POST /book", "GET /v1/items"}
    assert routes["GET /book"].anchor == "server.js::listBooks" and routes["GET /book"].key == "route"
    assert routes["POST /book"].key == "route:server.js:POST /book" and routes["POST /book"].anchor is None
    assert routes["POST /book"].purpose.startswith("List the books.")
    assert dict(routes["GET /v1/items"].attrs)["router"] == "server:v1"


def test_go_gin_groups_and_spring():
    go = by_kind(mine("api/routes.go", """
        package api

        func Setup(r *gin.Engine) {
            v1 := r.Group("/v1")
            users := v1.Group("/users")
            users.GET("/:id", getUser)
            r.POST("/login", func(c *gin.Context) {})
            m := map[string]int{}
            m.Get("x", 1)
        }

        func getUser(c *gin.Context) { c.JSON(200, nil) }
        """), "route")
    assert set(go) == {"GET /v1/users/:id", "POST /login"}
    assert go["GET /v1/users/:id"].anchor == "api/routes.go::getUser"
    java = by_kind(mine("src/UserController.java", """
        @RestController
        @RequestMapping(value = "/api/users")
        public class UserController {
            @RequestMapping(value = "/{id}", method = RequestMethod.DELETE)
            public void remove(@PathVariable long id) { repo.deleteById(id); }

            @PostMapping
            public User create(@RequestBody User u) { return repo.save(u); }
        }
        """), "route")
    assert set(java) == {"DELETE /api/users/{id}", "POST /api/users"}


def test_unparseable_and_skipped_files():
    import pytest

    from repomem.miners import MineError

    with pytest.raises(MineError, match="syntax error near line 2"):
        mine("a.js", "function ok() { return 1; }\nfunction broken( {\n")
    assert not MINER.accepts("node_modules/x/index.js") and not MINER.accepts("dist/app.min.js")
    assert not MINER.accepts("types/index.d.ts") and MINER.accepts("src/App.tsx")


def test_manifests():
    gomod = {f.key: f.value for f in MANIFESTS.mine("svc/go.mod", textwrap.dedent("""
        module example.com/svc

        go 1.22
        toolchain go1.22.3

        require (
            github.com/gin-gonic/gin v1.9.1
            golang.org/x/text v0.14.0 // indirect
        )
        replace github.com/a/b => ../b
        """))}
    assert gomod == {"config:svc/go.mod:module": "example.com/svc",
                     "dependency:go:svc:engines:go": "1.22",
                     "dependency:go:svc:engines:toolchain": "go1.22.3",
                     "dependency:go:svc:main:github.com/gin-gonic/gin": "v1.9.1",
                     "dependency:go:svc:indirect:golang.org/x/text": "v0.14.0"}
    cargo = {f.key: (f.value, dict(f.attrs).get("features")) for f in MANIFESTS.mine(
        "Cargo.toml", textwrap.dedent("""
        [package]
        name = "x"
        rust-version = "1.74"

        [dependencies]
        serde = { version = "1.0", features = ["derive"] }
        local = { path = "../local" }

        [dev-dependencies]
        tokio = "1"

        [target.'cfg(unix)'.dependencies]
        libc = "0.2"
        """))}
    assert cargo == {"dependency:cargo:.:engines:rust": ("1.74", None),
                     "dependency:cargo:.:main:serde": ("1.0", "derive"),
                     "dependency:cargo:.:main:local": ("path:../local", None),
                     "dependency:cargo:.:dev:tokio": ("1", None),
                     "dependency:cargo:.:main@cfg(unix):libc": ("0.2", None)}
    npm = {f.key: f.value for f in mine_file("web/package.json",
                                             b'{"engines": {"node": ">=18", "pnpm": ">=8"}}')
           if f.kind == "dependency"}
    assert npm == {"dependency:npm:web:engines:node": ">=18", "dependency:npm:web:engines:pnpm": ">=8"}


def test_manifest_dependencies_are_not_also_settings():
    cargo = mine_file("Cargo.toml", b'[package]\nname = "x"\nrust-version = "1.74"\n'
                                    b'[dependencies]\nserde = "1.0"\n[dev-dependencies]\ntokio = "1"\n'
                                    b"[target.'cfg(unix)'.dependencies]\nlibc = \"0.2\"\n")
    assert {f.kind for f in cargo if "serde" in f.key or "tokio" in f.key or "libc" in f.key
            or "rust" in f.key} == {"dependency"}
    assert any(f.key == "config:Cargo.toml:package.name" for f in cargo)  # other keys stay
    npm = mine_file("package.json", b'{"name": "w", "engines": {"node": ">=18", "pnpm": ">=8"}}')
    assert [f.kind for f in npm if "engines" in f.key] == ["dependency", "dependency"]


def test_check_reads_comments_from_the_syntax_tree():
    src = 'const u = "http://x/api/v1/users"; // see /api/v1/users\n/*\n old /api/v0\n*/\nlet a = 1;\n'
    assert [(i, t) for i, t, _ in scannable("a.ts", src)] == [
        (1, "// see /api/v1/users"), (2, "/*"), (3, "old /api/v0"), (4, "*/")]
    assert [i for i, _, _ in scannable("lib.rs", "/// Uses PORT 8080\nfn f() {}\n")] == [1]


def _fn(anchor, fp):
    return Fact(key="function", kind=FUNCTION, subject="", value="", path=anchor.split("::")[0],
                line=1, text="", purpose="", anchor=anchor, fingerprint=fp)


def test_identity_is_language_aware():
    body_js = "const raw = read ( path , 'utf8' ) ; return parse ( raw , defaults ) ;"
    body_ts = 'const raw = read ( path , "utf8" ) return parse ( raw , defaults )'
    assert match_moves([_fn("a.js::load", body_js)], [_fn("a.ts::load", body_ts)]) == [
        ("a.js::load", "a.ts::load")]
    # the same tokens in another language are another function
    assert match_moves([_fn("a.py::load", body_js)], [_fn("a.go::load", body_js)]) == []


def test_grammars_load_lazily():
    code = ("import sys; from repomem.miners import mine_file; "
            "mine_file('a.go', b'package a\\nfunc F() {}\\n'); "
            "print(sorted(m for m in sys.modules if m.startswith('tree_sitter_') and '.' not in m))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['tree_sitter_go']"


def test_routes_in_test_files_are_fixtures():
    src = "const app = express();\napp.get('/x', (req, res) => res.send('x'));\n"
    assert by_kind(mine("src/app.js", src), "route")
    for path in ("test/app.router.js", "src/__tests__/a.js", "src/a.spec.ts"):
        assert not by_kind(mine(path, src), "route"), path


def test_small_error_islands_are_tolerated_but_broken_structure_is_not():
    import pytest

    from repomem.miners import MineError

    body = "".join(f"function f{i}(a) {{\n  return a + {i};\n}}\n\n" for i in range(40))
    island = body + "let x = 1 ## 2;\n"  # a few bytes the grammar cannot place
    assert len(by_kind(mine("a.js", island), FUNCTION)) == 40
    with pytest.raises(MineError):
        mine("a.js", body.replace("function f20(a) {", "function f20(a) {{"))  # unclosed brace
    koa = by_kind(mine("r.js", "const router = new Router();\nrouter.get('user', '/users/:id', show);\n"),
                  "route")
    assert set(koa) == {"GET /users/:id"}
    # the island really is an error, only a small one
    from repomem.miners.lang import LANGS, load
    assert load(LANGS["javascript"])[0].parse(island.encode()).root_node.has_error


def test_jsdoc_one_blank_line_away_but_not_a_line_comment():
    funcs = {f.value: f for f in mine("lib/app.js", """
        /**
         * Check if `setting` is enabled (truthy).
         */

        app.enabled = function enabled(setting) {
          return Boolean(this.set(setting));
        };

        // Unrelated note.

        function plain(a) { return a; }
        """) if f.kind == FUNCTION}
    assert funcs["enabled"].purpose == "Check if `setting` is enabled (truthy)."
    assert funcs["plain"].purpose == "plain (a)"


def test_a_missing_grammar_is_a_one_line_mine_error(monkeypatch):
    import pytest

    from repomem.miners import MineError, lang

    fake = lang.Lang("go", family="go", module="tree_sitter_nonexistent_grammar", func="language",
                     query="go.scm")
    monkeypatch.setitem(lang.LANGS, "go", fake)
    monkeypatch.delitem(lang._LOADED, "go", raising=False)
    with pytest.raises(MineError, match="tree-sitter-nonexistent-grammar is not installed"):
        MINER.mine("a.go", "package a\n")
    # not monkeypatch.delitem: its undo would put the fake grammar's error back for later tests
    # (the go grammar was not loaded before in this process, so nothing else restores it)
    lang._LOADED.pop("go", None)


def test_chained_assignment_is_one_function_named_by_its_innermost_binding():
    """express's ``res.contentType = res.type = function contentType(type)``: one function (one
    body, one identity), named ``res.type``, its alias in the signature and text, its JSDoc the
    purpose; a chain inside a function body stays a private detail."""
    facts = mine("lib/response.js", """
        /**
         * Set _Content-Type_ response header with `type`.
         */
        res.contentType =
        res.type = function contentType(type) {
          return this.set('Content-Type', type);
        };

        exports.init = function init(app) {
          app.a = app.b = function inner() { return 1; };
        };
        """)
    funcs = {f.subject: f for f in facts if f.kind == FUNCTION}
    assert sorted(funcs) == ["function exports.init", "method res.type"]
    f = funcs["method res.type"]
    assert (f.value, f.line, f.anchor) == ("type", 5, "lib/response.js::res.type")
    assert f.purpose == "Set _Content-Type_ response header with `type`."
    assert dict(f.attrs)["signature"] == "res.contentType = res.type = function contentType(type)"
    assert dict(f.attrs)["aliases"] == "res.contentType"  # asked for by that name too
    assert "aliases" not in dict(funcs["function exports.init"].attrs)
    assert f.text.startswith("res.contentType =\nres.type = function")


def test_js_constants_read_from_the_environment():
    """node-express-realworld's `const PORT = process.env.PORT || 3000` was no fact: "what port
    does the server listen on?" found the Dockerfile only.  Like Python's os.environ.get("PORT",
    3000) it is worth its default, the variable in attrs.env; a secret's default is redacted."""
    from repomem.miners import mine_file

    src = (b"const PORT = process.env.PORT || 3000;\n"
           b"export const HOST = process.env['HOST'] ?? '0.0.0.0';\n"
           b"const WORKERS = parseInt(process.env.WORKERS, 10) || 4;\n"
           b"const SECRET = process.env.JWT_SECRET || 'superSecret';\n"
           b"const OTHER = settings.port || 3;\n"
           b"function f() {\n  const LOCAL = process.env.LOCAL || 1;\n}\n")
    got = {f.key.rsplit(":", 1)[-1]: (f.value, f.attrs) for f in mine_file("src/main.ts", src)
           if f.kind == "constant"}
    assert got["PORT"] == ("3000", (("env", "PORT"),))
    assert got["HOST"] == ("0.0.0.0", (("env", "HOST"),))
    assert got["WORKERS"] == ("4", (("env", "WORKERS"),))
    assert got["SECRET"][0].startswith("<redacted:") and got["SECRET"][1] == (("env", "JWT_SECRET"),)
    assert set(got) == {"PORT", "HOST", "WORKERS", "SECRET"}  # not another object's, nor a local


JEST_CONFIG = b"""/** Unit tests of the API. */
export default {
  displayName: 'api',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  // generous: the database starts in a container
  testTimeout: 60 * 1000,
  transform: { '^.+\\\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.spec.json' }] },
  setup: () => {},
} satisfies Config;
"""


def test_js_config_files_export_settings():
    """jest.config.ts, webpack.config.js, .eslintrc.js, config/production.js: the object such a
    file exports is settings, one fact per leaf keyed by file and dotted path like a JSON config
    (``config:jest.config.ts:testEnvironment``); a leaf computed by code is stated as written
    (attrs.expression), an environment lookup is worth its default (attrs.env), a function is no
    setting, and a secret is redacted.  "What is the jest test environment?" found nothing."""
    got = {f.key: f for f in mine_file("jest.config.ts", JEST_CONFIG) if f.kind == "config"}
    assert sorted(got) == [f"config:jest.config.ts:{k}" for k in (
        "displayName", "testEnvironment", "testMatch", "testTimeout", r"transform.^.+\\.ts$")]
    env = got["config:jest.config.ts:testEnvironment"]
    assert (env.value, env.line, env.text) == ("node", 4, "  testEnvironment: 'node',")
    assert env.subject == "testEnvironment in jest.config.ts"
    assert env.purpose == "test environment - Unit tests of the API."
    timeout = got["config:jest.config.ts:testTimeout"]
    assert (timeout.value, timeout.attrs) == ("60 * 1000", (("expression", "true"),))
    assert timeout.purpose.startswith("test timeout - generous: the database")
    assert got["config:jest.config.ts:testMatch"].value == "[<rootDir>/src/**/*.spec.ts]"

    src = (b"module.exports = defineConfig({\n"
           b"  port: Number(process.env.PORT) || 8080,\n"
           b"  db: { url: 'postgres://localhost/app', pool: [{ min: 2 }, { max: 10 }] },\n"
           b"  sessionSecret: 'k8Hs9dLq2mZp4XvR',\n"
           b"});\n")
    got = {f.key.rsplit(":", 1)[-1]: (f.value, f.attrs) for f in mine_file("config/production.js", src)}
    assert got.pop("port") == ("8080", (("env", "PORT"),))
    assert got.pop("sessionSecret")[0].startswith("<redacted:")
    assert got == {"db.url": ("postgres://localhost/app", ()), "db.pool.0.min": ("2", ()),
                   "db.pool.1.max": ("10", ())}
    # the same object in a module that is not a config file states no setting, only that the
    # module reads PORT (repomem/miners/envvars.py), worth 8080 unless set
    got = [(f.key, f.value) for f in mine_file("src/app.js", src) if f.kind in ("config", "constant")]
    assert got == [("config:src/app.js:env.PORT", "8080")]


def test_js_object_constants_named_as_configuration():
    """Outside config files an object constant is settings when its name says so (corsOptions,
    DEFAULT_CONFIG, SETTINGS), its literal leaves only: any other object (a lookup table, a
    component's state) is no setting, and a leaf computed from names is left out.  The options a call is
    given are settings whatever the binding's name (a router's, a jwt middleware's), kind config."""
    src = (b"export const corsOptions = { origin: ['https://app.example.com'], credentials: true,\n"
           b"  maxAge: ONE_DAY };\n"
           b"const DEFAULTS = { retries: 3, backoff: { factor: 2 }, timeoutMs: 60 * 1000 } as const;\n"
           b"const router = Router({ mergeParams: true });\n"
           b"const auth = { required: jwt({ algorithms: ['HS256'] }) };\n"
           b"function f() { const localOptions = { a: 1 }; }\n")
    got = {f.key: f.value for f in mine_file("src/app.ts", src) if f.kind in ("config", "constant")}
    assert got == {"constant:src/app.ts:corsOptions.origin": "[https://app.example.com]",
                   "constant:src/app.ts:corsOptions.credentials": "true",
                   "constant:src/app.ts:DEFAULTS.retries": "3",
                   "constant:src/app.ts:DEFAULTS.backoff.factor": "2",
                   "constant:src/app.ts:DEFAULTS.timeoutMs": "60000",  # literal arithmetic folded
                   "config:src/app.ts:router.mergeParams": "true",
                   "config:src/app.ts:auth.required.algorithms": "[HS256]"}


def test_calls_are_not_read_inside_string_literals():
    """What a body calls leaves out names in its strings, each language's own: a JS template
    literal, a Go raw string; a Rust lifetime ('a) is no quote."""
    js = by_kind(mine("src/users.js", """
        function saveUser(user) {
          log(`saving ${user.id}: call validate() first`);
          throw new Error("use connect(db) before save()");
        }
        """), "function")
    assert dict(js["saveUser"].attrs)["calls"] == "log, Error"
    go = by_kind(mine("store.go", """
        package store

        func Save(db *DB) error {
            fmt.Println(`raw open() text`)
            return db.Exec("INSERT INTO t VALUES (now())")
        }
        """), "function")
    assert dict(go["Save"].attrs)["calls"] == "fmt.Println, db.Exec"
    rs = by_kind(mine("src/lib.rs", """
        pub fn longest<'a>(x: &'a str, y: &'a str) -> &'a str {
            let n = count(x);
            helper(y, "not(this)")
        }
        """), "function")
    assert dict(rs["longest"].attrs)["calls"] == "count, helper"



def test_what_a_body_catches_by_language():
    """Java's catch parameters name the types caught (a multi-catch each); JavaScript's
    untyped ``catch (err)`` and a promise's ``.catch`` name none."""
    java = by_kind(mine("src/Io.java", """
        class Io {
            void load() {
                try { read(); } catch (IOException | java.util.concurrent.TimeoutException e) {
                    log(e);
                } catch (final RuntimeException ex) { throw ex; }
            }
        }
        """), "function")
    assert dict(java["load"].attrs)["catches"] == \
        "IOException, java.util.concurrent.TimeoutException, RuntimeException"
    js = by_kind(mine("src/load.js", """
        function load() {
          try { read(); } catch (err) { log(err); }
          return fetch('/x').catch(e => null);
        }
        """), "function")
    assert "catches" not in dict(js["load"].attrs)

USER_MODEL = """const mongoose = require('mongoose');
const { Schema } = mongoose;

/** A registered account. */
const userSchema = new mongoose.Schema({
  username: { type: String, required: true, unique: true, maxlength: 30 },
  email: String,
  apiKey: { type: String, default: 'Zq8rT4vW2yX6bN0mK3pL' },
  posts: [{ type: Schema.Types.ObjectId, ref: 'Post' }],
}, { timestamps: true });

const notASchema = new Map([['a', 1]]);

module.exports = mongoose.model('User', userSchema);
"""


def test_a_mongoose_schema_is_a_data_model():
    """`new mongoose.Schema({...})` (or `new Schema`) bound to a constant: each field's leaf is
    a setting of the model, as written (`String`, `Schema.Types.ObjectId`), attrs.field; the
    default of a field named like a secret is redacted, and so is every copy of it in another
    leaf's source text."""
    facts = mine_file("models/user.js", USER_MODEL.encode())
    got = {f.key.split(":", 2)[2]: f for f in facts if f.kind == "config"}
    assert {k: f.value for k, f in got.items() if "apiKey" not in k} == {
        "userSchema.username.type": "String", "userSchema.username.required": "true",
        "userSchema.username.unique": "true", "userSchema.username.maxlength": "30",
        "userSchema.email": "String", "userSchema.posts.0.type": "Schema.Types.ObjectId",
        "userSchema.posts.0.ref": "Post"}
    assert all(("field", "true") in f.attrs for f in got.values())
    assert got["userSchema.apiKey.type"].value == "String"
    assert got["userSchema.apiKey.default"].value.startswith("<redacted:")
    assert not [f.key for f in facts if "Zq8r" in f.value + f.text + f.purpose]
    assert got["userSchema.username.maxlength"].line == 6
    assert got["userSchema.username.maxlength"].purpose.endswith("A registered account.")


def test_go_parameters_declared_together_are_each_named_in_the_purpose():
    funcs = by_kind(mine("articles/models.go", """
        package articles

        func FindManyArticle(tag, author, limit, offset, favorited string) ([]Article, error) {
            return nil, nil
        }

        func Count(ctx context.Context, tag string) int { return 0 }
        """), FUNCTION)
    assert funcs["FindManyArticle"].purpose == \
        "find many article (tag, author, limit, offset, favorited) returns ([]Article, error)"
    assert funcs["Count"].purpose == "count (tag) returns int"


def test_a_bodys_comments_are_its_notes_not_its_strings_nor_directives():
    funcs = by_kind(mine("src/auth.js", """
        /** Documented. */
        function generateToken(id) {
          // Sign the user's id: the token lasts "60 days".
          /* The secret comes from
           * the environment. */
          return jwt.sign({ id }, secret(), { expiresIn: '60d' }); // eslint-disable-line
        }
        function url() {
          return 'http://example.com/path' + sign(); // TODO: https
        }
        """), FUNCTION)
    notes = dict(funcs["generateToken"].attrs)["notes"]
    assert notes == ("Sign the user's id: the token lasts \"60 days\".; The secret comes from; "
                     "the environment.")
    assert "notes" not in dict(funcs["url"].attrs)  # a URL's // is a string's; a TODO is no note
    assert dict(funcs["url"].attrs)["calls"] == "sign"
    py = by_kind(mine_file("app/x.py", textwrap.dedent("""
        def run(port=8000):
            # Serve until interrupted.
            serve(port, "#not-a-comment")  # pragma: no cover
        """).encode()), FUNCTION)
    assert dict(py["run"].attrs)["notes"] == "Serve until interrupted."


def test_a_constants_comment_after_it_on_its_line_is_its_purpose_not_the_next_ones():
    js = by_kind(mine("src/limits.js", """
        const MAX_RETRIES = 5; // attempts before giving up
        const LINT = 7; // eslint-disable-line
        const PLAIN = 8;
        """), "constant")
    assert {f.value: f.purpose for f in js.values()} == {
        "5": "max retries - attempts before giving up", "7": "lint", "8": "plain"}
    go = by_kind(mine("pool/pool.go", """
        package pool

        const (
            Idle = 30 // seconds a connection may stay idle
            Busy = 5
        )
        """), "constant")
    assert {f.value: f.purpose for f in go.values()} == {
        "30": "idle - seconds a connection may stay idle", "5": "busy"}
    rust = mine("src/server.rs", """
        /// Accept a connection,
        /// with backoff.
        pub fn accept() {}
        /// Maximum connections.
        const MAX_CONNECTIONS: usize = 250; // per server
        """)
    assert {f.value: f.purpose for f in rust} == {  # a doc comment's lines are one doc
        "accept": "Accept a connection, with backoff.", "250": "max connections - Maximum connections."}
