"""Station Master rules engine: loads the card content and plays the game."""
