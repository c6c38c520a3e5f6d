"""Tables of 2–4 players whose moves are adjudicated by the engine."""
