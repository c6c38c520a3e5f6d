"""The site's pages that combine the apps (the lobby, the game page, sign-up, guest play) and the
demo data of a local run. It sits above ``games``, ``ratings`` and ``tournaments``; nothing
imports it but the URL configuration."""
