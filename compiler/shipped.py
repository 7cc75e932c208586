"""The rules rulec ships, announced as installed series (entry point group `rulec.rules`, see project.py).

In a wheel they are package data, rulec/series/<folder>/ (pyproject.toml maps the checkout's rules/
folder there); in a checkout or an editable install they are read from rules/ beside compiler/.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def _folder(name: str) -> Path:
    packaged = Path(str(resources.files(__package__ or "rulec").joinpath("series", name)))
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / "rules" / name


OCS = _folder("ocs")  # the Operational Combat Series v4.3 (chapters 4 and 13) and its Fog of War option
DAK = _folder("dak")  # Deutsches Afrika Korps, a game over OCS (name OCS too: it extends it)
ZCS = _folder("zoc-classes")  # ZOC classes
ACW = _folder("acw")  # brigade-scale American Civil War combat
