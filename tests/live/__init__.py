"""Live push against a real ASGI server (uvicorn in a subprocess) on the PostgreSQL test database."""
