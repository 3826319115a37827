"""Many seeded Station Master games played by bots: one game and its tally
(``runner``), the run over worker processes (``simulate``) and what it
reports (``report``)."""
