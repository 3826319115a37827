"""Station Master's content layer: the card objects (``model``) and the
catalog built from the pack's YAML, checked within and across files
(``catalog``). Nothing is imported here, so a module that only names the
model needs neither the YAML reader nor the schemas."""
