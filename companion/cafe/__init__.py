"""The café board: every table of a café on one page, from the tables' reports on the MQTT broker
(:mod:`companion.cafe.listener`), kept in the board's own SQLite (:mod:`companion.cafe.board`), with a
league per game (:mod:`companion.cafe.league`) and its page (:mod:`companion.cafe.app`)."""
