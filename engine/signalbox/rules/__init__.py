"""Signal Box's rules: the game and its one kind of action."""
