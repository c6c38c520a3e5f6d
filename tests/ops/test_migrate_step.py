"""Deploys migrate once, before any new code runs, and migrations leave the old code working.

The compose file and the systemd units each have one migrate step (the ``migrate`` service,
``pacru-migrate.service``) that every app process waits for; no web entrypoint or unit migrates
on its own (each container raced the others, new workers ran on the old schema, and systemd killed a
migration longer than the web's 90 s start timeout). And since a rolling deploy runs the migrations
while the old code still serves, a migration newer than the last release may only add
(docs/operators/deploying.md, "Migrations and rolling deploys": add, then use, then remove).
"""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

import pytest
import yaml
from django.core.management import call_command
from django.db import migrations, models
from django.db.migrations.loader import MigrationLoader

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker" / "compose.yaml"
ENTRYPOINT = ROOT / "docker" / "entrypoint.sh"
UNITS = ROOT / "deploy" / "systemd"
MIGRATE_UNIT = "pacru-migrate.service"
#: A command that migrates the schema.
MIGRATES = re.compile(r"manage\.py\s+migrate\b")
#: A long-running app process of a unit: these must wait for the migrate step.
APP_PROCESS = re.compile(r"\b(gunicorn|uvicorn|celery)\b")

#: The last migration of each app in the last release. A rolling deploy runs any later migration
#: while that release's code still serves, so later ones may only add (see UNSAFE below). Move
#: these forward at each release; a contract step (dropping what the release before stopped using)
#: is then a migration of its own, in a release of its own, after this marker has passed the code
#: that used the dropped thing.
LAST_RELEASED = {
    "accounts": "0001_initial",
    "games": "0011_mail_username_key_skeleton",
    "ratings": "0004_update_seq_required",
    "tournaments": "0009_events_late_entry_invitation",
}
#: Operations that break the code still serving: it reads or writes what they take away or rename.
UNSAFE = (
    migrations.RemoveField,
    migrations.RenameField,
    migrations.DeleteModel,
    migrations.RenameModel,
)


def compose_services() -> dict[str, dict]:
    return yaml.safe_load(COMPOSE.read_text())["services"]


def app_services(services: dict[str, dict]) -> dict[str, dict]:
    """The services that run the app's image (built from docker/Dockerfile, through ``x-app``)."""
    return {
        name: spec
        for name, spec in services.items()
        if isinstance(spec.get("build"), dict) and spec["build"].get("dockerfile") == "docker/Dockerfile"
    }


def read_unit(path: Path) -> dict[str, list[str]]:
    """A systemd unit's settings as ``Section.Key`` → values, in order (keys may repeat; a line
    ending in a backslash goes on)."""
    settings: dict[str, list[str]] = {}
    section = ""
    text = re.sub(r"\\\n", " ", path.read_text())
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
            continue
        key, _, value = line.partition("=")
        settings.setdefault(f"{section}.{key.strip()}", []).append(value.strip())
    return settings


def unit_words(unit: dict[str, list[str]], key: str) -> set[str]:
    return {word for value in unit.get(key, []) for word in value.split()}


def exec_lines(unit: dict[str, list[str]]) -> list[str]:
    return [value for key, values in unit.items() if key.startswith("Service.Exec") for value in values]


def test_compose_has_one_migrate_step_that_runs_once() -> None:
    services = compose_services()
    migrate = services["migrate"]
    assert migrate in app_services(services).values(), "migrate runs the app's own image"
    assert MIGRATES.search(" ".join(migrate["command"])), migrate["command"]
    assert "--noinput" in migrate["command"] or "--no-input" in migrate["command"]
    # It must run once and stay done: "unless-stopped" (x-app's) would start it again and again.
    assert migrate["restart"] == "no"
    assert "migrate" not in migrate.get("depends_on", {})


def test_every_app_service_waits_for_the_migrate_step() -> None:
    services = compose_services()
    waiting = {name: spec for name, spec in app_services(services).items() if name != "migrate"}
    assert {"web", "live", "beat"} <= set(waiting), sorted(waiting)
    for name, spec in waiting.items():
        depends = spec.get("depends_on")
        assert isinstance(depends, dict), f"{name}: depends_on without conditions"
        assert depends.get("migrate") == {"condition": "service_completed_successfully"}, (
            f"{name} starts before the schema is migrated"
        )
    for name, spec in services.items():
        if name != "migrate":
            command = " ".join(spec.get("command") or [])
            assert not MIGRATES.search(command), f"{name} migrates on its own: {command}"


def test_the_entrypoint_never_migrates() -> None:
    """Each web container migrated before gunicorn: containers raced one another, and the workers
    (which never migrated) started on the old schema."""
    code = [line for line in ENTRYPOINT.read_text().splitlines() if not line.lstrip().startswith("#")]
    assert not [line for line in code if MIGRATES.search(line)]


def test_systemd_has_one_migrate_unit_without_a_start_timeout() -> None:
    unit = read_unit(UNITS / MIGRATE_UNIT)
    assert unit["Service.Type"] == ["oneshot"]
    # Stays active once done: restarting a web or a worker does not migrate again.
    assert unit["Service.RemainAfterExit"] == ["yes"]
    timeout = unit["Service.TimeoutStartSec"][-1]
    assert timeout == "infinity" or int(timeout) >= 3600, timeout
    assert MIGRATES.search(" ".join(unit["Service.ExecStart"]))


def test_every_app_unit_requires_the_migrate_unit_and_no_other_unit_migrates() -> None:
    app_units = []
    for path in sorted(UNITS.glob("*.service")):
        if path.name == MIGRATE_UNIT:
            continue
        unit = read_unit(path)
        lines = exec_lines(unit)
        assert not [line for line in lines if MIGRATES.search(line)], f"{path.name} migrates on its own"
        if any(APP_PROCESS.search(line) for line in unit.get("Service.ExecStart", [])):
            app_units.append(path.name)
            assert MIGRATE_UNIT in unit_words(unit, "Unit.Requires"), f"{path.name}: no Requires="
            assert MIGRATE_UNIT in unit_words(unit, "Unit.After"), f"{path.name}: not After= migrate"
    expected = {"pacru-web.service", "pacru-live.service", "pacru-beat.service", "pacru-worker@.service"}
    assert expected <= set(app_units), sorted(app_units)


@pytest.mark.django_db
def test_the_migrations_match_the_models() -> None:
    """A model change without its migration would be made by hand on deploy, or not at all."""
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit:
        pytest.fail(f"models changed without a migration:\n{out.getvalue()}")


def unsafe_operations(released: dict[str, str]) -> list[str]:
    """The operations of migrations after ``released`` that the code of that release cannot run
    beside: a removal or rename, or a NOT NULL column on an existing table without a database
    default (Django's ``default`` is applied by the code only, so the old code's inserts fail)."""
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    found = []
    for app, last in released.items():
        before = set(graph.forwards_plan((app, last)))
        leaves = [node for node in graph.leaf_nodes() if node[0] == app]
        new = [node for leaf in leaves for node in graph.forwards_plan(leaf) if node[0] == app]
        new = [node for node in dict.fromkeys(new) if node not in before]
        created = {
            op.name_lower
            for node in new
            for op in graph.nodes[node].operations
            if isinstance(op, migrations.CreateModel)
        }
        for node in new:
            for op in graph.nodes[node].operations:
                where = f"{app}.{node[1]}: {op.describe()}"
                if isinstance(op, UNSAFE):
                    found.append(where)
                elif (
                    isinstance(op, migrations.AddField)
                    and op.model_name_lower not in created
                    and not op.field.many_to_many
                    and not op.field.null
                    and op.field.db_default is models.NOT_PROVIDED
                ):
                    found.append(f"{where} (NOT NULL without db_default)")
    return found


def test_migrations_since_the_last_release_only_add() -> None:
    assert not unsafe_operations(LAST_RELEASED), (
        "a rolling deploy runs these while the old code serves; add, then use, then remove "
        "(docs/operators/deploying.md: Migrations and rolling deploys)"
    )


def test_the_check_finds_an_unsafe_migration() -> None:
    """games 0010 added ``email_verified`` NOT NULL with a code-only default: old code creating a
    player during the deploy would have failed."""
    found = unsafe_operations({"games": "0009_rematch_of"})
    assert any("0010_player_email_verified" in line and "email_verified" in line for line in found), found
