"""The deployment files run and route the live service, and collect the static files (issue 30, 1 and 7).

* ``deploy/systemd`` has a live (uvicorn) unit, run as the compose file runs it: no proxy headers
  believed, a bound on the graceful shutdown, restarted when it exits, after the migrate step;
* the web unit collects the static files before gunicorn starts (without them every page of the
  production profile answers 500 while readiness says 200);
* both proxies (``deploy/nginx/pacru.conf``, ``docker/nginx.conf``) send every stream URL of the
  URL conf to the live service, everything else to the web, and ``/metrics`` nowhere. That is
  checked by nginx's own location rules read from the files, and, where nginx is installed, by a
  real nginx in front of two stand-in backends.
"""

from __future__ import annotations

import http.client
import json
import re
import shlex
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

ROOT = Path(__file__).resolve().parents[2]
SYSTEMD = ROOT / "deploy" / "systemd"
PROXIES = [ROOT / "deploy" / "nginx" / "pacru.conf", ROOT / "docker" / "nginx.conf"]


# ---------------------------------------------------------------- systemd units


def unit(name: str) -> dict[str, dict[str, list[str]]]:
    """A unit file's sections, each key with all its values (continued lines joined)."""
    path = SYSTEMD / name
    assert path.exists(), f"deploy/systemd/{name} is missing"
    text = re.sub(r"\\\n\s*", " ", path.read_text())
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


def command(line: str) -> list[str]:
    """The words of an Exec line, through a ``/bin/sh -c '…'`` wrapper."""
    words = shlex.split(line)
    if words[:2] == ["/bin/sh", "-c"]:
        words = shlex.split(words[2].replace("$$", "$"))
    return [w for w in words if w != "exec"]


def test_the_live_unit_runs_uvicorn_as_the_compose_file_does() -> None:
    live, web = unit("pacru-live.service"), unit("pacru-web.service")
    (start,) = live["Service"]["ExecStart"]
    words = command(start)
    assert words[0].endswith("/uvicorn") and words[1] == "config.asgi:application", words
    # The service reads the client's address itself, from TRUSTED_PROXIES proxies only.
    assert "--no-proxy-headers" in words and "--proxy-headers" not in words, words
    assert not any(w.startswith("--forwarded-allow-ips") for w in words), words
    # Open streams never end by themselves: stopping waits this long, then ends them.
    graceful = int(words[words.index("--timeout-graceful-shutdown") + 1])
    assert graceful < int(live["Service"]["TimeoutStopSec"][0]), "systemd must not SIGKILL it first"
    assert live["Service"]["Restart"] == ["always"]
    for key in ("User", "WorkingDirectory", "EnvironmentFile", "Environment"):
        assert live["Service"][key] == web["Service"][key], key
    # Started when the web is, after the same steps (the migrate unit).
    for key in ("After", "Requires", "Wants"):
        assert live["Unit"].get(key) == web["Unit"].get(key), key
    assert live["Install"]["WantedBy"] == ["multi-user.target"]


def test_the_install_steps_enable_the_live_unit() -> None:
    text = (SYSTEMD / "pacru-web.service").read_text()
    enable = next(line for line in text.splitlines() if "systemctl enable" in line)
    assert "pacru-live" in enable.split(), enable


def test_the_web_unit_collects_the_static_files_before_gunicorn_starts() -> None:
    service = unit("pacru-web.service")["Service"]
    collects = [command(line) for line in service.get("ExecStartPre", [])]
    assert any(
        w[1:3] == ["manage.py", "collectstatic"] and "--noinput" in w for w in collects if len(w) > 2
    ), service.get("ExecStartPre")
    assert "gunicorn" in service["ExecStart"][0]


def test_no_unit_runs_a_stream_server_through_gunicorn() -> None:
    """gunicorn serves only the WSGI app; the ASGI app (the streams) only uvicorn."""
    for path in SYSTEMD.glob("*.service"):
        for line in unit(path.name)["Service"].get("ExecStart", []):
            words = command(line)
            if any(w.endswith("/gunicorn") for w in words):
                assert "config.wsgi" in words and not any("asgi" in w or "uvicorn" in w for w in words), path


def test_systemd_accepts_every_unit(tmp_path: Path) -> None:
    """``systemd-analyze verify`` on each unit (the code's paths for /srv/pacru, templates
    instantiated), where systemd is installed."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.fail("systemd-analyze is not installed: Debian's systemd package provides it")
    venv = Path(sys.executable).parent.parent
    names = []
    for path in sorted(SYSTEMD.glob("*.*")):
        text = path.read_text().replace("/srv/pacru/.venv", str(venv)).replace("/srv/pacru", str(ROOT))
        name = path.name.replace("@.", "@clocks.")
        (tmp_path / name).write_text(text)
        names.append(str(tmp_path / name))
    done = subprocess.run([analyze, "verify", "--man=no", *names], capture_output=True, text=True)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr


# ---------------------------------------------------------------- the proxies' routes


def tokens(text: str) -> list[str]:
    text = re.sub(r"#[^\n]*", "", text)
    return re.findall(r'"[^"]*"|[{};]|[^\s{};"]+', text)


def parse(words: list[str]) -> list[tuple[str, list[str], Any]]:
    """nginx directives: (name, arguments, the block's directives or None)."""

    def block(i: int) -> tuple[list[tuple[str, list[str], Any]], int]:
        out: list[tuple[str, list[str], Any]] = []
        while i < len(words) and words[i] != "}":
            name, args, i = words[i], [], i + 1
            while words[i] not in ("{", ";"):
                args.append(words[i])
                i += 1
            if words[i] == "{":
                children, i = block(i + 1)
                out.append((name, args, children))
            else:
                out.append((name, args, None))
            i += 1
        return out, i

    return block(0)[0]


def site(path: Path) -> list[tuple[list[str], Any]]:
    """The locations of the server block that serves the application (the one with ``location /``)."""
    for name, _, children in parse(tokens(path.read_text())):
        if name == "server":
            locations = [(args, body) for n, args, body in children if n == "location"]
            if any(args == ["/"] for args, _ in locations):
                return locations
    raise AssertionError(f"{path}: no server with location /")


def route(locations: list[tuple[list[str], Any]], uri: str) -> str:
    """Where nginx sends ``uri`` (its location rules): an exact match, else the longest prefix
    unless a regex (in order) matches; "web", "live" or "return <code>"."""
    path = uri.split("?")[0]
    chosen = next((body for args, body in locations if args[:1] == ["="] and args[1] == path), None)
    if chosen is None:
        prefixes = [(args[-1], body) for args, body in locations if args[0] in ("^~",) or len(args) == 1]
        matching = sorted((p for p in prefixes if path.startswith(p[0])), key=lambda p: len(p[0]))
        longest = matching[-1][1] if matching else None
        regexes = [(args, body) for args, body in locations if args[0] in ("~", "~*")]
        hit = next(
            (body for args, body in regexes if re.search(args[1], path, re.I if args[0] == "~*" else 0)),
            None,
        )
        chosen = hit or longest
    assert chosen is not None, uri
    return target(chosen)


def target(body: Any) -> str:
    """What a location does: "web" or "live" (the upstream it proxies to), or "return <code>"."""
    for name, args, _ in body:
        if name == "return":
            return f"return {args[0]}"
        if name == "proxy_pass":
            host = args[0].split("//")[1]
            return "live" if "live" in host else "web" if "web" in host else host
    raise AssertionError(f"the location neither proxies nor answers: {body}")


def stream_uris() -> list[str]:
    """Every URL of the URL conf served by a stream view (live.views), with sample arguments."""
    found: list[str] = []

    def walk(patterns: list[Any], prefix: str) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern) and p.callback.__module__ == "live.views":
                found.append("/" + re.sub(r"<[^>]+>", "7", prefix + str(p.pattern)))

    walk(get_resolver().url_patterns, "")
    return found


WEB = [
    "/",
    "/api/v1/health/",
    "/api/v1/health/ready/",
    "/api/v1/tables/7/",
    "/api/v1/tables/7/moves/",
    "/api/v1/account/bot/",
    "/static/css/site.css",
    "/accounts/login/",
    "/livestock/",
    "/api/v1/tables/7/stream/extra/",
]


def test_the_url_conf_has_the_five_streams() -> None:
    assert sorted(stream_uris()) == sorted(
        ["/api/v1/stream/", "/api/v1/tables/7/stream/", "/live/tables/7/", "/live/topics/", "/live/chat/7/"]
    )


@pytest.mark.parametrize("proxy", PROXIES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_proxy_sends_every_stream_to_live_and_the_rest_to_web(proxy: Path) -> None:
    locations = site(proxy)
    for uri in [*stream_uris(), "/live/topics/?t=lobby"]:
        assert route(locations, uri) == "live", uri
    for uri in WEB:
        assert route(locations, uri) == "web", uri
    assert route(locations, "/metrics") == "return 404"
    for args, body in locations:
        if target(body) == "live":  # each event passed on at once, the stream held open
            directives = {name: values for name, values, _ in body}
            assert directives["proxy_buffering"] == ["off"], args
            assert directives["proxy_read_timeout"] == ["1h"], args


# ---------------------------------------------------------------- a real nginx, where installed


class Backend(ThreadingHTTPServer):
    """A stand-in for gunicorn or uvicorn: answers who it is and the headers the proxy set."""

    daemon_threads = True

    def __init__(self, name: str) -> None:
        me = name

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = json.dumps(
                    {
                        "by": me,
                        "path": self.path,
                        "for": self.headers.get("X-Forwarded-For"),
                        "proto": self.headers.get("X-Forwarded-Proto"),
                    }
                ).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        super().__init__(("127.0.0.1", 0), Handler)
        self.port = self.server_address[1]
        threading.Thread(target=self.serve_forever, daemon=True).start()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def nginx(tmp_path: Path) -> Iterator[tuple[int, int]]:
    """deploy/nginx/pacru.conf run by nginx on free loopback ports (plain http for the tests: the
    certificate lines left out), in front of a stand-in web on :8000's place and live on :8001's."""
    binary = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)
    if binary is None:
        pytest.fail("nginx is not installed: scripts/test installs Debian's nginx-light")
    web, live = Backend("web"), Backend("live")
    https, http = free_port(), free_port()
    text = (ROOT / "deploy" / "nginx" / "pacru.conf").read_text()
    text = text.replace("server 127.0.0.1:8000;", f"server 127.0.0.1:{web.port};")
    text = text.replace("server 127.0.0.1:8001;", f"server 127.0.0.1:{live.port};")
    text = text.replace("listen 443 ssl http2;", f"listen 127.0.0.1:{https};")
    text = text.replace("listen 80;", f"listen 127.0.0.1:{http};")
    text = "\n".join(
        line for line in text.splitlines() if "listen [::]" not in line and "ssl_certificate" not in line
    )
    temp = "".join(f"{kind}_temp_path {tmp_path / kind};\n" for kind in ("client_body", "proxy", "fastcgi"))
    temp += "".join(f"{kind}_temp_path {tmp_path / kind};\n" for kind in ("uwsgi", "scgi"))
    conf = tmp_path / "nginx.conf"
    conf.write_text(
        f"daemon off;\nworker_processes 1;\npid {tmp_path / 'nginx.pid'};\n"
        f"error_log {tmp_path / 'error.log'};\n"
        f"user root;\nevents {{}}\nhttp {{\naccess_log off;\n{temp}{text}\n}}\n"
    )
    check = subprocess.run([binary, "-t", "-c", str(conf)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    proc = subprocess.Popen([binary, "-c", str(conf)], stderr=subprocess.DEVNULL)
    try:
        end = time.monotonic() + 10
        while time.monotonic() < end:
            try:
                socket.create_connection(("127.0.0.1", https), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        yield https, http
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        web.shutdown()
        live.shutdown()


def fetch(port: int, uri: str) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", uri, headers={"Host": "example.org", "X-Forwarded-For": "203.0.113.9"})
        resp = conn.getresponse()
        raw = resp.read()
        return resp.status, json.loads(raw) if resp.getheader("Content-Type") == "application/json" else None
    finally:
        conn.close()


def test_a_real_nginx_routes_the_site_as_written(nginx: tuple[int, int]) -> None:
    https, http_port = nginx
    for uri in [*stream_uris(), "/live/topics/?t=lobby"]:
        status, body = fetch(https, uri)
        assert (status, body["by"], body["path"]) == (200, "live", uri), uri
    for uri in WEB:
        status, body = fetch(https, uri)
        assert (status, body["by"]) == (200, "web"), uri
    assert fetch(https, "/metrics")[0] == 404
    # The client's own X-Forwarded-For is kept, the address nginx saw is appended last
    # (TRUSTED_PROXIES=1 reads that one).
    assert fetch(https, "/api/v1/health/")[1]["for"] == "203.0.113.9, 127.0.0.1"
    assert fetch(http_port, "/api/v1/health/")[0] == 301  # plain http: to https
