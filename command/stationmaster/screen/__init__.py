"""Station Master's terminal screen, one job a module: names, keys, actions,
the board, a district, the hand, switching, and the layout that fits them
to the terminal. ``command.stationmaster.textview`` gathers what others use."""
