"""The real-history benchmark: ground truth read from git (both edges of an as-of day), the
judge's normalisation, the runner end to end on a small real repository, the skip, the split."""

from __future__ import annotations

import json

import pytest

from bench import realjudge
from bench.realtruth import engine, extract, extract_docker, generate, phrasing, repos
from bench.realtruth.gitread import GitRepo
from tests.conftest import ROOT, bench_cli, commit

REQS = {1: 'requests>=2.20\nclick==7.0\n', 2: 'requests>=2.31,<3\n', 3: 'requests<3,>=2.31\n'}


def _pyproject(reqs: str, py: str) -> str:
    deps = ", ".join(json.dumps(x) for x in reqs.split("\n") if x)
    return f'[project]\nname = "tiny"\nrequires-python = "{py}"\ndependencies = [{deps}]\n'


def _config_py(per_page: int) -> str:
    return f"import os\n\nclass Config:\n    POSTS_PER_PAGE = {per_page}\n    TTL = 60 * 24\n"


@pytest.fixture
def tiny(new_repo):
    """A history with a dependency going >=2.20 -> >=2.31,<3 -> <3,>=2.31 (the same spec
    written in another order), click removed, a settings class, and two commits on one day."""
    repo = new_repo("tiny")
    commit(repo, "2024-01-10T12:00:00+00:00", "start",
           {"pyproject.toml": _pyproject(REQS[1], ">=3.8"), "config.py": _config_py(10),
            "Dockerfile": "FROM python:3.11-slim\nEXPOSE 8000\n"})
    commit(repo, "2024-03-01T09:00:00+00:00", "deps",
           {"pyproject.toml": _pyproject(REQS[2], ">=3.9")})
    # two commits on 2024-05-20: the page size is 20 in the morning and 30 at night
    commit(repo, "2024-05-20T08:00:00+00:00", "page size", {"config.py": _config_py(20)})
    commit(repo, "2024-05-20T20:00:00+00:00", "page size", {"config.py": _config_py(30)})
    commit(repo, "2024-07-01T10:00:00+00:00", "order", {"pyproject.toml": _pyproject(REQS[3], ">=3.9")})
    return repo


def _cfg():
    return engine.Config("tiny", "tiny", [
        engine.Source("pyproject.toml", extract.pyproject),
        engine.Source("config.py", extract.class_settings),
        engine.Source("Dockerfile", extract_docker.dockerfile)], repos.describe_for("tiny"))


def test_truth_from_git_with_both_edges(tiny):
    g = GitRepo(tiny)
    tl = engine.Timeline(g, _cfg())
    # the commit in effect at both edges of a day with two commits differs: ambiguous, dropped
    assert tl.check_day(("setting", "Config", "POSTS_PER_PAGE"), "2024-05-20") is None
    (value, path), ev = tl.check_day(("setting", "Config", "POSTS_PER_PAGE"), "2024-04-01")
    assert (value, path) == ("10", "config.py")
    assert ev["day_start_commit"] == ev["day_end_commit"] == g.chain[1].sha
    qs = engine.build(g, _cfg())
    g.close()
    by = {(q["family"], q["as_of"], q.get("subject")): q for q in qs if not q.get("absent")}
    cur = by[("dependency", None, "requests")]
    # the same spec written in another order is one value, not a change
    assert cur["value"] == "<3,>=2.31" and cur["stale_values"] == [">=2.20"]
    asof = {q["subject"]: q for q in qs if q["family"] == "dependency" and q["as_of"]}
    assert asof["requests"]["as_of"] < "2024-03-01" and asof["requests"]["value"] == ">=2.20"
    assert asof["click"]["value"] == "==7.0"  # a removed dependency is asked about its past
    page = [q for q in qs if q.get("subject") == "POSTS_PER_PAGE"]
    assert {q["value"] for q in page if q["as_of"]} <= {"10"}  # 20 lived less than a day
    assert [q["value"] for q in page if not q["as_of"]] == ["30"]
    assert by[("settings", None, "TTL")]["value"] == "1440"  # arithmetic folded
    gone = [q for q in qs if q.get("absent")]
    assert [q["subject"] for q in gone] == ["click"] and gone[0]["stale_values"] == ["==7.0"]
    assert any(q["family"] == "docker" and q["value"] == "python:3.11-slim" for q in qs)
    for q in qs:
        assert not phrasing.markers(q["question"]), q["question"]


def test_records_schema_split_and_ids(tiny):
    g = GitRepo(tiny)
    recs = generate.records("tiny", engine.build(g, _cfg()))
    g.close()
    assert recs and len({r["id"] for r in recs}) == len(recs)
    for r in recs:
        assert set(r) == {"id", "repo", "family", "question", "as_of", "expect", "absent",
                          "stale_values", "evidence", "split"}
        assert set(r["expect"]) == {"value", "subject", "path", "kinds"}
        assert r["split"] == "held-out"  # tiny is in neither list: nobody tuned on it


def test_split_is_by_repository_and_agrees_everywhere():
    from bench import real

    # the bundles' README fixes the split; the truth scripts and the runner keep one copy each
    assert (set(phrasing.TRAINING), set(phrasing.HELD_OUT)) == (set(real.TRAINING), set(real.HELD_OUT))
    assert len(real.TRAINING) == 11 and len(real.HELD_OUT) == 6
    assert not set(real.TRAINING) & set(real.HELD_OUT)
    files = sorted((ROOT / "bench" / "realrepos").glob("*.json")) + sorted(
        (ROOT / "bench" / "realrepos").glob("hand/*.json"))
    assert {f.stem for f in files} >= set(real.TRAINING) | set(real.HELD_OUT), \
        "every repository of the split has questions"
    allq = [q for f in files for q in json.loads(f.read_text())]
    assert all(q["split"] == real.split_of(q["repo"]) for q in allq)
    assert len({q["id"] for q in allq}) == len(allq)
    hand = [q for q in allq if q.get("source") == "hand"]
    assert {q["repo"] for q in hand} == set(real.TRAINING) | set(real.HELD_OUT)
    for q in hand:  # every hand-written question carries the git evidence it was checked with
        assert q["evidence"].get("match") and q["evidence"].get("path") == q["expect"]["path"]


def test_judge_normalisation():
    dep = ["dependency"]
    assert realjudge.same_value("<3,>=2.32", ">=2.32, <3", dep)
    assert realjudge.same_value("*", "", dep) is False  # '' is not a value a fact has
    assert realjudge.same_value("*", "*", dep)
    assert not realjudge.same_value(">=2.31", ">=2.32", dep)
    assert realjudge.same_value("3.11, 3.10", "3.10,3.11", ["python"])
    assert not realjudge.same_value("3.10, 3.11", "3.10, 3.11, 3.12", ["python"])
    assert realjudge.same_value("POST GET /auth/login", "GET,POST /auth/login", ["route"])
    assert not realjudge.same_value("GET /login", "GET /auth/login", ["route"])
    # a Rust path names the call a dotted key ends with
    fact = {"kind": "config", "key": "config:src/db.rs:Db.subscribe.broadcast.channel",
            "subject": "Db.subscribe.broadcast.channel in src/db.rs", "value": "1024"}
    assert realjudge.right(fact, {"kinds": ["config"], "subject": "broadcast::channel",
                                  "value": "1024"})
    assert realjudge.same_value('"8080"', "8080", ["config"])
    assert realjudge.same_value("['es', 'en']", '["en", "es"]', ["config"])
    assert realjudge.same_value("['a@example.com']", '["a@example.com"]', ["config"])
    assert realjudge.same_value("True", "true", ["constant"])
    # a product of whole numbers is its value; an f-string its template; a .properties escape
    assert realjudge.same_value("16777216", "16 * 1024 * 1024", ["config"])
    assert not realjudge.same_value("2021", "2024-1-2", ["config"])  # a date is no sum
    assert realjudge.same_value('f"python-httpx/{__version__}"', "python-httpx/{__version__}",
                                ["constant"])
    assert realjudge.same_value("https://x.org/a.zip", "https\\://x.org/a.zip", ["config"])
    assert "query parser" in realjudge.identifiers(
        {"key": "config:lib/application.js:query parser", "subject": "app setting 'query parser'"})
    exp = {"value": ">=2.32,<3", "subject": "requests", "path": "pyproject.toml",
           "kinds": ["dependency"]}
    fact = {"kind": "dependency", "value": "<3,>=2.32", "path": "pyproject.toml",
            "key": "dependency:pypi:.:main:requests", "subject": "requests dependency"}
    assert realjudge.right(fact, exp)
    assert not realjudge.right(dict(fact, path="docs/requirements.txt"), exp)
    assert not realjudge.right(dict(fact, key="dependency:pypi:main:requests-toolbelt",
                                    subject="requests-toolbelt"), exp)
    assert realjudge.right({"kind": "dependency", "value": "^2.8", "path": "package.json",
                            "key": "dependency:npm:dev:@types/cors", "subject": "@types/cors"},
                           {"value": "^2.8", "subject": "@types/cors", "path": "package.json",
                            "kinds": ["dependency"]})
    setting = {"value": "25", "subject": "POSTS_PER_PAGE", "path": "config.py",
               "kinds": ["config", "constant"]}
    assert realjudge.right({"kind": "config", "value": "25", "path": "config.py",
                            "key": "config:config.py:Config.POSTS_PER_PAGE",
                            "subject": "Config.POSTS_PER_PAGE in config.py"}, setting)
    assert realjudge.right({"kind": "dependency", "value": ">=5", "path": "setup.py",
                            "key": "dependency:pypi:main:zope-interface", "subject": "zope.interface"},
                           {"value": ">=5", "subject": "zope.interface", "path": "setup.py",
                            "kinds": ["dependency"]})
    # a dotted key names the setting its dotted ending does (a pom's properties.java.version)
    prop = {"kind": "config", "value": "17", "path": "pom.xml",
            "key": "config:pom.xml:properties.java.version",
            "subject": "properties.java.version in pom.xml"}
    java = {"value": "17", "subject": "java.version", "path": "pom.xml", "kinds": ["config"]}
    assert realjudge.right(prop, java)
    assert not realjudge.right(prop, dict(java, subject="properties.java"))
    q = {"family": "dependency", "absent": False, "expect": exp, "stale_values": [">=2.20"]}
    s = realjudge.judge(q, [dict(fact, value=">=2.20"), fact])
    assert s == {"top1": False, "top3": True, "top1_any_path": False, "stale_top1": True,
                 "stale_at5": True}
    moved = realjudge.judge(q, [dict(fact, path="setup.py"), fact])
    assert moved["top1_any_path"] and not moved["top1"] and moved["top3"]
    gone = {"family": "dependency", "absent": True, "stale_values": ["==7.0"],
            "expect": {"value": None, "subject": "click", "path": "pyproject.toml",
                       "kinds": ["dependency"]}}
    assert realjudge.judge(gone, [fact])["top1"]
    clicks = dict(fact, key="dependency:pypi:main:click", subject="click", value="==7.0")
    assert realjudge.judge(gone, [fact, clicks]) == {
        "top1": False, "top3": False, "top1_any_path": False, "stale_top1": False,
        "stale_at5": True}


def test_runner_end_to_end(tiny, tmp_path, monkeypatch):
    monkeypatch.setenv("REPOMEM_BENCH_CACHE", str(tmp_path / "cache"))
    g = GitRepo(tiny)
    recs = generate.records("tiny", engine.build(g, _cfg()))
    g.close()
    qdir = tmp_path / "questions"
    qdir.mkdir()
    (qdir / "tiny.json").write_text(json.dumps(recs))
    args = ["real", tiny, "--questions", qdir, "--out", tmp_path / "out"]
    rc, out, err = bench_cli(*args, "--json", check=False)
    assert rc in (0, 1), err
    res = json.loads(out)
    assert res["repos"]["tiny"]["status"] == "ok" and not res["repos"]["tiny"]["cached"]
    assert len(res["rows"]) == len(recs)
    assert res["by_repo"]["tiny"]["all"]["n"] == len(recs)
    assert rc == (1 if res["stale_top1"] else 0)
    row = next(x for x in res["rows"] if x["question"].startswith("Which version of requests")
               or (x["family"] == "dependency" and not x["as_of"] and not x["absent"]))
    assert row["got"], row
    assert (tmp_path / "out" / "real_report.md").exists()
    # the second run reuses the cached store; --split and --misses shape the report
    # paths may also follow the other options (python -m bench real --quick PATH)
    rc, md, _ = bench_cli("real", "--questions", qdir, "--out", tmp_path / "out", tiny,
                          "--split", "held-out", "--misses", check=False)
    assert "cached store" in md and "## Per family" in md and "tiny (held-out)" in md
    assert "| train n | top 1 | top 3 | as-of top 3 (n) | stale top 1 | held-out n |" in md
    rc, md, _ = bench_cli("real", "--questions", qdir, "--out", tmp_path / "out", tiny,
                          "--split", "train", check=False)
    assert rc == 0 and "tiny (held-out)" not in md  # a held-out repository has no training row


def test_a_question_in_the_wrong_group_is_refused(tmp_path):
    from bench import real
    from repomem.core.errors import RepomemError

    (tmp_path / "click.json").write_text(json.dumps([{"id": "click-x", "split": "held-out"}]))
    with pytest.raises(RepomemError, match="split is by repository|group"):
        real.load_questions(tmp_path)


def test_skip_when_no_histories(tmp_path):
    rc, out, _ = bench_cli("real", tmp_path / "no-such-folder", "--out", tmp_path / "o")
    assert rc == 0
    assert out.strip().startswith("python -m bench real: skipped")
    assert len(out.strip().splitlines()) == 1


def test_skip_when_folder_has_no_histories(tmp_path):
    (tmp_path / "empty").mkdir()
    rc, out, _ = bench_cli("real", tmp_path / "empty", "--out", tmp_path / "o")
    assert rc == 0 and out.startswith("python -m bench real: skipped")


def test_quick_subset_and_filters():
    from bench import real

    quick = real.load_questions(real.QUESTIONS, quick=True)
    assert set(quick) == set(real.QUICK_REPOS) | set(real.QUICK_SLICES)
    # both groups, generated and hand-written questions
    assert {real.split_of(n) for n in quick} == {"train", "held-out"}
    assert {q["source"] for qs in quick.values() for q in qs} == {"generated", "hand"}
    held = real.load_questions(real.QUESTIONS, split="held-out")
    assert set(held) == set(real.HELD_OUT)
    assert not real.load_questions(real.QUESTIONS, split="held-out", repos=["httpx"])
    assert real.is_python(quick["microblog"]) and not real.is_python(quick["node-express-realworld"])


_BODY = '''
    """Return the user's display name from the profile record."""
    first = record.get("first", "")
    last = record.get("last", "")
    return f"{first} {last}".strip() or record["login"]
'''


def test_renames_followed_to_head(new_repo):
    from bench.realtruth import renames

    repo = new_repo("lib")
    commit(repo, "2024-01-10T12:00:00+00:00", "a", {"lib/users.py": f"def display_name(record):{_BODY}"})
    commit(repo, "2024-04-10T12:00:00+00:00", "b", {"lib/users.py": f"def full_name(record):{_BODY}"})
    # moved to another file and edited a little: still the same function
    commit(repo, "2024-08-10T12:00:00+00:00", "c", {
        "lib/users.py": None,
        "lib/names.py": f"def label_for(record):{_BODY.replace('login', 'username')}"})
    g = GitRepo(repo)
    lns = renames.lineages(g, ["lib"])
    assert [(x.chain, x.final, x.final_path) for x in lns] == [
        (["display_name", "full_name"], "label_for", "lib/names.py"),
        (["full_name"], "label_for", "lib/names.py")]
    qs = {q["question"]: q for q in renames.renamed_questions(g, "lib", "lib", ["lib"])}
    (q,) = [q for text, q in qs.items() if "`display_name`" in text]
    assert q["value"] == "label_for" and q["stale_values"] == ["display_name", "full_name"]
    asof = renames.asof_before_rename(g, "lib", "lib", ["lib"])
    g.close()
    # 30 days before each rename, the name it had then, in the file it was in
    assert sorted((a["value"], a["path"], a["as_of"]) for a in asof) == [
        ("display_name", "lib/users.py", "2024-03-11"), ("full_name", "lib/users.py", "2024-07-11")]
    assert all("display name" in a["question"] and "_name" not in a["question"] for a in asof)


def test_file_extractors():
    from bench.realtruth import extract_js

    d = extract_docker.dockerfile(
        "ARG UV=0.4\nFROM ghcr.io/astral-sh/uv:${UV} AS uv\nFROM python:3.12-slim\n"
        "ENV A=1 B=\"two words\"\nENV FLASK_APP microblog.py\nEXPOSE 8000\n")
    assert d[("from", "final")] == "python:3.12-slim" and d[("from", "uv")].startswith("ghcr.io")
    assert (d[("env", "A")], d[("env", "B")], d[("env", "FLASK_APP")]) == ("1", "two words",
                                                                        "microblog.py")
    assert d[("expose",)] == "8000" and d[("arg", "UV")] == "0.4"
    c = extract_docker.compose("services:\n  db:\n    image: postgres:16\n    ports: ['5432:5432']\n")
    assert c == {("image", "db"): "postgres:16", ("ports", "db"): "5432:5432"}
    js = extract_js.js_functions("/**\n * Send a response\n * over the wire.\n *\n * @param {x}\n */\n"
                                 "res.send = function send(body) {\n};\n")
    assert js == {("def", "send"): "Send a response over the wire"}
    s = extract.class_settings("import os\nclass Config:\n    PORT = int(os.environ.get('P') or 25)\n"
                               "    LANGS = ['es', 'en']\n    URL = os.environ['U']\n")
    assert s == {("setting-default", "Config", "PORT"): "25",
                 ("setting", "Config", "LANGS"): '["en", "es"]',
                 ("setting", "Config", "URL"): extract.NONLITERAL}


def test_jvm_go_rust_extractors():
    from bench.realtruth import extract_more as M

    cargo = M.cargo_toml('[package]\nname = "x"\nversion = "0.4.1"\n[dependencies]\nbytes = "1"\n'
                         'tokio = { version = "1", features = ["full"] }\nloc = { path = "../l" }\n'
                         '[dev-dependencies]\ntokio = { version = "1.2" }\n')
    assert cargo == {("dep", "main", "bytes"): "1", ("dep", "main", "tokio"): "1",
                     ("dep", "main", "loc"): extract.NONLITERAL, ("dep", "dev", "tokio"): "1.2",
                     ("version",): "0.4.1"}
    gomod = M.go_mod("module m\n\ngo 1.22\n\nrequire (\n\tgithub.com/a/b v1.2.3\n"
                     "\tgolang.org/x/y v0.1.0 // indirect\n)\nrequire c.io/d v2.0.0+incompatible\n")
    assert gomod == {("dep", "engines", "go"): "1.22", ("dep", "main", "github.com/a/b"): "v1.2.3",
                     ("dep", "indirect", "golang.org/x/y"): "v0.1.0",
                     ("dep", "main", "c.io/d"): "v2.0.0+incompatible"}
    pom = M.pom_xml('<project xmlns="http://maven.apache.org/POM/4.0.0"><version>1.0</version>'
                    '<parent><artifactId>spring-boot-starter-parent</artifactId><version>3.2.0'
                    '</version></parent><properties><java.version>17</java.version><lib.v>2.1'
                    '</lib.v></properties><dependencies><dependency><artifactId>lib</artifactId>'
                    '<version>${lib.v}</version><scope>test</scope></dependency><dependency>'
                    '<artifactId>nov</artifactId></dependency><dependency><artifactId>gone'
                    '</artifactId><version>${missing}</version></dependency></dependencies></project>')
    assert pom == {("dep", "parent", "spring-boot-starter-parent"): "3.2.0",
                   ("prop", "java.version"): "17", ("prop", "lib.v"): "2.1",
                   ("dep", "test", "lib"): "2.1", ("dep", "compile", "gone"): extract.NONLITERAL}
    gradle = M.gradle("plugins {\n  id 'org.springframework.boot' version '2.6.3'\n"
                      "  kotlin(\"jvm\") version \"2.2.21\"\n}\nsourceCompatibility = '11'\n"
                      "dependencies {\n  implementation 'g:web'\n  implementation 'io.j:jjwt-api:0.11.2'\n"
                      "  runtimeOnly 'io.j:jjwt-impl:0.11.2',\n      'io.j:jjwt-jackson:0.11.3'\n"
                      "  testImplementation(\"r:rest-assured:4.5.1\")\n}\n"
                      "java { toolchain { languageVersion = JavaLanguageVersion.of(17) } }\n")
    assert gradle == {("dep", "plugin", "org.springframework.boot"): "2.6.3",
                      ("dep", "plugin", "org.jetbrains.kotlin.jvm"): "2.2.21",
                      ("java", "sourceCompatibility"): "11", ("java", "toolchain"): "17",
                      ("dep", "implementation", "jjwt-api"): "0.11.2",
                      ("dep", "runtimeOnly", "jjwt-impl"): "0.11.2",
                      ("dep", "runtimeOnly", "jjwt-jackson"): "0.11.3",
                      ("dep", "testImplementation", "rest-assured"): "4.5.1"}
    props = M.properties("# c\nspring.datasource.url=jdbc:sqlite:dev.db\nserver.port: 8080\n"
                         "empty=\nCase.Key = v\n")
    assert props == {("prop", "spring.datasource.url"): "jdbc:sqlite:dev.db",
                     ("prop", "server.port"): "8080", ("prop", "empty"): extract.NONLITERAL,
                     ("prop", "Case.Key"): "v"}
    # escapes read as Java reads them (gradle-wrapper.properties writes https\://)
    assert M.properties("url=https\\://h/x.zip\nu=\\u0041\\tb\n") == {
        ("prop", "url"): "https://h/x.zip", ("prop", "u"): "A\tb"}
    assert M.go_constants('const Version = "1.0"\nconst (\n\tA = "a" // c\n\tB = iota\n'
                          '\tC int = 3\n)\n') == {("const", "Version"): "1.0", ("const", "A"): "a",
                                                  ("const", "B"): extract.NONLITERAL,
                                                  ("const", "C"): "3"}
    assert M.rust_constants('pub const PORT: u16 = 6379;\nconst MAX: usize = 2_097_152;\n'
                            '    const LOCAL: usize = 1;\nstatic S: &str = "x";\n') == {
        ("const", "PORT"): "6379", ("const", "MAX"): "2097152", ("const", "S"): "x"}
    assert M.java_constants('  private static final String template = "Hello, %s!";\n'
                            '  static final long N = 5L;\n') == {
        ("const", "template"): "Hello, %s!", ("const", "N"): "5"}


def test_python_defaults_extractors():
    from bench.realtruth import extract_more as M

    init = M.init_defaults("Config")(
        "class Config:\n    def __init__(self, app, host: str = '127.0.0.1', port=8000, *,"
        " size: int = 16 * 1024, log=None, cfg=LOGGING):\n        pass\n"
        "class Other:\n    def __init__(self, x=1):\n        pass\n")
    assert init == {("init", "Config", "host"): "127.0.0.1", ("init", "Config", "port"): "8000",
                    ("init", "Config", "size"): "16384", ("init", "Config", "log"): "None",
                    ("init", "Config", "cfg"): extract.NONLITERAL}
    opts = M.typer_options(
        "import typer\nfrom typing import Annotated\n"
        "def main(name: str = typer.Option('World'), need: str = typer.Option(...),\n"
        "         formal: Annotated[bool, typer.Option('--formal')] = False,\n"
        "         plain: int = 3):\n    pass\n")
    assert opts == {("option", "main", "name"): "World", ("option", "main", "need"): extract.NONLITERAL,
                    ("option", "main", "formal"): "false"}


def test_gin_and_spring_routes_and_doc_functions(new_repo):
    from bench.realtruth import code_more as C

    repo = new_repo("svc")
    commit(repo, "2024-01-10T12:00:00+00:00", "start", {
        "hello.go": 'v1 := r.Group("/api")\nusers.UsersRegister(v1.Group("/users"))\n',
        "users/routers.go": ('func UsersRegister(router *gin.RouterGroup) {\n'
                             '\trouter.POST("/", UsersRegistration)\n\trouter.POST("/login", UsersLogin)\n}\n'
                             "// GenToken generates a token for the user.\nfunc GenToken(id uint) string {\n}\n"),
        "src/main/java/a/UsersApi.java": (
            '@RestController\n@RequestMapping(path = "/articles")\npublic class ArticlesApi {\n'
            '  @GetMapping(path = "feed")\n  public ResponseEntity getFeed(int x) {}\n'
            '  @RequestMapping(path = "{id}", method = RequestMethod.DELETE)\n'
            '  public ResponseEntity remove(String id) {}\n}\n'),
        "src/lib.rs": "/// Reads a frame from the stream.\n#[inline]\npub async fn read_frame() {}\n"})
    g = GitRepo(repo)
    head = g.head.sha
    assert C.gin_routes("hello.go")(g, head) == {  # the group's root path is not asked
        ("route", "UsersLogin"): ("POST /api/users/login", "users/routers.go")}
    assert C.spring_routes("src/main/java")(g, head) == {
        ("route", "getFeed"): ("GET /articles/feed", "src/main/java/a/UsersApi.java"),
        ("route", "remove"): ("DELETE /articles/{id}", "src/main/java/a/UsersApi.java")}
    assert C.go_doc_functions(g.show(head, "users/routers.go")) == {
        ("def", "GenToken"): "generates a token for the user."}
    assert C.rust_doc_functions(g.show(head, "src/lib.rs")) == {
        ("def", "read_frame"): "Reads a frame from the stream."}
    funcs = C.doc_functions(g, "svc", "svc", ["users"], ".go", C.go_doc_functions)
    g.close()
    assert [(q["value"], q["path"]) for q in funcs] == [("GenToken", "users/routers.go")]
    assert "generates a token for the user" in funcs[0]["question"]


def test_hand_questions_checked_with_git(tiny):
    from bench.realtruth import hand

    g = GitRepo(tiny)
    base = {"family": "dependency", "path": "pyproject.toml", "subject": "requests",
            "kinds": ["dependency"], "match": '"requests(>=[^"<,]+)"'}
    now = dict(base, q="Which requests version does tiny need?", value=None)
    with pytest.raises(ValueError, match="HEAD gives"):  # HEAD says <3,>=2.31: no match
        hand.check(g, dict(now, value=">=2.20"))
    past = dict(base, q="On 2024-02-01, which requests did tiny need?", as_of="2024-02-01",
                value=">=2.20")
    ev = hand.check(g, past)
    assert ev["day_start_commit"] == ev["day_end_commit"] == g.chain[0].sha
    page = {"q": "x", "family": "settings", "path": "config.py", "subject": "POSTS_PER_PAGE",
            "kinds": ["config"], "match": r"POSTS_PER_PAGE = (\d+)", "as_of": "2024-05-20",
            "value": "20"}
    with pytest.raises(ValueError, match="both edges"):  # 20 in the morning, 30 at night
        hand.check(g, page)
    gone = dict(base, match='"(click)==', absent=True, value=None)
    assert hand.check(g, gone)["last_seen"] == g.chain[0].sha  # the second commit removed it
    with pytest.raises(ValueError, match="never stated"):
        hand.check(g, dict(gone, match='"(flask)=='))
    recs = hand.records("tiny", g, [past])
    g.close()
    assert recs[0]["split"] == "held-out" and recs[0]["source"] == "hand"
    assert recs[0]["expect"] == {"value": ">=2.20", "subject": "requests", "path": "pyproject.toml",
                                 "kinds": ["dependency"]}
    with pytest.raises(SystemExit, match="marker"):
        hand.records("tiny", GitRepo(tiny), [dict(past, q="Which requests was it?")])


def test_a_constant_moved_to_another_file_is_not_removed(new_repo):
    repo = new_repo("moved")
    commit(repo, "2024-01-10T12:00:00+00:00", "start",
           {"pkg/constants.py": "OPEN = '['\nGONE = 1\n", "pkg/tokens.py": "x = 1\n"})
    commit(repo, "2024-03-01T12:00:00+00:00", "move",
           {"pkg/constants.py": "OTHER = 2\n", "pkg/tokens.py": "OPEN = '['\n"})
    cfg = engine.Config("moved", "moved", [engine.Source("pkg/constants.py", extract.module_constants)],
                        repos.describe_for("moved"))
    g = GitRepo(repo)
    qs = engine.build(g, cfg)
    g.close()
    # OPEN lives on in tokens.py (a file the truth does not read): never asked as removed
    assert [q["subject"] for q in qs if q.get("absent")] == ["GONE"]


def test_two_benchmarks_asking_for_one_new_store_ingest_it_once(tiny, tmp_path):
    # bench real and fit-ranker started together on new mining code: one ingests, the other
    # waits for it and takes its store (they once ingested into one folder at the same time)
    import subprocess
    import sys

    code = ("import json, sys; from pathlib import Path; from bench import realstore; "
            "h = realstore.History('tiny', Path(sys.argv[1]), 'clone'); "
            "path, info = realstore.store_for(h, h.source, log=lambda *a: None); "
            "print(json.dumps({'path': str(path), 'cached': info['cached']}))")
    env = {**__import__("os").environ, "REPOMEM_BENCH_CACHE": str(tmp_path / "cache")}
    procs = [subprocess.Popen([sys.executable, "-c", code, str(tiny)], cwd=ROOT, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [err for _, err in outs]
    got = [json.loads(out) for out, _ in outs]
    assert got[0]["path"] == got[1]["path"]
    assert sorted(g["cached"] for g in got) == [False, True]
