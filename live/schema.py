"""The API's two streams in the OpenAPI schema (a drf-spectacular postprocessing hook).

They are async Django views served by the ASGI server, not DRF views, so drf-spectacular does not
see them; this hook adds their operations as they answer (``live.views``). Every error is the API's
one error shape (``ErrorOut``).
"""

from __future__ import annotations

from typing import Any

ERROR = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}}

#: One line of a stream: a JSON object with its ``type``.
LINE = {
    "type": "object",
    "description": "one JSON object per line (newline-delimited JSON)",
    "properties": {"type": {"type": "string"}},
    "required": ["type"],
    "additionalProperties": True,
}


def _error(description: str) -> dict[str, Any]:
    return {"description": description, "content": ERROR}


def _stream(summary: str, description: str, types: list[str], errors: dict[str, str]) -> dict[str, Any]:
    line = {**LINE, "properties": {"type": {"type": "string", "enum": types}}}
    return {
        "summary": summary,
        "description": description,
        "responses": {
            "200": {
                "description": "an endless stream (until the client goes); "
                + ", ".join(f"`{t}`" for t in types)
                + " lines",
                "content": {"application/x-ndjson": {"schema": line}},
            },
            **{code: _error(text) for code, text in errors.items()},
            "429": _error(
                "throttled: this client (address, or account when signed in) holds as many open streams "
                "as it may (LIVE_STREAMS_PER_ADDRESS, LIVE_STREAMS_PER_ACCOUNT); close one first"
            ),
            "501": _error("not_streaming: this server is WSGI; streams are served by the live (ASGI) server"),
        },
    }


def document_streams(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    paths = result.setdefault("paths", {})
    table = _stream(
        "A table's changes",
        "The table's state (as `GET tables/{table_id}/`) first, then one line per change; "
        '`{"type": "ping"}` every LIVE_KEEPALIVE_SECONDS when nothing happens.',
        ["state", "move", "join", "start", "result", "ping"],
        {"404": "not_found: there is no such table"},
    )
    table["operationId"] = "tables_stream"
    table["tags"] = ["tables"]
    table["security"] = [{"tokenAuth": []}, {"cookieAuth": []}, {}]
    table["parameters"] = [
        {
            "in": "path",
            "name": "table_id",
            "required": True,
            "schema": {"type": "integer", "format": "int64", "minimum": 0, "maximum": 2**63 - 1},
        }
    ]
    mine = _stream(
        "Your own games, turns, challenges and notifications",
        "Your tables, the challenges waiting for you and your unread count first (`state`), then "
        '`gameStart`, `yourTurn`, `gameFinish`, `challenge` and `notification` lines; `{"type": "ping"}` '
        "every LIVE_KEEPALIVE_SECONDS when nothing happens.",
        ["state", "gameStart", "yourTurn", "gameFinish", "challenge", "notification", "ping"],
        {"401": "not_authenticated: sign in, or send Authorization: Token <key>"},
    )
    mine["operationId"] = "stream_retrieve"
    mine["tags"] = ["stream"]
    mine["security"] = [{"tokenAuth": []}, {"cookieAuth": []}]
    paths["/api/v1/tables/{table_id}/stream/"] = {"get": table}
    paths["/api/v1/stream/"] = {"get": mine}
    result["paths"] = dict(sorted(paths.items()))
    return result
