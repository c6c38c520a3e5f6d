"""Seasons that are competitions: divisions with promotion and relegation, and points series."""
