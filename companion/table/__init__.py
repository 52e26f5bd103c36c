"""The running table: the loop that turns camera frames into moves (:mod:`.loop`), the game as it is kept
in the store (:mod:`.keeper`), the referee holding the engine state and what is pending (:mod:`.referee`),
the vision pipeline the loop reads through (:mod:`.pipeline`, :mod:`.models`), its background threads
(:mod:`.runner`), what the panel says (:mod:`.panel_view`), the page's live updates (:mod:`.publish`), the
evidence photos (:mod:`.frames`), carrying on after a restart (:mod:`.resume`) and what the page may ask of
it (:mod:`.session`)."""
