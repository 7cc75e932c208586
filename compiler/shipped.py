"""The rules rulec ships, announced as installed series (entry point group `rulec.rules`, see project.py).

Which folders are announced, and under which layer names, is data: the entry points in pyproject.toml
(`NAME = "rulec.shipped:folder_name"`). An attribute of this module is the rules folder of that name
(`_` read as `-` where the folder is written so): package data rulec/series/<folder>/ in a wheel
(pyproject.toml maps the checkout's rules/ folder there), rules/<folder>/ beside compiler/ in a checkout
or an editable install.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def folder(name: str) -> Path:
    """The shipped rules folder of that name, wherever rulec is installed."""
    packaged = Path(str(resources.files(__package__ or "rulec").joinpath("series")))
    checkout = Path(__file__).resolve().parent.parent / "rules"
    for base in (packaged, checkout):
        for candidate in (name, name.replace("_", "-")):
            if (base / candidate).is_dir():
                return base / candidate
    raise AttributeError(f"rulec ships no rules folder named {name!r}")


def __getattr__(name: str) -> Path:  # an entry point's object: rulec.shipped:<folder>
    if name.startswith("__"):
        raise AttributeError(name)
    return folder(name)
