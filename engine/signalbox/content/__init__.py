"""Signal Box's content: the catalog model and its loader."""
