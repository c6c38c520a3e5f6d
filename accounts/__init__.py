"""Accounts and notifications: e-mail addresses and their verification, preferences, sessions,
deletion and export; the in-site inbox and the mail outbox that tells players what happened."""
