"""Dump the API's answers to a fixed set of GET requests, over fresh demo data, to compare two
versions of the code (a refactoring must not change what clients read).

    DATABASE_URL=sqlite:////tmp/before.sqlite3 .venv/bin/python scripts/api_dump.py before.json
    (check out the other version)
    DATABASE_URL=sqlite:////tmp/after.sqlite3 .venv/bin/python scripts/api_dump.py after.json
    .venv/bin/python scripts/api_dump.py --diff before.json after.json

The database must be new (the script migrates it and loads ``seed_demo``, which is deterministic).
Times and tokens differ from run to run and are replaced by placeholders; everything else is
compared as it is. Each GET is made anonymously and as ``alice``.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

#: ISO dates and times, ETags, tokens and other values that differ between two runs.
VOLATILE = [
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?"), "<time>"),
    (re.compile(r"\b\d{4}-\d\d-\d\d\b"), "<date>"),
    (re.compile(r"\b[A-Z][a-z]{2} \d\d [A-Z][a-z]{2} \d\d:\d\d\b"), "<when>"),  # "Sun 29 Nov 10:34"
    (re.compile(r"\b[0-9a-f]{40}\b"), "<token>"),
]


#: Clock readings that run while the dump is taken: compared to the second.
RUNNING = {"remaining"}


def scrub(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: round(v) if k in RUNNING and isinstance(v, float) else scrub(v) for k, v in value.items()}
    if isinstance(value, list):
        return [scrub(v) for v in value]
    if isinstance(value, str):
        for pattern, placeholder in VOLATILE:
            value = pattern.sub(placeholder, value)
    return value


def urls() -> list[str]:
    """Every list and a detail of each kind the demo data has."""
    from games.models import Player, Table  # Django is set up only in main()
    from tournaments.models import Ladder, League, Tournament

    found = [
        "/api/v1/tables/",
        "/api/v1/tables/?status=finished",
        "/api/v1/players/",
        "/api/v1/ratings/pacru/",
        "/api/v1/leagues/",
        "/api/v1/tournaments/",
        "/api/v1/ladders/",
        "/api/v1/me/",
        "/api/v1/notifications/",
        "/api/v1/challenges/",
    ]
    for table in Table.objects.order_by("pk"):
        found += [f"/api/v1/tables/{table.pk}/", f"/api/v1/tables/{table.pk}/moves/"]
        if table.status == Table.Status.FINISHED:
            found.append(f"/api/v1/tables/{table.pk}/review/")
    found += [f"/api/v1/players/{p.pk}/" for p in Player.objects.order_by("pk")]
    found += [f"/api/v1/leagues/{slug}/" for slug in League.objects.values_list("slug", flat=True)]
    for t in Tournament.objects.order_by("pk"):
        found += [f"/api/v1/tournaments/{t.pk}/", f"/api/v1/tournaments/{t.pk}/standings/"]
        found += [f"/api/v1/tournaments/{t.pk}/rounds/{n}/" for n in range(1, t.current_round + 1)]
    found += [f"/api/v1/ladders/{pk}/" for pk in Ladder.objects.values_list("pk", flat=True)]
    return found


def dump(out: str) -> None:
    import django

    django.setup()
    from django.core.management import call_command
    from rest_framework.test import APIClient

    from games.models import Player

    call_command("migrate", verbosity=0)
    call_command("seed_demo", verbosity=0)
    alice = APIClient()
    alice.force_authenticate(Player.objects.get(user__username="alice").user)
    answers: dict[str, Any] = {}
    for url in urls():
        for who, client in (("anonymous", APIClient()), ("alice", alice)):
            r = client.get(url, HTTP_ACCEPT="application/json")
            try:
                body = r.json()
            except ValueError:
                body = r.content.decode(errors="replace")
            answers[f"{who} GET {url}"] = {"status": r.status_code, "body": scrub(body)}
    Path(out).write_text(json.dumps(answers, indent=1, sort_keys=True, ensure_ascii=False))
    print(f"{len(answers)} answers written to {out}")


def paths(value: Any, prefix: str = "") -> dict[str, Any]:
    """Each leaf of ``value`` by its path (``a.b[2].c``)."""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            out.update(paths(v, f"{prefix}.{k}" if prefix else str(k)))
        return out
    if isinstance(value, list):
        out = {}
        for i, v in enumerate(value):
            out.update(paths(v, f"{prefix}[{i}]"))
        return out or {prefix: []}
    return {prefix: value}


def diff(before_file: str, after_file: str) -> int:
    before, after = json.loads(Path(before_file).read_text()), json.loads(Path(after_file).read_text())
    changed = added = removed = 0
    for key in sorted(set(before) | set(after)):
        if key not in after or key not in before:
            print(("only before: " if key in before else "only after: ") + key)
            changed += 1
            continue
        old, new = paths(before[key]), paths(after[key])
        for leaf in sorted(set(old) | set(new)):
            if leaf not in new:
                removed += 1
                print(f"{key}: removed {leaf}")
            elif leaf not in old:
                added += 1
                print(f"{key}: added {leaf} = {json.dumps(new[leaf])[:80]}")
            elif old[leaf] != new[leaf]:
                changed += 1
                print(f"{key}: {leaf}: {json.dumps(old[leaf])[:60]} -> {json.dumps(new[leaf])[:60]}")
    print(f"{len(after)} answers compared: {changed} values changed, {removed} removed, {added} added")
    return 1 if changed or removed else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--diff"] and len(sys.argv) == 4:
        sys.exit(diff(sys.argv[2], sys.argv[3]))
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    dump(sys.argv[1])
