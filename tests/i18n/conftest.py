from tests.accounts.conftest import smtp  # noqa: F401  (a real SMTP server, as tests/accounts uses)
