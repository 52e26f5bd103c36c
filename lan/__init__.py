"""Serving a page on the local network, for the table's page and the café board alike: a production WSGI
server (:mod:`lan.server`), the host names this machine answers to (:mod:`lan.hosts`), the headers every
page sends (:mod:`lan.headers`), the house look (:mod:`lan.look`) and the command-line checks
both commands share (:mod:`lan.arguments`). It imports nothing of the table's or
the café's."""
