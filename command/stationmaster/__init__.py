"""Station Master at a terminal: the session (``session``), the game as
text (``textview``) and the attacks in plain words (``attack_text``)."""
