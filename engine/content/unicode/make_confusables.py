"""Write ``confusables.json`` from Unicode's ``confusables.txt`` (UTS #39).

    python -m engine.content.unicode.make_confusables confusables.txt

Take the file from https://www.unicode.org/Public/security/latest/confusables.txt.
The JSON keeps only what the skeleton needs (each code point and the code
points it maps to, in hex) with the source's version, date and checksum, so
a later regeneration shows in a diff what Unicode changed. The data stays
under the Unicode License v3 (``LICENSE`` beside it).
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_LINE = re.compile(r"^([0-9A-F]{4,6}) ;\t([0-9A-F]{4,6}(?: [0-9A-F]{4,6})*) ;\tMA\t")
_FIELD = re.compile(r"^# (Version|Date): (.+)$")


def convert(text: str) -> dict[str, object]:
    """The JSON document for the text of confusables.txt."""
    mapping: dict[str, str] = {}
    header: dict[str, str] = {}
    for line in text.splitlines():
        field = _FIELD.match(line)
        if field:
            header[field[1].lower()] = field[2].strip()
        found = _LINE.match(line)
        if found:
            mapping[found[1]] = found[2]
    if not mapping or "version" not in header:
        raise SystemExit("this does not look like Unicode's confusables.txt (no version line or no MA mappings)")
    return {
        "source": f"https://www.unicode.org/Public/security/{header['version']}/confusables.txt",
        "version": header["version"],
        "date": header.get("date", ""),
        "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
        "copyright": "© 1991-2025 Unicode, Inc. Unicode data, distributed under the Unicode License v3: see LICENSE beside this file",
        "note": "Made by engine/content/unicode/make_confusables.py; edit nothing by hand.",
        "mapping": dict(sorted(mapping.items(), key=lambda kv: int(kv[0], 16))),
    }


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    document = convert(Path(argv[0]).read_text(encoding="utf-8-sig"))
    out = HERE / "confusables.json"
    out.write_text(json.dumps(document, indent=0, ensure_ascii=True) + "\n", encoding="utf-8")
    print(f"{out}: {len(document['mapping'])} mappings, Unicode {document['version']}")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
