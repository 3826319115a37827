"""Unicode data the content checks need and Python's unicodedata lacks."""
