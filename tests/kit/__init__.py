"""Helpers the tests import: running the command, scratch projects, reading
pages, each pack's game-building kit, the fuzz machinery and the hang guard.
Nothing here is collected as a test."""
