"""Quick pairing: pools by game, table size and clock; waves seat who waits (see ``planner``)."""
