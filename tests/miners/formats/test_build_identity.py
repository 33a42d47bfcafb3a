"""A build manifest's own identity -- the Go module path, a pom's own coordinates, a Gradle
settings script's root project name and included projects -- as settings keyed by file, through
the miners and through a real git history; a settings script states no dependency."""

from __future__ import annotations

import pytest

from repomem.miners import mine_file
from repomem.service.query import facts, history
from tests.conftest import indexed

GO_MOD = """module {module}

go 1.22

require github.com/gin-gonic/gin v1.9.1
"""

POM = """<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>org.springframework.boot</groupId>
    <artifactId>spring-boot-starter-parent</artifactId>
    <version>3.2.5</version>
  </parent>
  <groupId>com.example</groupId>
  <artifactId>{artifact}</artifactId>
  <version>0.0.1-SNAPSHOT</version>
  <name>{name}</name>
  <packaging>jar</packaging>
  <description>
      Demo project for
      Spring Boot
  </description>
  <properties>
    <service.name>rest</service.name>
  </properties>
  <dependencies>
    <dependency>
      <groupId>org.springframework.boot</groupId>
      <artifactId>spring-boot-starter-web</artifactId>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <groupId>org.springframework.boot</groupId>
        <artifactId>spring-boot-maven-plugin</artifactId>
      </plugin>
    </plugins>
  </build>
  <profiles>
    <profile>
      <id>native</id>
      <name>not the project's</name>
    </profile>
  </profiles>
</project>
"""

SETTINGS = """pluginManagement {
    repositories {
        maven { url 'https://repo.spring.io/milestone' }
        gradlePluginPortal()
    }
    plugins {
        id 'org.springframework.boot' version '3.2.5'
    }
}
dependencyResolutionManagement {
    repositories { mavenCentral() }
    versionCatalogs {
        libs {
            library('guava', 'com.google.guava:guava:33.0.0-jre')
        }
    }
}
// rootProject.name = 'commented-out'
rootProject.name = 'rest-service-complete'
include 'app', ':lib:core'
include(
    ":web",
    ":cli"
)
includeBuild('../tools')
"""

SETTINGS_KTS = """pluginManagement {
    repositories { gradlePluginPortal() }
}
rootProject.name = "rest-service-kotlin"
include("api", "worker")
"""


def _config(path: str, text: str) -> dict[str, tuple[str, int]]:
    return {f.key: (f.value, f.line) for f in mine_file(path, text.encode()) if f.kind == "config"}


def test_go_mod_states_its_module_path_beside_the_go_version():
    mined = {f.key: (f.value, f.line) for f in mine_file("go.mod", GO_MOD.format(
        module="github.com/gothinkster/golang-gin-realworld-example-app").encode())}
    assert mined["config:go.mod:module"] == ("github.com/gothinkster/golang-gin-realworld-example-app", 1)
    assert mined["dependency:go:.:engines:go"] == ("1.22", 3)
    quoted = _config("svc/go.mod", 'module "example.com/svc" // the service\n')
    assert quoted == {"config:svc/go.mod:module": ("example.com/svc", 1)}


def test_a_pom_states_its_own_coordinates_not_its_parents():
    got = _config("pom.xml", POM.format(artifact="rest-service", name="gs-rest-service"))
    assert got["config:pom.xml:groupId"] == ("com.example", 9)
    assert got["config:pom.xml:artifactId"] == ("rest-service", 10)
    assert got["config:pom.xml:version"] == ("0.0.1-SNAPSHOT", 11)
    assert got["config:pom.xml:name"] == ("gs-rest-service", 12)
    assert got["config:pom.xml:packaging"] == ("jar", 13)
    assert got["config:pom.xml:description"] == ("Demo project for Spring Boot", 14)
    values = {v for v, _ in got.values()}
    assert "spring-boot-starter-parent" not in values and "org.springframework.boot" not in values
    assert "not the project's" not in values  # a profile's <name>


def test_a_pom_without_its_own_group_states_none_and_resolves_references():
    text = POM.format(artifact="${service.name}-service", name="${project.artifactId}") \
        .replace("  <groupId>com.example</groupId>\n", "")
    mined = {f.key: f for f in mine_file("api/pom.xml", text.encode())}
    assert "config:api/pom.xml:groupId" not in mined  # inherited from the parent, not written here
    artifact = mined["config:api/pom.xml:artifactId"]
    assert artifact.value == "rest-service" and dict(artifact.attrs)["declared"] == "${service.name}-service"
    assert mined["config:api/pom.xml:name"].value == "rest-service"


@pytest.mark.parametrize("path, text, want", [
    ("complete/settings.gradle", SETTINGS, {
        "config:complete/settings.gradle:rootProject.name": ("rest-service-complete", 19),
        "config:complete/settings.gradle:include.app": ("app", 20),
        "config:complete/settings.gradle:include.lib.core": (":lib:core", 20),
        "config:complete/settings.gradle:include.web": (":web", 22),
        "config:complete/settings.gradle:include.cli": (":cli", 23)}),
    ("settings.gradle.kts", SETTINGS_KTS, {
        "config:settings.gradle.kts:rootProject.name": ("rest-service-kotlin", 4),
        "config:settings.gradle.kts:include.api": ("api", 5),
        "config:settings.gradle.kts:include.worker": ("worker", 5)}),
])
def test_a_settings_script_states_its_root_project_and_includes_only(path, text, want):
    """pluginManagement's plugin versions, repositories and a version catalog are not the
    build's dependencies: a settings script states none, only its two top-level statements."""
    mined = mine_file(path, text.encode())
    assert {f.key: (f.value, f.line) for f in mined} == want
    assert all(f.kind == "config" for f in mined)


@pytest.mark.parametrize("text", [
    "rootProject.name = \ninclude(((\n}}}{{ \"x\n",
    "rootProject.name = 'a\ninclude ':b\n",
    "}\n}\nrootProject.name = \"ok\"\n",
    "\x01\x02 include\x7f (",
    "",
])
def test_a_malformed_settings_script_states_what_it_can_and_never_raises(text):
    mined = mine_file("settings.gradle", text.encode())
    assert all(f.kind == "config" for f in mined)
    if "\"ok\"" in text:
        assert [f.value for f in mined] == ["ok"]


def test_build_identity_through_a_history(tmp_path):
    """Renamed module path, artifact and root project: each key has the versions of its file,
    and the parent's coordinates never become the project's."""
    first = {"go.mod": GO_MOD.format(module="github.com/example/old"),
             "pom.xml": POM.format(artifact="rest-service", name="gs-rest-service"),
             "complete/settings.gradle": "rootProject.name = 'rest-service'\n",
             "complete/build.gradle": "group = 'com.example'\nversion = '0.0.1-SNAPSHOT'\n"}
    second = {"go.mod": GO_MOD.format(module="github.com/example/new"),
              "pom.xml": POM.format(artifact="rest-service-complete", name="gs-rest-service"),
              "complete/settings.gradle": SETTINGS}
    r = indexed(tmp_path / "repo", ("2026-01-10T10:00:00+00:00", first), ("2026-02-10T10:00:00+00:00", second))
    now = {f["key"]: f["value"] for f in facts(r)["facts"]}
    assert now["config:go.mod:module"] == "github.com/example/new"
    assert now["config:pom.xml:artifactId"] == "rest-service-complete"
    assert now["config:pom.xml:groupId"] == "com.example"
    assert now["config:complete/settings.gradle:rootProject.name"] == "rest-service-complete"
    assert now["config:complete/build.gradle:group"] == "com.example"  # a build script's own group
    assert now["config:complete/build.gradle:version"] == "0.0.1-SNAPSHOT"
    root = "config:complete/settings.gradle:rootProject.name"
    for key, values in (("config:go.mod:module", ["github.com/example/old", "github.com/example/new"]),
                        (root, ["rest-service", "rest-service-complete"])):
        assert [v["value"] for v in history(r, key)["versions"]] == values
    assert not [k for k in now if k.startswith("dependency:gradle:complete:")]  # nothing from the settings script
