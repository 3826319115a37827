"""Signal Box's simulations: seeded games played by bots, and their report."""
