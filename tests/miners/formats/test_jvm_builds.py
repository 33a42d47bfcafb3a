"""JVM builds and settings through a real git history (Maven, Gradle, .properties), and the
hostile inputs their parsers must refuse in one line: an XML entity bomb or external entity, a
broken pom, a bad escape in a .properties file."""

from __future__ import annotations

import pytest

from repomem.miners import MineError, mine_file
from repomem.service.query import facts, history
from tests.conftest import indexed

POM = """<?xml version="1.0"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>org.springframework.boot</groupId>
    <artifactId>spring-boot-starter-parent</artifactId>
    <version>{boot}</version>
  </parent>
  <artifactId>petclinic</artifactId>
  <properties>
    <java.version>{java}</java.version>
    <webjars.version>0.52</webjars.version>
  </properties>
  <dependencies>
    <dependency>
      <groupId>org.webjars</groupId>
      <artifactId>webjars-locator-core</artifactId>
      <version>${{webjars.version}}</version>
    </dependency>{extra}
  </dependencies>
</project>
"""
CACHE = """
    <dependency>
      <groupId>javax.cache</groupId>
      <artifactId>cache-api</artifactId>
    </dependency>"""
GRADLE = """plugins {{
    id 'org.springframework.boot' version '{boot}'
}}
java {{ sourceCompatibility = JavaVersion.VERSION_{java} }}
dependencies {{
    implementation 'org.webjars:webjars-locator-core:0.52'
}}
"""
PROPS = "# the database the app talks to\ndatabase={db}\nspring.datasource.password={pw}\n"


def _current(r) -> dict[str, str]:
    return {f["key"]: f["value"] for f in facts(r)["facts"]}


def test_build_versions_and_settings_have_a_history(tmp_path):
    first = {"pom.xml": POM.format(boot="3.1.5", java="17", extra=""),
             "build.gradle": GRADLE.format(boot="3.1.5", java="17"),
             "src/main/resources/application.properties": PROPS.format(db="h2", pw="hX93kLmq2Vz7")}
    second = {"pom.xml": POM.format(boot="3.3.0", java="21", extra=CACHE),
              "build.gradle": GRADLE.format(boot="3.3.0", java="21"),
              "src/main/resources/application.properties": PROPS.format(db="postgres", pw="hX93kLmq2Vz7")}
    r = indexed(tmp_path / "repo", ("2026-01-10T10:00:00+00:00", first), ("2026-02-10T10:00:00+00:00", second))
    now = _current(r)
    parent = "dependency:maven:.:parent:org.springframework.boot:spring-boot-starter-parent"
    assert now[parent] == "3.3.0"
    assert [v["value"] for v in history(r, parent)["versions"]] == ["3.1.5", "3.3.0"]
    assert now["dependency:maven:.:engines:java"] == "21"
    assert now["dependency:maven:.:main:org.webjars:webjars-locator-core"] == "0.52"
    assert now["dependency:maven:.:main:javax.cache:cache-api"] == "managed"  # added by the second commit
    assert now["dependency:gradle:.:plugin:org.springframework.boot"] == "3.3.0"
    assert now["dependency:gradle:.:engines:java"] == "21"
    db = "config:src/main/resources/application.properties:database"
    assert [v["value"] for v in history(r, db)["versions"]] == ["h2", "postgres"]
    assert "hX93kLmq2Vz7" not in str(facts(r)["facts"])  # the password's value, redacted
    then = {f["key"]: f["value"] for f in facts(r, as_of="2026-01-20T00:00:00+00:00")["facts"]}
    assert then[parent] == "3.1.5" and then[db] == "h2"
    assert "dependency:maven:.:main:javax.cache:cache-api" not in then


BOMB = """<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<project><version>&lol2;</version></project>
"""
EXTERNAL = """<?xml version="1.0"?>
<!DOCTYPE project [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<project><version>&xxe;</version></project>
"""

# an external DTD, a parameter entity fetched from a URL, an unparsed entity: never fetched
DTD_FETCH = """<?xml version="1.0"?>
<!DOCTYPE project SYSTEM "http://127.0.0.1:9/project.dtd">
<project><version>1</version></project>
"""
PARAMETER_ENTITY = """<?xml version="1.0"?>
<!DOCTYPE project [<!ENTITY % p SYSTEM "http://127.0.0.1:9/p">%p;]>
<project><version>1</version></project>
"""
UNPARSED_ENTITY = """<?xml version="1.0"?>
<!DOCTYPE project [<!NOTATION gif SYSTEM "gif"><!ENTITY logo SYSTEM "logo.gif" NDATA gif>]>
<project><version>1</version></project>
"""


@pytest.mark.parametrize("text, says", [
    (BOMB, "refused"), (EXTERNAL, "refused"), ("<project><version>1</project>", "XML:"),
    ("<project>" * 100 + "</project>" * 100, "nested"),
    (DTD_FETCH, "refused"), (PARAMETER_ENTITY, "refused"), (UNPARSED_ENTITY, "refused"),
])
def test_a_hostile_or_broken_pom_is_a_one_line_error(text, says):
    with pytest.raises(MineError, match=says) as e:
        mine_file("pom.xml", text.encode())
    assert "\n" not in str(e.value)


def test_a_bad_properties_escape_is_a_one_line_error():
    with pytest.raises(MineError, match="properties") as e:
        mine_file("app.properties", b"a=\\uZZZZ\n")
    assert "\n" not in str(e.value)


def test_gradle_reads_nothing_it_cannot_match():
    """Comments, strings holding braces and code it does not know state nothing and break
    nothing: the dependency after them keeps its own line."""
    text = ("// implementation 'x:commented:1'\n"
            "def banner = \"{ not a block }\"\n"
            "tasks.register('hello') { doLast { println \"${banner}\" } }\n"
            "dependencies {\n"
            "    implementation files('libs/local.jar')\n"
            "    implementation project(':core')\n"
            "    implementation 'com.google.guava:guava:33.0.0-jre'\n"
            "}\n")
    got = {f.key: (f.value, f.line) for f in mine_file("build.gradle", text.encode()) if f.kind == "dependency"}
    assert got == {"dependency:gradle:.:main:com.google.guava:guava": ("33.0.0-jre", 7)}


@pytest.mark.parametrize("path, settings", [
    ("src/main/resources/application-db.properties", True), ("config/app_db.properties", True),
    ("src/main/resources/messages_fr.properties", False), ("src/Labels_pt_BR.properties", False),
    ("src/main/resources/i18n/labels_de.properties", False), ("target/classes/application.properties", False),
])
def test_translation_bundles_and_build_output_are_not_settings(path, settings):
    assert bool(mine_file(path, b"greeting=Hallo\n")) is settings


ROOT_GRADLE = """plugins {
    id 'org.springframework.boot' version "${springBootVersion}" apply false
}
ext {
    jjwtVersion = '0.9.1'
}
"""
API_GRADLE = """plugins {
    id 'java'
}
def lombok = property("lombokVersion")
dependencies {
    implementation "org.springframework.boot:spring-boot-starter-web:$springBootVersion"
    implementation "io.jsonwebtoken:jjwt:${jjwtVersion}"
    compileOnly "org.projectlombok:lombok:${lombok}"
    implementation "com.example:unknown:$nowhere"
}
"""
API_KTS = """val springBootVersion: String by project
dependencies {
    implementation("org.springframework.boot:spring-boot-starter-actuator:$springBootVersion")
}
"""


def test_gradle_properties_of_other_files_resolve_current_and_as_of(tmp_path):
    """A build script's ${name}, $name and property("name") read gradle.properties (the script's
    folder first, then each folder above) and a parent project's ext: the versions are resolved
    as of every commit, also when only gradle.properties or only the parent's ext changed."""
    props = "springBootVersion={boot}\nlombokVersion=1.18.30\n"
    r = indexed(tmp_path / "repo",
                ("2026-01-10T10:00:00+00:00", {"gradle.properties": props.format(boot="3.1.5"),
                                               "build.gradle": ROOT_GRADLE, "api/build.gradle": API_GRADLE,
                                               "web/build.gradle.kts": API_KTS,
                                               "web/gradle.properties": "springBootVersion=2.7.18\n"}),
                ("2026-02-10T10:00:00+00:00", {"gradle.properties": props.format(boot="3.3.0")}),
                ("2026-03-10T10:00:00+00:00", {"build.gradle": ROOT_GRADLE.replace("0.9.1", "0.12.6")}))
    web = "dependency:gradle:api:main:org.springframework.boot:spring-boot-starter-web"
    jjwt = "dependency:gradle:api:main:io.jsonwebtoken:jjwt"
    plugin = "dependency:gradle:.:plugin:org.springframework.boot"
    now = {f["key"]: f for f in facts(r)["facts"]}
    assert now[web]["value"] == "3.3.0" and now[web]["attrs"]["declared"] == "$springBootVersion"
    assert now[plugin]["value"] == "3.3.0"
    assert now[jjwt]["value"] == "0.12.6"  # the root project's ext
    assert now["dependency:gradle:api:provided:org.projectlombok:lombok"]["value"] == "1.18.30"
    assert now["dependency:gradle:api:main:com.example:unknown"]["value"] == "$nowhere"  # found nowhere
    # web/ has its own gradle.properties, nearer than the root's
    assert now["dependency:gradle:web:main:org.springframework.boot:spring-boot-starter-actuator"]["value"] == "2.7.18"
    assert [v["value"] for v in history(r, web)["versions"]] == ["3.1.5", "3.3.0"]
    assert [v["value"] for v in history(r, jjwt)["versions"]] == ["0.9.1", "0.12.6"]

    def then(when):
        return {f["key"]: f["value"] for f in facts(r, as_of=when)["facts"]}
    jan, feb = then("2026-01-20"), then("2026-02-20")
    assert (jan[web], jan[plugin], jan[jjwt]) == ("3.1.5", "3.1.5", "0.9.1")
    assert (feb[web], feb[plugin], feb[jjwt]) == ("3.3.0", "3.3.0", "0.9.1")


def test_one_build_kept_at_two_paths_has_each_path_its_own_facts(tmp_path):
    """A guide's initial/ and complete/ folders hold the same pom and build script, changed
    together: each file version is read once and mined at both paths, and each path has its
    own facts (its own keys, line numbers, redacted secret) all the same."""
    def both(boot: str, java: str) -> dict[str, str]:
        files = {}
        for project in ("initial", "complete"):
            files[f"{project}/pom.xml"] = POM.format(boot=boot, java=java, extra="")
            files[f"{project}/build.gradle"] = GRADLE.format(boot=boot, java=java)
            files[f"{project}/gradle.properties"] = PROPS.format(db="h2", pw="hX93kLmq2Vz7")
        return files

    r = indexed(tmp_path / "repo", ("2026-01-10T10:00:00+00:00", both("3.1.5", "17")),
                ("2026-02-10T10:00:00+00:00", both("3.3.0", "21")))
    got = facts(r)["facts"]
    now = {f["key"]: f["value"] for f in got}
    for project in ("initial", "complete"):
        parent = f"dependency:maven:{project}:parent:org.springframework.boot:spring-boot-starter-parent"
        assert [v["value"] for v in history(r, parent)["versions"]] == ["3.1.5", "3.3.0"]
        assert now[f"dependency:gradle:{project}:plugin:org.springframework.boot"] == "3.3.0"
        assert now[f"dependency:gradle:{project}:engines:java"] == "21"
        assert now[f"config:{project}/pom.xml:properties.java.version"] == "21"
        password = now[f"config:{project}/gradle.properties:spring.datasource.password"]
        assert password.startswith("<redacted:")
    assert {f["path"] for f in got if f["key"].startswith("dependency:maven:initial:")} == {"initial/pom.xml"}
    assert {f["path"] for f in got if f["key"].startswith("dependency:maven:complete:")} == {"complete/pom.xml"}
    assert "hX93kLmq2Vz7" not in str(got)
