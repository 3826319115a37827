"""The one-line summary of each ``stationmaster`` subcommand that lives in a
module of its own. ``stationmaster --help`` lists them without importing
those modules, so ``check`` and ``validate`` start without loading the game."""

PLAY_HELP = "play Station Master in the terminal (solitaire by default), or Trick of the Rails (--game trickoftherails); people and bots at one table"
SIMULATE_HELP = "play many seeded games with bots and report on them (Station Master: per-card draw, play and dead-draw figures; with rivals, seats, wins and attacks)"
SWEEP_HELP = "simulate every combination of house-rule values, player counts and bots (any game), the same seeded games in each; score spread, card figures and the differences that matter; finished cells cached"
CHANGELOG_HELP = "list what changed, card by card, between two git revisions of the content (added, removed, renamed, each field, status and dealt)"
EXPORT_HELP = "print a pack's cards as JSON (fields, count, source, effect, status, the configurations that deal each) for other tools"
LSP_HELP = "a language server over stdin and stdout for editors: validate's problems as you type, hover, go to definition, references, completion and rename of ids"
