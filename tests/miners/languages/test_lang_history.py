"""Functions, routes and constants of JavaScript, TypeScript, Go, Rust, Java and Kotlin followed through
a real git history: rename, move, rename with an edit, route moved, a syntax error that keeps the
file's earlier facts, function deleted, constant changed."""

from __future__ import annotations

import pytest

from repomem.miners import MineError
from repomem.miners.lang.walker import MINER
from repomem.service.ingest import ingest
from repomem.service.query import facts, history
from repomem.service.repo import Repo
from tests.conftest import commit

DOC = "Read the settings file and merge the defaults."

JS = dict(
    ext="js",
    fn=lambda name, edit: f"""/**
 * {DOC}
 */
function {name}(path, defaults) {{
  const raw = fs.readFileSync(path, 'utf8');
  const parsed = JSON.parse(raw);
  {"parsed.loaded = true;" if edit else ""}
  return Object.assign({{}}, defaults, parsed);
}}
""",
    const=lambda v: f"export const MAX_RETRIES = {v};\n",
    other="function unrelated(a) {\n  return a * 2 + 1;\n}\n",
    route="""const express = require('express');
const app = express();

function getUser(req, res) {
  const id = req.params.id;
  res.json({ id: id, name: lookup(id) });
}

app.get('/users/:id', getUser);
""",
    route_value="GET /users/:id", route_handler="getUser",
    broken="function broken( {\n",
)

TS = dict(
    ext="ts",
    fn=lambda name, edit: f"""/** {DOC} */
export const {name} = (path: string, defaults: Settings): Settings => {{
  const raw = fs.readFileSync(path, 'utf8');
  const parsed: Settings = JSON.parse(raw);
  {"parsed.loaded = true;" if edit else ""}
  return {{ ...defaults, ...parsed }};
}};
""",
    const=lambda v: f"export const MAX_RETRIES = {v};\n",
    other="export function unrelated(a: number): number {\n  return a * 2 + 1;\n}\n",
    route="""@Controller('users')
export class UsersController {
  /** Fetch one user by id. */
  @Get(':id')
  findOne(@Param('id') id: string): string {
    return this.service.lookup(id).name + id;
  }
}
""",
    route_value="GET /users/:id", route_handler="findOne",
    broken="export class Broken {\n  run( {\n",
)

GO_EDIT = 'out["loaded"] = "true"'
GO = dict(
    ext="go",
    fn=lambda name, edit: f"""// {name} reads the settings file and merges the defaults.
func {name}(path string, defaults map[string]string) map[string]string {{
	raw, _ := os.ReadFile(path)
	out := parse(raw)
	{GO_EDIT if edit else ""}
	for k, v := range defaults {{
		out[k] = v
	}}
	return out
}}
""",
    const=lambda v: f"const MaxRetries = {v}\n",
    other="func unrelated(a int) int {\n\treturn a*2 + 1\n}\n",
    route="""func getUser(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	fmt.Fprintf(w, "user %s", lookup(id))
}

func register() {
	http.HandleFunc("GET /users/{id}", getUser)
}
""",
    route_value="GET /users/{id}", route_handler="getUser",
    broken="func broken( {\n",
)

RUST = dict(
    ext="rs",
    fn=lambda name, edit: f"""/// {DOC}
pub fn {name}(path: &str, defaults: &Settings) -> Settings {{
    let raw = std::fs::read_to_string(path).unwrap();
    let mut out = parse(&raw);
    {"out.loaded = true;" if edit else ""}
    out.merge(defaults);
    out
}}
""",
    const=lambda v: f"pub const MAX_RETRIES: u32 = {v};\n",
    other="fn unrelated(a: i32) -> i32 {\n    a * 2 + 1\n}\n",
    route=None,  # no Rust web framework is mined
    broken="fn broken( {\n",
)

JAVA = dict(
    ext="java",
    fn=lambda name, edit: f"""    /** {DOC} */
    public static Settings {name}(String path, Settings defaults) {{
        String raw = Files.readString(Path.of(path));
        Settings out = Settings.parse(raw);
        {"out.loaded = true;" if edit else ""}
        out.merge(defaults);
        return out;
    }}
""",
    const=lambda v: f"    public static final int MAX_RETRIES = {v};\n",
    other="    static int unrelated(int a) {\n        return a * 2 + 1;\n    }\n",
    route="""@RestController
@RequestMapping("/api")
public class UserController {
    @GetMapping("/users/{id}")
    public String getUser(@PathVariable String id) {
        return service.lookup(id).getName() + id;
    }
}
""",
    route_value="GET /api/users/{id}", route_handler="getUser",
    broken="    class Broken {\n",
)

KOTLIN = dict(
    ext="kt",
    fn=lambda name, edit: f"""/** {DOC} */
fun {name}(path: String, defaults: Settings): Settings {{
    val raw = File(path).readText()
    val out = Settings.parse(raw)
    {"out.loaded = true" if edit else ""}
    out.merge(defaults)
    return out
}}
""",
    const=lambda v: f"const val MAX_RETRIES = {v}\n",
    other="fun unrelated(a: Int): Int {\n    return a * 2 + 1\n}\n",
    route="""@RestController
@RequestMapping("/api")
class UserController(private val service: UserService) {
    @GetMapping("/users/{id}")
    fun getUser(@PathVariable id: String): String {
        return service.lookup(id).name + id
    }
}
""",
    route_value="GET /api/users/{id}", route_handler="getUser",
    broken="class Broken {\n    fun x() {\n}\n",
)

LANGS = {"javascript": JS, "typescript": TS, "go": GO, "rust": RUST, "java": JAVA, "kotlin": KOTLIN}


def _file(spec, path: str, *parts: str) -> str:
    body = "\n".join(p for p in parts if p)
    if spec["ext"] == "go":
        return f"package {path.split('/')[0]}\n\n{body}"
    if spec["ext"] == "java" and not body.lstrip().startswith("@"):
        cls = path.rsplit("/", 1)[-1].split(".")[0]
        return f"public class {cls} {{\n{body}}}\n"
    return body


def _names(spec):
    ext = spec["ext"]
    if ext == "java":
        return "a/Util.java", "b/Config.java", "web/UserController.java", "api/UserController.java"
    return f"a/util.{ext}", f"b/config.{ext}", f"web/routes.{ext}", f"api/handlers.{ext}"


def _by_value(repo, kind, as_of=None):
    return {f["value"]: f for f in facts(Repo.open(repo), as_of=as_of, kind=kind)["facts"]}


@pytest.mark.parametrize("lang", sorted(LANGS))
def test_function_route_and_constant_history(new_repo, lang):
    spec = LANGS[lang]
    util, config, routes, handlers = _names(spec)
    fn, const = spec["fn"], spec["const"]
    repo = new_repo()
    files = {util: _file(spec, util, const(3), fn("loadConfig", False))}
    if spec["route"]:
        files[routes] = spec["route"] if spec["ext"] != "go" else _file(spec, routes, spec["route"])
    commit(repo, "2026-01-01T10:00:00+00:00", "start", files)
    commit(repo, "2026-01-02T10:00:00+00:00", "rename",
           {util: _file(spec, util, const(3), fn("readConfig", False))})
    commit(repo, "2026-01-03T10:00:00+00:00", "move", {
        util: _file(spec, util, const(3)), config: _file(spec, config, fn("readConfig", False))})
    commit(repo, "2026-01-04T10:00:00+00:00", "rename with an edit",
           {config: _file(spec, config, fn("readSettings", True))})
    if spec["route"]:
        moved = spec["route"] if spec["ext"] != "go" else _file(spec, handlers, spec["route"])
        commit(repo, "2026-01-05T10:00:00+00:00", "move the route", {routes: None, handlers: moved})
    # a syntax error in a commit that also renames: mined, it would show the new name
    broken = _file(spec, config, fn("halfRenamed", True)) + spec["broken"]
    with pytest.raises(MineError):
        MINER.mine(config, broken)
    commit(repo, "2026-01-06T10:00:00+00:00", "broken", {config: broken})
    commit(repo, "2026-01-07T10:00:00+00:00", "delete", {config: _file(spec, config, spec["other"])})
    commit(repo, "2026-01-08T10:00:00+00:00", "retries", {util: _file(spec, util, const(5))})
    r = Repo.open(repo)
    ingest(r, all_history=True, progress=False)

    start = _by_value(repo, "function", "2026-01-01T12:00:00+00:00")["loadConfig"]
    key = start["key"]
    assert start["purpose"].startswith(DOC[:20]) or "reads the settings file" in start["purpose"]
    for day, name, path in [("02", "readConfig", util), ("03", "readConfig", config),
                            ("04", "readSettings", config), ("06", "readSettings", config)]:
        got = _by_value(repo, "function", f"2026-01-{day}T12:00:00+00:00")
        assert name in got, (day, sorted(got))
        assert got[name]["key"] == key and got[name]["path"] == path, day
    # the syntax error kept the file's facts: no version started on the 6th
    versions = history(r, key)["versions"]
    assert [v["value"] for v in versions] == ["loadConfig", "readConfig", "readConfig", "readSettings"]
    assert versions[-1]["end_reason"] == "removed"
    now = _by_value(repo, "function")
    assert "readSettings" not in now and "unrelated" in now

    if spec["route"]:
        before = _by_value(repo, "route", "2026-01-04T12:00:00+00:00")[spec["route_value"]]
        after = _by_value(repo, "route")[spec["route_value"]]
        assert before["key"] == after["key"]
        assert after["path"] == handlers  # one version: the move changed provenance only
        assert [v["path"] for v in history(Repo.open(repo), after["key"])["versions"]] == [handlers]
        assert after["attrs"]["handler"] == spec["route_handler"]

    consts = [f for f in facts(r, kind="constant")["facts"]]
    assert [(f["value"], f["path"]) for f in consts] == [("5", util)]
    cver = history(r, consts[0]["key"])["versions"]
    assert [v["value"] for v in cver] == ["3", "5"]


def test_js_config_settings_supersede_and_answer(tmp_path):
    """A JS tool config's setting is a key with a history: the jest environment changed from
    jsdom to node supersedes (as-of still says jsdom), a setting dropped from the object is
    retired, and "what is the jest test environment?" is answered by the setting itself: its
    camelCase name spelled by the question's words, its tool by the file it is in -- not
    eslint's jest environment nor the Dockerfile's ENV, which bear "jest" or "env" as names."""
    from repomem.service.query import ask
    from tests.conftest import indexed

    old = "module.exports = {\n  testEnvironment: 'jsdom',\n  verbose: true,\n};\n"
    new = "module.exports = {\n  // the API has no DOM\n  testEnvironment: 'node',\n};\n"
    r = indexed(tmp_path / "repo",
                ("2026-02-01T10:00:00+00:00", {"jest.config.js": old, "src/app.js": "const x = 1;\n",
                                                  ".eslintrc.json": '{"env": {"jest": true, "node": true}}\n',
                                                  "Dockerfile": "FROM node:20\nENV HOST 0.0.0.0\n"}),
                ("2026-03-01T10:00:00+00:00", {"jest.config.js": new}))
    key = "config:jest.config.js:testEnvironment"
    assert [(v["value"], v["line"]) for v in history(r, key)["versions"]] == [("jsdom", 2), ("node", 3)]
    assert "config:jest.config.js:verbose" not in {f["key"] for f in facts(r)["facts"]}
    then = {f["key"]: f["value"] for f in facts(r, as_of="2026-02-15T00:00:00+00:00")["facts"]}
    assert then[key] == "jsdom" and then["config:jest.config.js:verbose"] == "true"
    got = ask(r, "what is the jest test environment?")
    assert (got["facts"][0]["key"], got["answer"]) == (key, "node")


AUTH_SERVICE = """import * as bcrypt from 'bcryptjs';

/** Registers a new account. */
export const createUser = async (input) => {
  // checkUniqueness(input) was the old way
  const hashed = await bcrypt.hash(input.password, 10);
  return prisma.user.create({ data: { ...input, password: hashed } });
};

export const listTags = async () => prisma.tag.findMany();
"""


def test_what_a_function_calls_answers_how_questions(tmp_path):
    """"How are passwords hashed?" named nothing: createUser's name and doc say nothing of
    hashing; its body calls bcrypt.hash.  What a body calls (attrs.calls, comments left out) is
    searched; it describes the version like a purpose, so a body edit that calls something new
    updates it in place and opens no new version of the function."""
    from repomem.service.query import ask
    from tests.conftest import indexed

    path = "src/auth.service.ts"
    r = indexed(tmp_path / "repo",
                ("2026-02-01T10:00:00+00:00", {path: AUTH_SERVICE, "package.json":
                                               '{"dependencies": {"bcryptjs": "^2.4.3"}}\n'}),
                ("2026-03-01T10:00:00+00:00", {path: AUTH_SERVICE.replace("bcrypt.hash", "argon2.hash")}))
    got = ask(r, "how are passwords hashed?")
    assert got["facts"][0]["value"] == "createUser"
    assert got["facts"][0]["attrs"]["calls"] == "argon2.hash, prisma.user.create"
    assert len(history(r, got["facts"][0]["key"])["versions"]) == 1
    tags = _by_value(r.root, "function")["listTags"]
    assert tags["attrs"]["calls"] == "prisma.tag.findMany"


def test_a_mongoose_field_has_a_history(tmp_path):
    """A schema field's constraint is a key with a history: maxlength 30, then 50; "what is
    the max length of a username?" is answered by it, now and as of before the change."""
    from repomem.service.query import ask
    from tests.conftest import indexed

    model = ("const mongoose = require('mongoose');\n\n"
             "const userSchema = new mongoose.Schema({{\n"
             "  username: {{ type: String, required: true, maxlength: {n} }},\n"
             "  bio: String,\n}});\n\nmodule.exports = mongoose.model('User', userSchema);\n")
    r = indexed(tmp_path / "repo",
                ("2026-02-01T10:00:00+00:00", {"models/user.js": model.format(n=30),
                                                "package.json": '{"dependencies": {"mongoose": "^8.0.0"}}\n'}),
                ("2026-03-01T10:00:00+00:00", {"models/user.js": model.format(n=50)}))
    key = "config:models/user.js:userSchema.username.maxlength"
    assert [v["value"] for v in history(r, key)["versions"]] == ["30", "50"]
    got = ask(r, "what is the max length of a username?")
    assert (got["facts"][0]["key"], got["answer"]) == (key, "50")
    assert ask(r, "what is the max length of a username?", as_of="2026-02-15")["answer"] == "30"


APP_JS = """const express = require('express');
const app = express();

app.set('view engine', '{engine}');
app.set('port', process.env.PORT || 3000);
app.set('views', path.join(__dirname, 'views'));
app.enable('trust proxy');
app.set('jwt secret', 'q8Zr2LxT4vNw9Kp3');
app.set('handler', function () {{}});
app.set('spread', ...defaults);
if (process.env.NODE_ENV === 'production') {{
  app.disable('x-powered-by');
}}

app.get('/', function home(req, res) {{
  res.set('Content-Type', 'text/html');
  res.render('index');
}});
"""
APPLICATION_JS = """var app = exports = module.exports = {};

app.defaultConfiguration = function defaultConfiguration() {
  var env = process.env.NODE_ENV || 'development';
  this.set('etag', 'weak');
  this.set('env', env);
  if (env === 'production') {
    this.enable('view cache');
  }
};

var cache = new Map();
cache.set('views', 'not a setting');
"""


def test_express_app_settings_are_settings_with_a_history(tmp_path):
    """``app.set('view engine', 'pug')`` is a setting of the app (`config:src/app.js:app.view
    engine`): it changes to ejs and supersedes, as-of still says pug, and "which view engine
    does the app use?" is answered by it.  ``enable``/``disable`` are true/false, an env lookup
    is worth its default, an expression is stated as written; a setting under an ``if``, a
    ``res.set`` header, a Map's ``set`` and a test's app are not settings.  Express's own
    ``this.set(...)`` in ``app.defaultConfiguration`` is.  A secret-named setting is redacted."""
    from repomem.service.query import ask
    from tests.conftest import indexed

    r = indexed(tmp_path / "repo",
                ("2026-02-01T10:00:00+00:00", {"src/app.js": APP_JS.format(engine="pug"),
                                                "lib/application.js": APPLICATION_JS,
                                                "test/app.test.js": "const app = express();\n"
                                                                    "app.set('view engine', 'hbs');\n"}),
                ("2026-03-01T10:00:00+00:00", {"src/app.js": APP_JS.format(engine="ejs")}))
    now = {f["key"]: f for f in facts(r)["facts"] if f["kind"] == "config" and "read" not in f["attrs"]}
    assert {k: (f["value"], f["attrs"]) for k, f in now.items()} == {
        "config:src/app.js:app.view engine": ("ejs", {}),
        "config:src/app.js:app.port": ("3000", {"env": "PORT"}),
        "config:src/app.js:app.views": ("path.join(__dirname, 'views')", {"expression": "true"}),
        "config:src/app.js:app.trust proxy": ("true", {}),
        "config:src/app.js:app.jwt secret": (now["config:src/app.js:app.jwt secret"]["value"], {}),
        "config:lib/application.js:app.etag": ("weak", {}),
        "config:lib/application.js:app.env": ("env", {"expression": "true"}),
    }
    assert now["config:src/app.js:app.jwt secret"]["value"].startswith("<redacted:")
    assert all("q8Zr2LxT4vNw9Kp3" not in str(f) for f in facts(r)["facts"])
    key = "config:src/app.js:app.view engine"
    assert [v["value"] for v in history(r, key)["versions"]] == ["pug", "ejs"]
    assert now[key]["line"] == 4 and now[key]["subject"] == "app setting 'view engine' in src/app.js"
    got = ask(r, "which view engine does the app use?")
    assert (got["facts"][0]["key"], got["answer"]) == (key, "ejs")
    assert ask(r, "which view engine does the app use?", as_of="2026-02-15")["answer"] == "pug"
    assert ask(r, "what is the default etag setting?")["facts"][0]["key"] == \
        "config:lib/application.js:app.etag"


USER_SERVICE = """import * as bcrypt from 'bcryptjs';

export const createUser = async (input) => {
  const hashed = await bcrypt.hash(input.password, 10);
  return prisma.user.create({ data: { ...input, password: hashed } });
};

export const updateUser = async (payload, id) => {
  const password = payload.password && (await bcrypt.hash(payload.password, 10));
  return prisma.user.update({ where: { id }, data: { ...payload, password } });
};
"""
ARTICLE_SERVICE = """export const deleteComment = async (id, userId) => {
  const comment = await prisma.comment.findFirst({ where: { id, authorId: userId } });
  await prisma.comment.delete({ where: { id: comment.id } });
};

export const deleteArticle = async (slug) => {
  await prisma.article.delete({ where: { slug } });
};

export const getComments = async (slug) => prisma.comment.findMany({ where: { article: { slug } } });
"""
USER_SCHEMA = """model User {
  id       Int    @id @default(autoincrement())
  email    String @unique
  password String
}

model Comment {
  id   Int    @id @default(autoincrement())
  body String
}
"""


def test_how_something_is_done_is_what_calls_the_doing(tmp_path):
    """"how are passwords hashed?" is answered by the functions whose bodies call bcrypt.hash,
    not by the password field of the User model that only shares the word "password"; of two
    functions that call delete, "how is a comment deleted?" prefers the one named after it (the
    other is no better an answer than another function about comments)."""
    from repomem.service.query import ask
    from tests.conftest import indexed

    r = indexed(tmp_path / "repo",
                ("2026-02-01T10:00:00+00:00", {"src/auth/auth.service.ts": USER_SERVICE,
                                                "src/articles/article.service.ts": ARTICLE_SERVICE,
                                                "prisma/schema.prisma": USER_SCHEMA}))
    top = [f["value"] for f in ask(r, "How are passwords hashed?")["facts"][:2]]
    assert sorted(top) == ["createUser", "updateUser"]
    top = [f["value"] for f in ask(r, "How is a comment deleted?")["facts"][:2]]
    assert top == ["deleteComment", "getComments"]


MAIN_TS = """import express from 'express';
import cors from 'cors';
import bodyParser from 'body-parser';
import routes from './routes';

const app = express();
app.use(cors());
app.use(bodyParser.json({ limit: '{limit}' }));
app.use(routes);
app.use('/docs', express.static('docs'));
app.use(express.static('public'));
app.use(express.static('uploads'));
if (process.env.NODE_ENV !== 'production') {{
  app.use(morgan('dev'));
}}
app.use((err, req, res, next) => res.status(500).json({{ error: err.message }}));
"""


def test_express_middleware_is_a_setting_with_a_history(tmp_path):
    """``app.use(bodyParser.json({limit: '1mb'}))`` is a middleware of the app, keyed by what
    makes it (`config:src/main.ts:app.use.bodyParser.json`): its limit changes and supersedes,
    and "which middleware parses JSON bodies?" is answered by it.  A second of one maker is
    `#2`; a mount (`app.use('/docs', ...)`, a router) and middleware under an ``if`` are not
    middleware facts; an inline error handler is the app's error handler (see below)."""
    from repomem.service.query import ask
    from tests.conftest import indexed

    r = indexed(tmp_path / "repo",
                ("2026-02-01T10:00:00+00:00", {"src/main.ts": MAIN_TS.replace("{limit}", "1mb")
                                                .replace("{{", "{").replace("}}", "}")}),
                ("2026-03-01T10:00:00+00:00", {"src/main.ts": MAIN_TS.replace("{limit}", "5mb")
                                                .replace("{{", "{").replace("}}", "}")}))
    now = {f["key"]: f["value"] for f in facts(r)["facts"] if f["kind"] == "config"
           and "read" not in f["attrs"]}  # not the environment variables read (test_envvars.py)
    assert now == {
        "config:src/main.ts:app.use.cors": "cors()",
        "config:src/main.ts:app.use.bodyParser.json": "bodyParser.json({ limit: '5mb' })",
        "config:src/main.ts:app.use.express.static": "express.static('public')",
        "config:src/main.ts:app.use.express.static#2": "express.static('uploads')",
        "config:src/main.ts:app.use.error-handler": "(err, req, res, next)",
        "config:src/main.ts:bodyParser.json.limit": "5mb",  # the option itself, beside the call
    }
    key = "config:src/main.ts:app.use.bodyParser.json"
    assert [v["value"] for v in history(r, key)["versions"]] == [
        "bodyParser.json({ limit: '1mb' })", "bodyParser.json({ limit: '5mb' })"]
    assert ask(r, "which middleware parses JSON bodies?")["facts"][0]["key"] == key
    assert ask(r, "is CORS enabled?")["facts"][0]["key"] == "config:src/main.ts:app.use.cors"


ERRORS_TS = """import express from 'express';
import routes from './routes';

const app = express();
app.use(cors());
app.use(routes);
app.use(
  (
    {err}: Error | HttpException,
    req: express.Request,
    res: express.Response,
    next: express.NextFunction,
  ) => {
    res.status({err}.errorCode || 500).json({ errors: { message: {err}.message } });
  },
);
"""
ERRORS_EXAMPLE_JS = """var express = require('../../');
var app = module.exports = express();

function error(err, req, res, next) {
  console.error(err.stack);
  res.status(500);
  res.send('Internal Server Error');
}

app.get('/', function () {
  throw new Error('something broke!');
});

app.use(error);
"""
ERRORS_TEST_JS = """describe('app', function () {
  it('should handle errors', function (done) {
    var app = express();
    app.use(function (err, req, res, next) {
      res.status(500).end(err.message);
    });
  });
});
"""


def test_an_apps_error_handler_is_a_setting_with_a_history(tmp_path):
    """"Which middleware handles errors?" (node-express-realworld) gave cors(): the app's error
    handler, a function of four parameters given to ``app.use`` inline or by the name of one the
    file declares, was in no fact.  It is keyed by the app (``app.use.error-handler``), its value
    its parameters as written on one line (a rename supersedes it), its lines what it does; not
    a test's (inside a test's callback), nor ``app.use(routes)`` or a middleware of fewer
    parameters."""
    from repomem.service.query import ask
    from tests.conftest import indexed

    r = indexed(tmp_path / "repo",
                ("2026-02-01T10:00:00+00:00", {"src/main.ts": ERRORS_TS.replace("{err}", "err"),
                                                "examples/error/index.js": ERRORS_EXAMPLE_JS,
                                                "test/app.use.js": ERRORS_TEST_JS}),
                ("2026-03-01T10:00:00+00:00", {"src/main.ts": ERRORS_TS.replace("{err}", "error")}))
    got = {f["key"]: f for f in facts(r)["facts"] if "error-handler" in f["key"]}
    key = "config:src/main.ts:app.use.error-handler"
    assert sorted(got) == ["config:examples/error/index.js:app.use.error-handler", key]
    assert got["config:examples/error/index.js:app.use.error-handler"]["value"] == \
        "error(err, req, res, next)"
    assert (got[key]["line"], got[key]["subject"]) == (7, "app error handler in src/main.ts")
    assert [v["value"] for v in history(r, key)["versions"]] == [
        "(err: Error | HttpException, req: express.Request, res: express.Response, next: express.NextFunction)",
        "(error: Error | HttpException, req: express.Request, res: express.Response, next: express.NextFunction)"]
    # the app's own before an example's, though the example's says "error" once more
    for question in ("which middleware handles errors?", "where is the error handler?"):
        assert ask(r, question)["facts"][0]["key"] == key, question
    assert ask(r, "which middleware handles errors in the error example?")["facts"][0]["path"] \
        == "examples/error/index.js"


REQUEST_OLD = """var req = exports = module.exports = {};

/**
 * Return the remote address.
 */

req.__defineGetter__('ip', function(){
  return this.connection.remoteAddress;
});

req.__defineGetter__('secure', function(){
  return 'https' == this.protocol;
});
"""
REQUEST_NEW = """var req = Object.create(http.IncomingMessage.prototype);
module.exports = req;

/**
 * Return the remote address from the trusted proxy.
 *
 * @return {String}
 * @public
 */

defineGetter(req, 'ip', function ip(){
  var trust = this.app.get('trust proxy fn');
  return proxyaddr(this, trust);
});

Object.defineProperty(req, 'secure', {configurable: true, get: function () {
  return this.protocol === 'https';
}});

describe('req', function () {
  defineGetter(req, 'nested', function () {});
});
helper(req, 'notagetter', function () {});

function defineGetter(obj, name, getter) {
  Object.defineProperty(obj, name, {configurable: true, enumerable: true, get: getter});
}
"""


def test_a_property_defined_by_a_call_is_a_function_with_a_history(tmp_path):
    """Express defines ``req.ip`` and ``req.secure`` as getters by a call, not an assignment:
    ``req.__defineGetter__('ip', fn)`` in 2012, ``defineGetter(req, 'ip', function ip() {...})``
    later, and ``Object.defineProperty(req, 'secure', {get: ...})``.  Each is the function
    ``req.<name>`` with one identity through the change of form (a new version, not a new
    fact); a call nested in another call's callback, or one that defines nothing, is none."""
    from repomem.service.query import ask
    from tests.conftest import indexed

    r = indexed(tmp_path / "repo",
                ("2012-05-30T10:00:00+00:00", {"lib/request.js": REQUEST_OLD}),
                ("2014-06-22T10:00:00+00:00", {"lib/request.js": REQUEST_NEW}))
    now = {f["subject"]: f for f in facts(r)["facts"] if f["kind"] == "function"}
    assert sorted(now) == ["function defineGetter", "method req.ip", "method req.secure"]
    ip = now["method req.ip"]
    assert (ip["value"], ip["line"]) == ("ip", 11)
    assert ip["purpose"].startswith("Return the remote address from the trusted proxy")
    versions = history(r, ip["key"])["versions"]
    assert len(versions) == 2 and versions[0]["valid_from"].startswith("2012-05-30")
    assert len(history(r, now["method req.secure"]["key"])["versions"]) == 2
    assert ask(r, "what does req.ip return?")["facts"][0]["key"] == ip["key"]
    old = {f["subject"] for f in facts(r, as_of="2013-01-01")["facts"] if f["kind"] == "function"}
    assert old == {"method req.ip", "method req.secure"}


TOKEN_UTILS_TS = """import * as jwt from 'jsonwebtoken';

export const JWT_AUDIENCE = 'realworld-users';

const generateToken = (id: number): string =>
  jwt.sign({ user: { id } }, process.env.JWT_SECRET || 'superSecretValue9', {
    expiresIn: '%s',
    algorithm: 'HS256',
  });

export default generateToken;
"""
AUTH_TS = """import {{ expressjwt as jwt }} from 'express-jwt';

const getTokenFromHeaders = (req) => req.headers.authorization?.split(' ')[1] ?? null;

const auth = {
  required: jwt({
    secret: process.env.JWT_SECRET || 'superSecretValue9',
    getToken: getTokenFromHeaders,
    algorithms: ['HS256'],
  }),
};

export default auth;
"""
PACKAGE_JSON = """{"name": "realworld", "dependencies": {"express-jwt": "^8.4.1", "jsonwebtoken": "^9.0.0",
 "express": "^4.18.2", "bcryptjs": "^2.4.3"}}
"""
ARTICLE_SERVICE_TS = """export const getArticles = async (query: any) => {
  return prisma.article.findMany({
    where: { author: query.author },
    take: Number(query.limit) || 20,
    include: { tags: true },
  });
};

// a module's own call is no function's argument
export const client = new PrismaClient({ log: { level: 3 } });
"""


def test_a_value_passed_in_an_object_literal_has_a_history(tmp_path):
    """node-express-realworld's token lifetime was in no fact: ``jwt.sign(payload, secret,
    { expiresIn: '60d' })`` in generateToken.  A number or a quantity (not a label:
    ``algorithm: 'HS256'``) a function passes to a call in an object literal is a setting keyed
    by the function, the callee and the name, with a history; ``limit || 20`` is worth its
    number; not at a module's top, nor in a test.  "How long is a jwt valid?" is answered by it,
    a number, not by the secret the tokens are signed and verified with (two reads of
    JWT_SECRET, a JWT_AUDIENCE constant), and so is "when does the jwt expire?" (a time, not a
    date); "what is the secret used to sign tokens?" is not answered by it, though its call says "sign" and "token"."""
    from repomem.service.query import ask
    from tests.conftest import indexed

    got = {f.key: f for f in MINER.mine("src/auth/token.utils.ts", TOKEN_UTILS_TS % "60d")
           if ("argument", "true") in f.attrs}
    key = "config:src/auth/token.utils.ts:generateToken.jwt.sign.expiresIn"
    assert list(got) == [key]
    assert (got[key].value, got[key].line, got[key].purpose) == (
        "60d", 7, "expires in - passed to jwt.sign() by generateToken()")
    assert {f.key: f.value for f in MINER.mine("src/articles.service.ts", ARTICLE_SERVICE_TS)
            if ("argument", "true") in f.attrs} == {
        "config:src/articles.service.ts:getArticles.prisma.article.findMany.take": "20"}
    assert not [f for f in MINER.mine("src/auth/token.utils.spec.ts", TOKEN_UTILS_TS % "60d")
                if ("argument", "true") in f.attrs]

    r = indexed(tmp_path / "repo",
                ("2026-02-01T10:00:00+00:00", {"src/auth/token.utils.ts": TOKEN_UTILS_TS % "60d",
                                                  "src/auth/auth.ts": AUTH_TS,
                                                  "package.json": PACKAGE_JSON,
                                                  "src/articles.service.ts": ARTICLE_SERVICE_TS}),
                ("2026-03-01T10:00:00+00:00", {"src/auth/token.utils.ts": TOKEN_UTILS_TS % "7d"}))
    assert [v["value"] for v in history(r, key)["versions"]] == ["60d", "7d"]
    for question in ("how long is a jwt valid?", "when does the jwt expire?"):
        got = ask(r, question)
        assert (got["facts"][0]["key"], got["answer"]) == (key, "7d"), \
            (question, [f["key"] for f in got["facts"]])
    assert ask(r, "what is the secret used to sign tokens?")["facts"][0]["key"] != key


RESPONSE_JS = """var res = Object.create(http.ServerResponse.prototype);

var DEFAULT_CHARSET = 'utf-8';

/**
 * Redirect to the given `url` with optional response `status`
 * defaulting to %d.
 */
res.redirect = function redirect(url) {
  var address = url;
  var body;
  var status = %d;
  for (var i = 0; i < arguments.length; i++) {
    address = arguments[i];
  }
  this.statusCode = status;
  this.end(body);
};

res.status = function status(code) {
  this.statusCode = code;
  return this;
};
"""


def test_a_number_a_js_function_binds_a_local_to(tmp_path):
    """express's res.redirect answers 302 unless told otherwise (``var status = 302`` in its
    body): a number a function binds a local name to is a setting keyed by the function and
    the name (attrs local), with a history; not a loop counter's 0.  "What status code does
    res.redirect use by default?" is answered by it, not by res.status."""
    from repomem.service.query import ask
    from tests.conftest import indexed

    got = {f.key: f.value for f in MINER.mine("lib/response.js", RESPONSE_JS % (302, 302))
           if ("local", "true") in f.attrs}
    key = "config:lib/response.js:res.redirect.status"
    assert got == {key: "302"}
    r = indexed(tmp_path / "repo", ("2014-02-01T10:00:00+00:00", {"lib/response.js": RESPONSE_JS % (302, 302)}),
                ("2015-03-01T10:00:00+00:00", {"lib/response.js": RESPONSE_JS % (303, 303)}))
    assert [v["value"] for v in history(r, key)["versions"]] == ["302", "303"]
    got = ask(r, "what status code does res.redirect use by default?")
    assert (got["facts"][0]["key"], got["answer"]) == (key, "303"), [f["key"] for f in got["facts"]]


AUTH_OPTIONS_TS = """import {{ expressjwt as jwt }} from 'express-jwt';

const getTokenFromHeaders = (req) => req.headers.authorization?.split(' ')[1];

const auth = {{
  required: jwt({{
    secret: process.env.JWT_SECRET || 'Zq8rT4xLw2NvKp9s',
    getToken: getTokenFromHeaders,
    algorithms: [{algorithms}],
  }}),
  optional: jwt({{
    credentialsRequired: false,
    algorithms: [{algorithms}],
  }}),
}};

const messages = {{ notFound: 'Not found' }};
users.push({{ name: 'TJ', id: 0 }});
app.use(session({{ secret: 'Yt7pQ3mVx8RwLs2k', resave: {resave} }}));

export default auth;
"""


def test_module_level_call_options_are_settings_with_a_history(tmp_path):
    """The literal properties of an object a module-level call is given are settings: bound to
    a name (``auth.required.algorithms``, through the object the binding holds) or made as a
    statement (``session.resave``, by the callee).  A changed option supersedes; a function
    (``getToken``), an object no call is given (``messages``), one added to a collection
    (``users.push``) and a test file's call are no settings; a ``secret`` option is redacted,
    its environment variable kept."""
    from repomem.service.query import ask
    from tests.conftest import indexed

    first = AUTH_OPTIONS_TS.format(algorithms="'HS256'", resave="true")
    second = AUTH_OPTIONS_TS.format(algorithms="'HS256', 'RS256'", resave="false")
    r = indexed(tmp_path / "repo",
                ("2026-02-01T10:00:00+00:00", {"src/auth.ts": first,
                                                "test/auth.test.ts": "setup(jwt({ algorithms: ['none'] }));\n"}),
                ("2026-03-01T10:00:00+00:00", {"src/auth.ts": second}))
    now = {f["key"]: f for f in facts(r)["facts"] if f["kind"] == "config" and "read" not in f["attrs"]
           and "middleware" not in f["purpose"]}
    assert {k: f["value"] for k, f in now.items() if not f["value"].startswith("<redacted:")} == {
        "config:src/auth.ts:auth.required.algorithms": "[HS256, RS256]",
        "config:src/auth.ts:auth.optional.credentialsRequired": "false",
        "config:src/auth.ts:auth.optional.algorithms": "[HS256, RS256]",
        "config:src/auth.ts:session.resave": "false",
    }
    secret = now["config:src/auth.ts:auth.required.secret"]
    assert secret["value"].startswith("<redacted:") and secret["attrs"] == {"env": "JWT_SECRET"}
    assert now["config:src/auth.ts:session.secret"]["value"].startswith("<redacted:")
    assert all("Zq8rT4xLw2NvKp9s" not in str(f) for f in facts(r)["facts"])
    key = "config:src/auth.ts:auth.required.algorithms"
    assert [v["value"] for v in history(r, key)["versions"]] == ["[HS256]", "[HS256, RS256]"]
    assert now[key]["line"] == 9 and now[key]["purpose"].endswith("an option of jwt()")
    assert ask(r, "which algorithms does the required auth accept?")["facts"][0]["key"] == key
