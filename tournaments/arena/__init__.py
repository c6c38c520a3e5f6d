"""Arena tournaments: a fixed duration; whoever is free is paired again at once."""
