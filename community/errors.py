"""The community app's own refusals (beside ``common.errors``)."""

from __future__ import annotations

from rest_framework import status

from common.errors import ServiceError


class RateLimited(ServiceError):
    """Too many chat messages in a short time: ``429`` with ``code: "throttled"``; ``retry`` is
    how many whole seconds to wait (the API's ``Retry-After`` header and the body's ``retry``)."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    code = "throttled"

    def __init__(self, detail: str, *, retry: int):
        super().__init__(detail, retry=retry)
        self.retry = retry
