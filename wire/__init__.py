"""The wire format between the tables and the café board: the broker's topics and the JSON on them
(:mod:`wire.topics`), the one validating reader of what comes off the broker (:mod:`wire.reports`), and
how either side reaches the broker (:mod:`wire.broker`), and the seat colours every part draws
in (:mod:`wire.seats`). Both sides import this; it imports neither."""
