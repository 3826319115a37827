"""Where things are in a project checkout: the current directory's content,
site pages and MkDocs configuration, as ``git`` and ``mkdocs`` find theirs."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.errors import UsageError


@dataclass(frozen=True)
class Project:
    root: Path

    @property
    def content(self) -> Path:
        return self.root / "content"

    @property
    def site(self) -> Path:
        return self.root / "site"

    @classmethod
    def here(cls, root: Path | None = None) -> Project:
        project = cls((root or Path.cwd()).resolve())
        for needed in (project.content, project.site):
            if not needed.is_dir():
                raise UsageError(f"{needed}: not found; run this in a rules-kit checkout (the folder holding content/ and site/)")
        return project
