"""Signal Box's site tables."""
