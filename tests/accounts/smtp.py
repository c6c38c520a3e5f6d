"""A real SMTP server for tests (aiosmtpd on a free port, in a thread of the test process):
it keeps every message it accepts, and can be stopped and started again on the same port."""

from __future__ import annotations

import email
import email.policy
import logging
import socket
import threading
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller

logging.getLogger("mail.log").setLevel(logging.WARNING)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class _Collect:
    def __init__(self, server: SmtpServer):
        self.server = server

    async def handle_DATA(self, smtp: Any, session: Any, envelope: Any) -> str:
        msg = email.message_from_bytes(envelope.original_content, policy=email.policy.default)
        with self.server.lock:
            self.server.messages.append(msg)  # type: ignore[arg-type]
        return "250 OK"


class SmtpServer:
    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.messages: list[EmailMessage] = []
        self.lock = threading.Lock()
        self.controller: Controller | None = None

    def start(self) -> None:
        self.controller = Controller(_Collect(self), hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    def to(self, address: str) -> list[EmailMessage]:
        with self.lock:
            return [m for m in self.messages if address in str(m["To"])]

    def settings(self) -> dict[str, Any]:
        """The Django settings that send mail here over SMTP."""
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": "127.0.0.1",
            "EMAIL_PORT": self.port,
            "EMAIL_USE_TLS": False,
            "EMAIL_TIMEOUT": 5,
        }


def text_of(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


def html_of(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("html",))
    assert part is not None
    return str(part.get_content())


def link_in(msg: EmailMessage, path: str) -> str:
    """The first link in the mail's text whose path starts with ``path``."""
    for word in text_of(msg).split():
        if path in word:
            return word[word.index(path) :]
    raise AssertionError(f"no link to {path} in:\n{text_of(msg)}")
