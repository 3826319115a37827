"""Many seeded Trick of the Rails games played by bots: one game
(``runner``), the run over worker processes (``simulate``) and what it
reports (``report``)."""
