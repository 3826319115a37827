"""Trick of the Rails at a terminal: the session (``session``) and the game
as text (``textview``)."""
