"""Token authentication that loads the player with the user in one query."""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token


class PlayerTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        try:
            token = Token.objects.select_related("user", "user__player").get(key=key)
        except Token.DoesNotExist:
            raise exceptions.AuthenticationFailed("invalid token") from None
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed("user inactive or deleted")
        return token.user, token
