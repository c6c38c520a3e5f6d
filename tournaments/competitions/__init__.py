"""The events room: leagues' tournaments (Swiss, round robin, knockout, double elimination).

* :mod:`.services` – every write (setup, entries, rounds);
* :mod:`.selectors` – the reads the services and the API need;
* :mod:`.reads` – the event page's view, :mod:`.your_part` and :mod:`.bracket_view` its parts;
* :mod:`.pages`, :mod:`.urls` – the event pages for players.

The pure pairing is in :mod:`tournaments.pairing`; ladders are in :mod:`tournaments.ladders`,
organiser tools in :mod:`tournaments.organising`.
"""
