"""The settings profiles, checked in fresh processes (settings are read once, at start-up)."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
assert (ROOT / "manage.py").is_file()

#: Variables that change what the settings module does; each test sets its own.
PROFILE_VARS = (
    "DJANGO_PROFILE",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "DEBUG",
    "SECURE_SSL_REDIRECT",
    "SECURE_COOKIES",
    "SECURE_HSTS_SECONDS",
    "CSRF_TRUSTED_ORIGINS",
    "DJANGO_SETTINGS_MODULE",
)


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in PROFILE_VARS}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def production(**extra: str) -> dict[str, str]:
    return {
        "DJANGO_PROFILE": "production",
        "SECRET_KEY": secrets.token_urlsafe(64),
        "ALLOWED_HOSTS": "example.org",
        **extra,
    }


def test_the_production_profile_passes_the_deploy_check() -> None:
    out = manage("check", "--deploy", "--fail-level", "WARNING", **production())
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no issues" in out.stdout


def test_the_deploy_check_does_fail_on_an_insecure_production_setting() -> None:
    """The check above is meaningful: DEBUG on and a weak key are reported."""
    weak = production(DEBUG="true", SECRET_KEY="short")
    out = manage("check", "--deploy", "--fail-level", "WARNING", **weak)
    assert out.returncode != 0
    assert "security.W018" in out.stderr and "security.W009" in out.stderr


def test_the_local_profile_is_not_fit_for_deployment() -> None:
    out = manage("check", "--deploy", "--fail-level", "WARNING")
    assert out.returncode != 0 and "security.W018" in out.stderr  # DEBUG is on


def test_the_production_profile_refuses_to_start_without_a_secret_key() -> None:
    env = production()
    del env["SECRET_KEY"]
    out = manage("check", **env)
    assert out.returncode != 0
    assert "SECRET_KEY" in out.stderr and "ImproperlyConfigured" in out.stderr


def test_the_production_profile_refuses_to_start_without_allowed_hosts() -> None:
    env = production()
    del env["ALLOWED_HOSTS"]
    out = manage("check", **env)
    assert out.returncode != 0 and "ALLOWED_HOSTS" in out.stderr


def test_an_unknown_profile_is_refused() -> None:
    out = manage("check", DJANGO_PROFILE="staging")
    assert out.returncode != 0 and "DJANGO_PROFILE" in out.stderr


def test_the_production_profile_is_locked_down() -> None:
    code = (
        "import json; from django.conf import settings as s; print(json.dumps({"
        "'debug': s.DEBUG, 'hosts': s.ALLOWED_HOSTS, 'ssl': s.SECURE_SSL_REDIRECT, "
        "'cookies': [s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE], 'hsts': s.SECURE_HSTS_SECONDS, "
        "'static': s.STORAGES['staticfiles']['BACKEND']}))"
    )
    out = manage("shell", "-c", code, **production(ALLOWED_HOSTS="example.org, api.example.org"))
    assert out.returncode == 0, out.stderr
    values = json.loads(out.stdout.strip().splitlines()[-1])
    assert values["debug"] is False
    assert values["hosts"] == ["example.org", "api.example.org"]
    assert values["ssl"] is True and values["cookies"] == [True, True]
    assert values["hsts"] >= 31536000
    assert values["static"].endswith("CompressedManifestStaticFilesStorage")
