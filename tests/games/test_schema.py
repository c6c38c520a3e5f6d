"""The OpenAPI schema and its two viewers (Swagger UI, Redoc), served without a CDN."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client

FIXED_PATHS = {
    "/api/v1/auth/register/": {"post"},
    "/api/v1/auth/token/": {"post"},
    "/api/v1/tables/": {"get", "post"},
    "/api/v1/tables/{table_id}/": {"get"},
    "/api/v1/tables/{table_id}/join/": {"post"},
    "/api/v1/tables/{table_id}/moves/": {"get", "post"},
    "/api/v1/tables/{table_id}/resign/": {"post"},
    "/api/v1/tables/{table_id}/record/": {"get"},
}
HTTP_METHODS = {"get", "post", "put", "patch", "delete"}


@pytest.fixture
def schema(db: None) -> dict[str, Any]:
    r = Client().get("/api/v1/schema/?format=json")
    assert r.status_code == 200
    assert "json" in r["Content-Type"]
    return json.loads(r.content)


def test_the_schema_is_an_openapi_document(schema: dict[str, Any]) -> None:
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"] == "Pacru ladder API" and schema["info"]["version"] == "1"
    assert "components" in schema and "schemas" in schema["components"]


def test_the_schema_lists_every_fixed_path_with_its_methods(schema: dict[str, Any]) -> None:
    paths = schema["paths"]
    for path, methods in FIXED_PATHS.items():
        assert path in paths, path
        assert set(paths[path]) & HTTP_METHODS == methods, path
    for path in FIXED_PATHS:
        for parameter in re.findall(r"{(\w+)}", path):
            declared = {
                p["name"]: p
                for method in FIXED_PATHS[path]
                for p in paths[path][method].get("parameters", [])
                if p["in"] == "path"
            }
            assert declared[parameter]["required"] is True
            assert declared[parameter]["schema"]["type"] == "integer"


def test_the_schema_describes_the_request_bodies(schema: dict[str, Any]) -> None:
    paths = schema["paths"]

    def body_fields(path: str) -> set[str]:
        ref = paths[path]["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        return set(schema["components"]["schemas"][ref.rsplit("/", 1)[1]]["properties"])

    assert {"username", "password"} <= body_fields("/api/v1/auth/register/")
    assert body_fields("/api/v1/auth/token/") == {"username", "password"}
    assert {"game", "players"} <= body_fields("/api/v1/tables/")
    assert {"ply", "move"} <= body_fields("/api/v1/tables/{table_id}/moves/")
    assert "text/plain" in paths["/api/v1/tables/{table_id}/record/"]["get"]["responses"]["200"]["content"]


def test_the_default_format_is_yaml_with_the_same_content(schema: dict[str, Any]) -> None:
    yaml = pytest.importorskip("yaml")
    r = Client().get("/api/v1/schema/")
    assert r.status_code == 200 and "openapi" in r["Content-Type"]
    assert r.content.decode().startswith("openapi: 3.")
    assert yaml.safe_load(r.content) == schema


#: Where the Redoc page loads its bundle from (common.redoc_bundle).
REDOC_BUNDLE = "/api/v1/redoc-assets/bundles/redoc.standalone.js"


def assets(html: str) -> list[str]:
    """The URLs of every script, stylesheet and icon the page loads."""
    return re.findall(r'<script[^>]*\ssrc="([^"]+)"', html) + re.findall(r'<link[^>]*\shref="([^"]+)"', html)


@pytest.mark.parametrize(
    "page, expected",
    [
        ("/api/v1/docs/", {"swagger-ui-bundle.js", "swagger-ui.css"}),
        ("/api/v1/redoc/", {"redoc.standalone.js"}),
    ],
)
def test_the_viewers_load_only_local_static_files(db: None, page: str, expected: set[str]) -> None:
    r = Client().get(page)
    assert r.status_code == 200 and r["Content-Type"].startswith("text/html")
    html = r.content.decode()
    urls = assets(html)
    assert expected <= {url.rsplit("/", 1)[1] for url in urls}
    static = "/" + settings.STATIC_URL.lstrip("/")
    for url in urls:
        assert not re.match(r"(https?:)?//", url), f"{page} loads {url} from another host"
        if url == f"{page}?script=":  # the viewer's own start-up script, served apart for the CSP
            assert "SwaggerUIBundle" in Client().get(url).content.decode()
            continue
        if url == REDOC_BUNDLE:  # the sidecar's bundle, served by the project without its CDN logo
            continue
        assert url.startswith(static), url
        assert finders.find(url[len(static) :]), f"{url} is not among the project's static files"
    # No CDN or web-font reference anywhere on the page, not even inside inline code.
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "fonts.googleapis" not in html and "cdn." not in html.lower()
    script = Client().get(f"{page}?script=").content.decode() if f"{page}?script=" in urls else ""
    assert "/api/v1/schema/" in html + script, "the viewer reads this project's schema"


def test_the_static_files_of_the_viewers_are_served(db: None) -> None:
    """Redoc's bundle is the sidecar's (found by the static files finders), served whole by the
    project with its one third-party address (the footer's logo) pointed at the site's icon."""
    html = Client().get("/api/v1/redoc/").content.decode()
    (bundle,) = [u for u in assets(html) if u.endswith(".js")]
    assert bundle == REDOC_BUNDLE
    served = Client().get(bundle).content
    path = finders.find("drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js")
    assert path
    with open(path, "rb") as f:
        original = f.read()
    assert len(original) > 100_000, "a real bundle, not an empty placeholder"
    assert b"https://cdn.redoc.ly/" in original and b"https://cdn.redoc.ly/" not in served
    assert abs(len(served) - len(original)) < 200, "the same bundle, one address changed"


def test_every_response_with_a_body_is_described(schema: dict[str, Any]) -> None:
    """Each operation's responses name their shape (a component or a typed schema), never a bare
    object; and each error status points at the one error shape."""
    untyped = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if method not in HTTP_METHODS:
                continue
            for status, response in operation["responses"].items():
                if status in ("204", "304"):
                    assert not response.get("content"), (method, path, status)
                    continue  # no content (a leave or an unblock), or unchanged: no body
                content = response.get("content")
                if not content:
                    untyped.append(f"{method} {path} {status}: no content")
                    continue
                for media, body in content.items():
                    shape = body.get("schema", {})
                    if not shape or shape in (
                        {"type": "object"},
                        {"type": "object", "additionalProperties": {}},
                    ):
                        untyped.append(f"{method} {path} {status} {media}")
                    if (path, status) == ("/api/v1/health/ready/", "503"):
                        # Readiness answers its report either way; 503 tells a load balancer.
                        assert shape == {"$ref": "#/components/schemas/ReadyOut"}
                    elif status.startswith(("4", "5")):
                        assert shape == {"$ref": "#/components/schemas/ErrorOut"}, (method, path, status)
    assert untyped == []
