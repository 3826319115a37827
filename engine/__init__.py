"""The rules kit's engine: machinery shared by every game (content loading,
the effect registry, the pack interface) and one package per game pack."""
