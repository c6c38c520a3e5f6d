"""A club's calendar: events that start by themselves (``starts``), rounds on a schedule and
correspondence deadlines (``rounds``), recurring events (``recurring``) and calendar feeds
(``feeds``). ``tick`` runs their periodic work."""
