"""The café board, a deployable of its own: every table of a café on one page, from the tables' reports on
the MQTT broker (:mod:`cafe.listener`), kept in the board's own SQLite (:mod:`cafe.board`), with a league
per game (:mod:`cafe.league`), its page (:mod:`cafe.app`) and its command (:mod:`cafe.command`). It shares
only the wire format (:mod:`wire`) and the LAN serving parts (:mod:`lan`) with the tables."""
