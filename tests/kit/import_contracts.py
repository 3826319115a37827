"""Import contracts that grow with the packs, for import-linter.

import-linter's own contract types need every module they speak of named in
``pyproject.toml``, so each new game would mean editing it. These two find
the packs themselves (every ``engine/<id>/`` holding a ``pack.py``) and hold
every pack, present or future, to the same rules:

- ``pack_rooms``: inside each ``engine/<id>/``, ``bots | sim`` above
  ``rules`` with ``effects`` (which call each other) above ``content`` (the pack's own ``pack.py`` may use
  them all), and no pack imports another's folders in any layer.
- ``shared_names_no_pack``: no module outside the packs' folders
  (``engine/<id>/``, ``generator/<id>/``, ``command/<id>/``) imports one,
  directly or through other modules. Shared code reaches a pack only by
  its id at run time.
"""

from __future__ import annotations

from grimp import ImportGraph, Layer
from importlinter.application import output
from importlinter.domain import fields
from importlinter.domain.contract import Contract, ContractCheck

ROOMS = (Layer("sim"), Layer("bots"), Layer("rules", "effects", independent=False), Layer("content"))


def pack_ids(graph: ImportGraph, engine: str) -> list[str]:
    """Every child package of ``engine`` that holds a ``pack`` module."""
    return sorted(child.rsplit(".", 1)[1] for child in graph.find_children(engine) if f"{child}.pack" in graph.modules)


def _chain_text(chain: tuple[str, ...] | None) -> str:
    return " -> ".join(chain or ())


class PackRoomsContract(Contract):
    """Each pack's rooms are layered, and packs are independent of each other."""

    type_name = "pack_rooms"
    engine = fields.StringField()
    roots = fields.ListField(subfield=fields.StringField())

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        engine = str(self.engine)
        packs = pack_ids(graph, engine)
        broken: list[str] = []
        for pack in packs:
            for dependency in sorted(graph.find_illegal_dependencies_for_layers(layers=ROOMS, containers={f"{engine}.{pack}"}), key=lambda d: (d.importer, d.imported)):
                for route in dependency.routes:
                    broken.append(f"{dependency.importer} is below {dependency.imported}: " + _chain_text((*route.heads, *route.middle, *route.tails)))
        folders = {pack: [f"{root}.{pack}" for root in self.roots if f"{root}.{pack}" in graph.modules] for pack in packs}  # type: ignore[attr-defined]
        for pack in packs:
            for other in packs:
                if other == pack:
                    continue
                for mine in folders[pack]:
                    for theirs in folders[other]:
                        chain = graph.find_shortest_chain(importer=mine, imported=theirs, as_packages=True)
                        if chain:
                            broken.append(f"pack {pack} imports pack {other}: {_chain_text(chain)}")
        return ContractCheck(kept=not broken, metadata={"broken": broken, "packs": packs})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for line in check.metadata["broken"]:
            output.print_error(line)
            output.new_line()


class SharedNamesNoPackContract(Contract):
    """No module outside the packs' folders imports a pack's folder."""

    type_name = "shared_names_no_pack"
    engine = fields.StringField()
    roots = fields.ListField(subfield=fields.StringField())

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        engine = str(self.engine)
        packs = pack_ids(graph, engine)
        folders = [f"{root}.{pack}" for root in self.roots for pack in packs if f"{root}.{pack}" in graph.modules]  # type: ignore[attr-defined]
        shared = sorted(
            module
            for root in self.roots  # type: ignore[attr-defined]
            for module in graph.find_descendants(root) | {root}
            if not any(module == folder or module.startswith(folder + ".") for folder in folders)
        )
        broken: list[str] = []
        for folder in folders:
            users = graph.find_downstream_modules(folder, as_package=True)
            for module in shared:
                if module in users:
                    chain = graph.find_shortest_chain(importer=module, imported=folder, as_packages=True)
                    broken.append(f"{module} names pack folder {folder}: {_chain_text(chain)}")
        return ContractCheck(kept=not broken, metadata={"broken": broken})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for line in check.metadata["broken"]:
            output.print_error(line)
            output.new_line()
