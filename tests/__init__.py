"""The test suite. Its folders mirror the code: tests/stationmaster/ and
tests/trickoftherails/ hold each game's tests (by room: rules, effects, bots,
sim, site, terminal), tests/content/, tests/engine/, tests/generator/,
tests/command/ and tests/sweep/ the shared machinery's, tests/fuzz/ the fuzzing.
Helpers a test imports live in tests/kit/, fixtures in the conftest.py files."""
