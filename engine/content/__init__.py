"""The shared content layer, for every game pack: strict YAML reading, JSON
Schema checks with located errors, and the problem list they report into."""
