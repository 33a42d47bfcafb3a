"""What the walker states beyond a literal, and what it leaves alone: enum counters, a closure's
constants, test files' returns, arithmetic too large to fold."""

from __future__ import annotations

import time

from repomem.miners import mine_file


def _constants(path: str, text: str) -> dict[str, str]:
    return {f.key: f.value for f in mine_file(path, text.encode()) if f.kind == "constant"}


def test_go_values_left_alone():
    got = _constants("pkg/limits.go", """package pkg

const (
	KB = 1 << (10 * (iota + 1))
	MB
)
const Huge = 1 << 100000
const Big = 1 << 64

func handler() func() int {
	return func() int {
		const inClosure = 3
		return inClosure
	}
}

func enabled() bool { return true }
""")
    assert "constant:pkg/limits.go:KB" not in got  # an iota enum counter is no value
    assert got["constant:pkg/limits.go:Big"] == str(1 << 64)
    assert got["constant:pkg/limits.go:Huge"] == "1 << 100000"  # too large to fold: as written
    assert not any("inClosure" in k for k in got)
    assert "constant:pkg/limits.go:enabled()" not in got  # a boolean return says nothing


def test_a_hostile_expression_costs_nothing():
    text = "package p\nconst X = " + " + ".join(["(1 << 127)"] * 2000) + "\n"
    start = time.perf_counter()
    mine_file("p/x.go", text.encode())
    assert time.perf_counter() - start < 5


def test_division_truncates_as_the_language_does():
    got = _constants("src/lib.rs", "const A: i32 = -7 / 2;\nconst B: i32 = -7 % 2;\nconst C: f64 = 1.0 / 4.0;\n")
    assert (got["constant:src/lib.rs:A"], got["constant:src/lib.rs:B"], got["constant:src/lib.rs:C"]) == \
        ("-3", "-1", "0.25")


def test_literal_returns_in_tests_are_not_stated():
    text = "package server\n\nfunc defaultAddr() string {\n\treturn \":8080\"\n}\n"
    assert _constants("server/addr.go", text) == {"constant:server/addr.go:defaultAddr()": ":8080"}
    assert _constants("server/addr_test.go", text) == {}


def test_go_vars_and_java_maps_left_alone():
    """A var made at run time, a data table not named as settings, two names bound at once, a
    function's own var, a logger: none is a value anyone configures."""
    got = _constants("pkg/vars.go", """package pkg

var ErrGone = errors.New("gone")
var statusText = map[int]string{200: "OK"}
var upgrader = Upgrader{ReadBufferSize: 1024}
var A, B = 1, 2
var _ Handler = (*server)(nil)
var Hook = func() {}

func f() {
	var local = Config{Port: 1}
	_ = local
}
""")
    assert got == {}
    assert _constants("pkg/vars_test.go", 'package pkg\n\nvar imageURL = "https://x/y.png"\n') == {}
    got = _constants("src/App.java", """class App {
    private static final Logger log = LoggerFactory.getLogger(App.class);
    private static final Map<String, Integer> cache = Map.of("x", 1);
    static final Map<String, Integer> EMPTY = Map.of();
    static final int[] PRIMES = {2, 3};
    final int notStatic = 3;
}
""")
    assert got == {}


def test_java_annotated_parameter_defaults_and_a_secret_one_redacted():
    src = """class GreetingController {
    @GetMapping("/greeting")
    public Greeting greeting(@RequestParam(value = "name", defaultValue = "World") String name,
                             @RequestHeader(defaultValue = "Zq8#kLm2Vx9pQ4rT") String apiToken,
                             @RequestParam(defaultValue = PAGE) int page) {
        return null;
    }
}
"""
    got = {f.key.rsplit(":", 1)[1]: f.value for f in mine_file("src/main/java/GreetingController.java", src.encode())
           if f.kind == "config"}
    assert got["GreetingController.greeting.name"] == "World"
    assert got["GreetingController.greeting.apiToken"].startswith("<redacted:")
    assert "GreetingController.greeting.page" not in got  # a constant's name: not a literal
    test_file = mine_file("src/test/java/GreetingControllerTest.java", src.encode())
    assert test_file and not [f for f in test_file if f.kind == "config"]  # a test's are fixtures


def _settings(path: str, text: str) -> dict[str, str]:
    return {f.key.split(":", 2)[2]: f.value for f in mine_file(path, text.encode()) if f.kind == "config"}


def test_defaults_an_object_or_a_call_is_made_with_and_what_is_left_alone():
    """JS/TS parameter and class-field defaults, a Java configuration class's instance fields and
    Rust ``impl Default`` literals are settings; private names, non-literals, a null outside a configuration class's
    constructor, static state, a test file's and a nested function's are not."""
    js = _settings("src/server.js", """class Server {
  #hidden = 1;
  _internal = 2;
  timeout = 5000;
  items = [];
  constructor(port = 3000, options = {}, store = null, _depth = 0) {
    function inner(limit = 10) { return limit; }
  }
  _helper(size = 8) {}
}
function open(path, mode = 'r', callback = null) {}
function _private(size = 4) {}
class PoolConfig {
  constructor(size = null) {}
}
""")
    assert js == {"Server.timeout": "5000", "Server.items": "[]", "Server.port": "3000", "open.mode": "r",
                  "PoolConfig.size": "null"}
    assert _settings("test/server.test.js", "class S { constructor(port = 1) {} }\nfunction f(x = 2) {}\n") == {}
    java = _settings("src/main/java/App.java", """public class AppProperties {
    private static int counter = 5;
    private List<String> names = new ArrayList<>();
    private Runnable task = () -> run();
    private String label;
    private int retries = 3;
}

@ConfigurationProperties(prefix = "mail")
class Mail {
    private int port = 25;
}

class Article {
    private boolean favorited = false;
}
""")
    assert java == {"AppProperties.retries": "3", "Mail.port": "25"}  # an entity's initial state is none
    rust = _settings("src/lib.rs", """impl Default for Opts {
    fn default() -> Self { Opts { port: 80, name: compute(), ..Default::default() } }
}
impl Opts {
    pub fn with_port(port: u16) -> Opts { Opts { port, name: String::new() } }
    pub fn new() -> Other { Other { size: 3 } }
}
""")
    # another type's literal is no default of Opts: a number its maker's body gives a field
    assert rust == {"Opts.port": "80", "Opts.new.Other.size": "3"}


def test_go_constructor_literals_and_what_is_left_alone():
    """The struct literal a New.../Default... function returns gives a setting per literal entry;
    not another function's, nor one built over several statements, nor a test file's."""
    src = """package srv

func NewServer(addr string) *Server { return &Server{Addr: addr, Port: 8080, Tags: []string{"a"}} }
func Build() *Server { return &Server{Port: 1} }
func DefaultServer() Server {
	s := Server{Port: 2}
	return s
}
func news() Item { return Item{Size: 3} }
"""
    # news() is no constructor: its literal's number is a field its body gives (miners._arguments);
    # DefaultServer's is not, Server.Port being stated as NewServer's default
    assert _settings("srv/server.go", src) == {"Server.Port": "8080", "news.Item.Size": "3"}
    assert _settings("srv/server_test.go", src) == {}


def test_a_class_field_comes_before_the_constructor_parameter_of_its_name():
    got = [f for f in mine_file("src/pool.ts", b"export class Pool {\n  size = 4;\n  constructor(size = 8) {}\n}\n")
           if f.kind == "config"]
    assert [(f.key, f.value) for f in got] == [("config:src/pool.ts:Pool.size", "4")]


def test_a_secret_named_default_is_redacted_in_every_new_shape():
    """The defaults go through the redactor like any setting: value and source text; a
    neighbouring parameter's fact does not carry the secret in its text."""
    secret = "a8F3kQ9zLmN2pX7vR4tY"
    files = {
        "src/client.ts": "export class Client {\n  constructor(apiToken: string = '@@', port = 80) {}\n}\n",
        "src/Mail.java": '@ConfigurationProperties("mail")\nclass MailProperties {\n'
                         '    private String password = "@@"; private int port = 25;\n}\n',
        "src/db.rs": 'impl Default for Db { fn default() -> Self {\n'
                     '    Db { password: "@@".to_string(), port: 5432 } } }\n',
        "db/db.go": 'package db\n\nfunc NewOptions() *Options { return &Options{Password: "@@", Port: 5432} }\n',
    }
    for path, text in files.items():
        facts = [f for f in mine_file(path, text.replace("@@", secret).encode()) if f.kind == "config"]
        assert len(facts) == 2, (path, facts)
        for f in facts:
            assert secret not in f.value and secret not in f.text, (path, f)
        assert any(f.value.startswith("<redacted:") for f in facts), path
