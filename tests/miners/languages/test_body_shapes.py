"""More values a function body states where no setting names them (see
repomem/miners/_arguments.py): the one path or URL a call is given (gin's ``gorm.Open("sqlite3",
"./../gorm.db")``), a map's string-keyed entry given a number or a deadline from now (gin's
``jwt.MapClaims{"exp": time.Now().Add(time.Hour * 24).Unix()}``), and the number a branch or a
loop compares a name with (mini-redis's ``if backoff > 64``)."""

from __future__ import annotations

from repomem.miners import mine_file
from repomem.service.query import history
from tests.conftest import indexed

DATABASE_GO = """package common

import "fmt"

// Init opens the database.
func Init() *gorm.DB {
	db, err := gorm.Open("sqlite3", "%s")
	log.Printf("opening ./../gorm.db")
	path := fmt.Sprintf("%%s/app.db", dir)
	c.Header("Content-Type", "application/json")
	router.GET("/users/:id", handler)
	for attempts := 0; attempts < 3; attempts++ {
		if len(queue) > 5 || status >= 400 {
			break
		}
	}
	full := attempts > 7
	for i := 0; i < 10; i++ {
	}
	if count == 5 || count > 1 {
	}
	return db
}

func GenToken(id uint) string {
	token := jwt.New(jwt.GetSigningMethod("HS256"))
	token.Claims = jwt.MapClaims{
		"id":  id,
		"alg": "HS256",
		"exp": time.Now().Add(time.Hour * %d).Unix(),
		"nbf": time.Now().Unix(),
	}
	c.JSON(200, gin.H{"limit": 20, "error": err.Error()})
	return ""
}
"""
AUTH_PY = """import sqlite3


def connect(retries):
    conn = sqlite3.connect("app.db")
    logging.info("opened app.db")
    print("config/settings.yaml")
    with open("config/settings.yaml") as f:
        pass
    while retries < 5:
        retries += 1
    if len(rows) > 5:
        pass
    return conn


def token(user_id, expires_in):
    payload = {"exp": datetime.utcnow() + timedelta(hours=1), "sub": user_id, "alg": "HS256",
               "until": time() + expires_in, "page": page + 1}
    return jsonify({"limit": 20})
"""
SERVER_RS = """impl Listener {
    async fn accept(&mut self) -> crate::Result<TcpStream> {
        let mut backoff = 1;
        loop {
            match self.listener.accept().await {
                Ok((socket, _)) => return Ok(socket),
                Err(err) => {
                    if backoff > %d {
                        return Err(err.into());
                    }
                }
            }
            if buf.len() > 5 {}
            println!("reading {}", "x.json");
            time::sleep(Duration::from_secs(backoff)).await;
            backoff *= 2;
        }
    }
}
"""
STORE_TS = """export function setup(retries: number) {
  const db = new Database("data/app.sqlite");
  console.log("opened data/app.sqlite");
  fs.readFileSync(`${dir}/x.json`);
  if (retries >= 3) { return; }
  if (res.statusCode >= 400) { return; }
  fetch("https://api.example.com/v1/items");
}
"""
STORE_JAVA = """package a;

class Store {
    void open() {
        File f = new File("data/app.db");
        logger.info("data/app.db");
        if (this.attempts >= 3) {}
        if (list.size() > 5) {}
    }
}
"""
STORE_KT = """package a

class Store {
    fun open() {
        val d = Database("data/app.db")
        println("data/app.db")
        while (this.tries < 7) {}
    }
}
"""
PATH = {"argument": "true", "path": "true", "position": "1"}


def _config(path: str, text: str) -> dict[str, tuple[str, dict]]:
    return {f.key: (f.value, dict(f.attrs)) for f in mine_file(path, text.encode()) if f.kind == "config"}


def _facts(path: str, text: str) -> dict:
    return {f.key: f for f in mine_file(path, text.encode())}


def test_a_calls_one_path_or_url_is_a_setting_of_the_calling_function():
    got = _facts("common/database.go", DATABASE_GO % ("./../gorm.db", 24))
    f = got["config:common/database.go:Init.gorm.Open"]
    assert (f.value, dict(f.attrs)) == ("./../gorm.db", {**PATH, "position": "2"})
    assert f.purpose == "open - the database file (sqlite3) Init() passes to gorm.Open()"
    assert f.text.strip() == 'db, err := gorm.Open("sqlite3", "./../gorm.db")'
    # a log's message, a format string, a header's MIME type, a route: no file
    assert [k for k in got if k.startswith("config:") and "path" in dict(got[k].attrs)] \
        == ["config:common/database.go:Init.gorm.Open"]
    py = _config("app/db.py", AUTH_PY)
    assert py["config:app/db.py:connect.sqlite3.connect"] == ("app.db", PATH)
    assert py["config:app/db.py:connect.open"] == ("config/settings.yaml", PATH)
    assert not [k for k in py if "logging" in k or "print" in k]
    ts = _config("src/store.ts", STORE_TS)
    assert {k: v for k, v in ts.items() if "path" in v[1]} == {
        "config:src/store.ts:setup.Database": ("data/app.sqlite", PATH),
        "config:src/store.ts:setup.fetch": ("https://api.example.com/v1/items", PATH)}
    assert _config("src/main/java/a/Store.java", STORE_JAVA)["config:src/main/java/a/Store.java:Store.open.File"] \
        == ("data/app.db", PATH)
    kt = _config("src/main/kotlin/a/Store.kt", STORE_KT)
    assert kt["config:src/main/kotlin/a/Store.kt:Store.open.Database"] == ("data/app.db", PATH)
    assert not [k for k, v in _config("src/server.rs", SERVER_RS % 64).items() if "path" in v[1]]
    assert _config("common/database_test.go", DATABASE_GO % ("./../gorm.db", 24)) == {}


def test_a_maps_entry_given_a_number_or_a_deadline_from_now():
    got = _facts("common/utils.go", DATABASE_GO % ("./../gorm.db", 24))
    f = got["config:common/utils.go:GenToken.exp"]
    assert (f.value, dict(f.attrs)) == ("time.Hour * 24", {"entry": "true", "expression": "true"})
    assert f.purpose == "exp - an entry of the jwt.MapClaims GenToken() builds"
    # a name ("id": id), a label ("HS256"), now itself, a response's body (c.JSON): no setting
    assert [k for k in got if ("entry", "true") in got[k].attrs] == ["config:common/utils.go:GenToken.exp"]
    py = {k: v for k, v in _config("app/auth.py", AUTH_PY).items() if "entry" in v[1]}
    # a parameter added to now, a counter, a jsonify's body: no setting
    assert py == {"config:app/auth.py:token.exp": ("timedelta(hours=1)", {"entry": "true", "expression": "true"})}


def test_the_number_a_branch_or_a_loop_compares_a_name_with():
    got = _facts("src/server.rs", SERVER_RS % 64)
    f = got["config:src/server.rs:Listener.accept.backoff"]
    assert (f.value, dict(f.attrs), f.purpose) == (
        "64", {"bound": ">"}, "backoff - the bound Listener.accept() compares it with (> 64)")
    assert [k for k in got if ("bound", ">") in got[k].attrs or ("bound", "<") in got[k].attrs] \
        == ["config:src/server.rs:Listener.accept.backoff"]  # not buf.len() > 5
    py = {k: v for k, v in _config("app/auth.py", AUTH_PY).items() if "bound" in v[1]}
    assert py == {"config:app/auth.py:connect.retries": ("5", {"bound": "<"})}  # not len(rows) > 5
    go = {k: v for k, v in _config("common/database.go", DATABASE_GO % ("x.db", 24)).items() if "bound" in v[1]}
    # not len(queue), a status, a comparison outside a test (full := ...), a loop's index i,
    # an equality, a counter's 1
    assert go == {"config:common/database.go:Init.attempts": ("3", {"bound": "<"})}
    ts = {k: v for k, v in _config("src/store.ts", STORE_TS).items() if "bound" in v[1]}
    assert ts == {"config:src/store.ts:setup.retries": ("3", {"bound": ">="})}
    java = _config("src/main/java/a/Store.java", STORE_JAVA)
    assert {k: v for k, v in java.items() if "bound" in v[1]} == {
        "config:src/main/java/a/Store.java:Store.open.attempts": ("3", {"bound": ">="})}
    kt = _config("src/main/kotlin/a/Store.kt", STORE_KT)
    assert kt["config:src/main/kotlin/a/Store.kt:Store.open.tries"] == ("7", {"bound": "<"})


def test_body_shapes_have_a_history_and_no_secret(tmp_path):
    secret = "postgres://admin:Zq8rT2vLx9Wk4Np7@db.internal:5432/app"
    r = indexed(tmp_path / "repo",
                ("2026-02-01T10:00:00+00:00", {"common/database.go": DATABASE_GO % ("./../gorm.db", 24),
                                                  "src/server.rs": SERVER_RS % 64,
                                                  "app/db.py": f'def dsn():\n    return connect("{secret}")\n'}),
                ("2026-03-01T10:00:00+00:00", {"common/database.go": DATABASE_GO % ("./data/app.db", 48),
                                                  "src/server.rs": SERVER_RS % 32}))
    versions = {k: [v["value"] for v in history(r, k)["versions"]] for k in (
        "config:common/database.go:Init.gorm.Open", "config:common/database.go:GenToken.exp",
        "config:src/server.rs:Listener.accept.backoff")}
    assert versions == {"config:common/database.go:Init.gorm.Open": ["./../gorm.db", "./data/app.db"],
                        "config:common/database.go:GenToken.exp": ["time.Hour * 24", "time.Hour * 48"],
                        "config:src/server.rs:Listener.accept.backoff": ["64", "32"]}
    dsn = history(r, "config:app/db.py:dsn.connect")["versions"]
    assert dsn and "Zq8rT2vLx9Wk4Np7" not in str(dsn)
