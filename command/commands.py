"""The one-line summary of each ``stationmaster`` subcommand that lives in a
module of its own. ``stationmaster --help`` lists them without importing
those modules, so ``check`` and ``validate`` start without loading the game."""

PLAY_HELP = "play Station Master in the terminal (solitaire by default), or Trick of the Rails with people and bots (--game trickoftherails)"
SIMULATE_HELP = "play many seeded games with bots and report on them (Station Master: per-card draw, play and dead-draw figures; with rivals, seats, wins and attacks)"
