"""Rules engines: pure state + action -> state, one package per game. No I/O here."""
