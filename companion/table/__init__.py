"""The running table: the loop that turns camera frames into moves (:mod:`.loop`), the game in progress it
drives, kept in the store and judging what the camera sees (:mod:`.in_progress`, with its set-up part
:mod:`.setting_up`, its referee :mod:`.referee` and what keeping needs :mod:`.keeping`), the vision
pipeline the loop reads through (:mod:`.pipeline`, :mod:`.models`), its background threads (:mod:`.runner`),
what the panel says (:mod:`.panel_view`), the page's live updates (:mod:`.publish`), the evidence photos
(:mod:`.frames`), carrying on after a restart (:mod:`.resume`) and what the page may ask of it
(:mod:`.session`)."""
