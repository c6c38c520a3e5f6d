"""Notifications for the community app's events (filled in by its feature)."""
