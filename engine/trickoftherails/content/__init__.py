"""Trick of the Rails' content: the catalog model and its loader."""
