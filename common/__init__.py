"""What every app shares and that is about no game: the error shape and its exception
handler, token authentication, the request's player, conditional (ETag) responses.

It imports nothing of the project: ``games``, ``ratings`` and ``tournaments`` build on it.
"""
