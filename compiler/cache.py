"""The build's caches (.rulec-cache/, never committed), each keyed by content so that a stale entry
is never used: it is not found. ParseCache keeps each file's parse (.rulec-cache/parse/), so a
build after an edit parses only the files that changed; Memo keeps results of pure work (each
table's analysis); Work holds them all for one build. Every file kept is sealed (manifest.py,
which also holds the last build's manifest: the no-op check).
"""

from __future__ import annotations

import codecs
import dataclasses
import hashlib
import io
import pickle
import re
import sys
import zlib
from collections.abc import Iterator, MutableMapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import lark

from . import ast
from .collector import lasting
from .diagnostics import Diagnostic, Span
from .manifest import _write_file, fingerprint, prune_folder, read_sealed, sealed, sweep
from .model import Origin
from .parser import Piece, parse_reusing
from .units import Units, dataclasses_of


def _store(path: Path, value: Any) -> None:
    """Keep value in path, pickled; a value that cannot be pickled (too deep for the pickler) is
    only not kept."""
    try:
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:
        return
    _write_file(path, sealed(path, data))


def pack(text: str) -> bytes:
    """A text kept in memory until the build ends, compressed (zlib, fast): a large rulebook's
    modules, cards and value tables are tens of MB, 5 to 10 times smaller so."""
    return zlib.compress(text.encode("utf-8", "surrogatepass"), 1)


def unpack(data: bytes) -> str:
    return zlib.decompress(data).decode("utf-8", "surrogatepass")


@dataclasses.dataclass(frozen=True, slots=True)
class KeptText:
    """A text a build keeps from one run to the next (a page, a card, a module): compressed (pack),
    with the SHA-256 of its UTF-8 bytes (hex). What takes it up asks for the text only where the
    digest does not settle the question already: the writer leaves a file alone whose stamp and
    digest the last build recorded (writing.write_atomic's `known`), the cards kept for printing
    take the compressed bytes as they are, a sheet of small cards names each card by its digest."""

    packed: bytes
    digest: str

    @classmethod
    def of(cls, text: str) -> KeptText:
        data = text.encode("utf-8", "surrogatepass")
        return cls(zlib.compress(data, 1), hashlib.sha256(data).hexdigest())

    def text(self) -> str:
        return unpack(self.packed)

    def utf8(self) -> bytes:
        """The text's UTF-8 bytes, as text().encode("utf-8") gives them, without the text beside them
        (a large rulebook's module is tens of MB; as text, up to four bytes a character): checked a
        megabyte at a time, so that a text no UTF-8 can hold (a lone surrogate) fails as ever."""
        data = zlib.decompress(self.packed)
        if not data.isascii():
            check = codecs.getincrementaldecoder("utf-8")()
            for at in range(0, len(data), 1 << 20):
                check.decode(data[at:at + (1 << 20)])
            check.decode(b"", final=True)
        return data


def text_of(content: str | KeptText) -> str:
    """The text of an output, whether made or kept."""
    return content.text() if isinstance(content, KeptText) else content


def digest_of(content: str | KeptText) -> str:
    """The SHA-256 (hex) of an output's UTF-8 bytes, whether made or kept."""
    if isinstance(content, KeptText):
        return content.digest
    return hashlib.sha256(content.encode("utf-8", "surrogatepass")).hexdigest()


class ParseCache:
    """Each file's parse, `rulec.parser.parse(text, name)`, kept under folder/parse/.

    An entry is named by a hash of rulec (fingerprint(), with Python's and Lark's versions), the
    file's name (it is in every span) and its text: a stale entry is never found. It holds the
    parse and the file's pieces (`parser.parse_reusing`), and a second, small entry named by rulec
    and the file's name alone (<hash>.latest) says which entry has the file's latest pieces: a file
    that changed is parsed again only in the pieces the change touched. A missing, unreadable or
    corrupt entry is a miss, and a cache that cannot be written is only slower: the cache is never
    why a build fails. finish() drops the entries this run did not use."""

    def __init__(self, folder: Path):
        self.folder = folder / "parse"
        self.used: set[str] = set()
        self.hits = self.misses = 0

    def parse(self, text: str, name: str) -> tuple[ast.File | None, list[Diagnostic]]:
        key, latest = parse_key(text, name), parse_key("", name, "latest")
        self.used.update((key, latest))
        entry = self.folder / f"{key}.pickle"
        found = _load_parse(entry)
        if found is not None:
            self.hits += 1
            return found[0]
        self.misses += 1
        previous = _load_key(self.folder / f"{latest}.latest")
        earlier = _load_parse(self.folder / f"{previous}.pickle") if previous is not None else None
        result, pieces = parse_reusing(text, name, earlier[1] if earlier is not None else {})
        _store(entry, (result, pieces))
        if pieces:  # a file with a mistake has none: the pieces before it are the ones to take up again
            _store(self.folder / f"{latest}.latest", key)
        return result

    def keep(self, text: str, name: str) -> None:
        """Keep the file's parse for a later build without reading it (this build took up the file's
        unit, units.py): a later edit of the file is parsed again only in the pieces it touched."""
        self.used.update((parse_key(text, name), parse_key("", name, "latest")))

    def finish(self) -> None:
        """Drop the entries this run did not use: the folder holds one build's files, not every
        version of every file ever parsed. Call it after a run that parsed the whole tree."""
        self.prune(self.used)

    def prune(self, keep: set[str]) -> None:
        """Delete every entry whose key is not in keep, and temporary files left by a crash."""
        prune_folder(self.folder, keep, ("pickle", "latest"))


def parse_key(text: str, name: str, kind: str = "parse") -> str:
    """The hash that names a file's entry. kind "latest": the entry that names the latest parse of
    the file."""
    return entry_key(kind, name, text)


def entry_key(kind: str, *parts: str) -> str:
    """The hash that names an entry of the cache: rulec (fingerprint(), Python's and Lark's
    versions), its kind and its parts, each length-prefixed, so no two keys run together."""
    h = hashlib.sha256()
    rulec = f"{fingerprint()} python {sys.version} lark {lark.__version__}"
    for part in (rulec, kind, *parts):
        data = part.encode("utf-8", "surrogatepass")
        h.update(len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


def _load_parse(entry: Path) -> tuple[tuple[ast.File | None, list[Diagnostic]], dict[str, Piece]] | None:
    """The stored parse and pieces, or None when there is none, it is not sealed by this user's
    rulec, or it cannot be read back whole."""
    found = _unpickled(entry)
    return found if isinstance(found, tuple) and len(found) == 2 and _is_parse(found[0]) \
        and _are_pieces(found[1]) else None


def _load_key(entry: Path) -> str | None:
    """The key a file's "latest" entry holds, or None."""
    found = _unpickled(entry)
    return found if isinstance(found, str) and re.fullmatch(r"[0-9a-f]{64}", found) else None


def _unpickled(entry: Path) -> Any:
    """What a sealed entry holds, loaded by the restricted unpickler; None for no entry or a
    damaged one."""
    data = read_sealed(entry)
    return None if data is None else _loaded(data)


def _loaded(data: bytes, unpickler: type[pickle.Unpickler] | None = None) -> Any:
    """What sealed bytes hold, loaded by the restricted unpickler (a parse's, or the one given);
    None for damaged ones. Held off while they are made, the collector would run many times over
    them, none of which is garbage (a load takes a third less time); during a build, they are left
    out of its rounds from then on."""
    with lasting():
        try:
            return (unpickler or _SyntaxUnpickler)(io.BytesIO(data)).load()
        except Exception:  # any damage to the bytes is only a miss: unpickling can raise almost anything
            return None


def _is_parse(found: Any) -> bool:
    return (isinstance(found, tuple) and len(found) == 2
            and (found[0] is None or isinstance(found[0], ast.File))
            and isinstance(found[1], list) and all(isinstance(d, Diagnostic) for d in found[1]))


def _are_pieces(found: Any) -> bool:
    return isinstance(found, dict) and all(
        isinstance(k, str) and isinstance(p, tuple) and len(p) == 3 and isinstance(p[0], int)
        and isinstance(p[1], tuple) and isinstance(p[2], int) for k, p in found.items())


class _SyntaxUnpickler(pickle.Unpickler):
    """Loads syntax trees and diagnostics, nothing else: a pickle can name any function to call,
    and an entry is a file on disk, so only the classes a parse is made of may be named."""

    def find_class(self, module: str, name: str) -> Any:
        found = _SYNTAX_CLASSES.get((module, name))
        if found is None:
            raise pickle.UnpicklingError(f"not part of a parse: {module}.{name}")
        return found


_SYNTAX_CLASSES: dict[tuple[str, str], Any] = {
    **dataclasses_of(ast),
    (Span.__module__, "Span"): Span,
    (Diagnostic.__module__, "Diagnostic"): Diagnostic,
    (Origin.__module__, "Origin"): Origin,  # where a card's block is written (view.card_parts)
    ("fractions", "Fraction"): Fraction,
    (__name__, "KeptText"): KeptText,  # the texts the memos keep (a page, a card, a module)
}


class Memo(MutableMapping[str, Any]):
    """Results of pure work kept between builds (each table's analysis), in one file, under keys
    that hash everything the work reads (Interpreter.closure_key): a stale entry is never found.

    Read when first asked; save() writes back only the entries this run used or made, so the file
    holds one build's worth. Loaded with the same restricted unpickler as the parses (diagnostics,
    spans, places, numbers and plain data only); a missing or damaged file is an empty memo."""

    def __init__(self, path: Path | None):
        self.path = path  # None: kept in memory only, from one build to the next (rulec build --watch)
        self._old: dict[str, Any] | None = None if path is not None else {}
        self.used: dict[str, Any] = {}
        self.made = False  # an entry was made or dropped this run

    def _stored(self) -> dict[str, Any]:
        if self._old is None:
            self._old = {}
            if self.path is None:
                return self._old
            data = read_sealed(self.path)
            found = _loaded(data) if data is not None else None
            if isinstance(found, tuple) and len(found) == 2 and found[0] == fingerprint() \
                    and isinstance(found[1], dict):
                self._old = found[1]
        return self._old

    def __getitem__(self, key: str) -> Any:
        if key not in self.used:
            self.used[key] = self._stored()[key]
        return self.used[key]

    def __contains__(self, key: object) -> bool:
        return key in self.used or key in self._stored()

    def __setitem__(self, key: str, value: Any) -> None:
        self.used[key] = value
        self.made = True

    def __delitem__(self, key: str) -> None:
        del self.used[key]
        self.made = True

    def __iter__(self) -> Iterator[str]:
        return iter(self.used)

    def __len__(self) -> int:
        return len(self.used)

    def save(self) -> None:
        """Keep this run's entries (only those) for the next: on disk, or in memory without a path.
        A file that would be written as it is (every entry taken from it, none made) is left alone."""
        same = not self.made and self._old is not None and self.used.keys() == self._old.keys()
        kept, self._old, self.used, self.made = self.used, self.used, {}, False
        if self.path is not None and not same:
            _store(self.path, (fingerprint(), kept))


class MemoryParses:
    """Each file's parse, kept in memory from one build to the next (a watching process): the
    files that did not change are not parsed again, and those that did only in the pieces the
    change touched. finish() keeps what the last build used."""

    def __init__(self) -> None:
        self.kept: dict[tuple[str, str], tuple[ast.File | None, list[Diagnostic]]] = {}
        self.used: dict[tuple[str, str], tuple[ast.File | None, list[Diagnostic]]] = {}
        self.pieces: dict[str, dict[str, Piece]] = {}  # each file's, from its latest parse

    def parse(self, text: str, name: str) -> tuple[ast.File | None, list[Diagnostic]]:
        key = (name, text)
        found = self.used.get(key) or self.kept.get(key)
        if found is None:
            found, pieces = parse_reusing(text, name, self.pieces.get(name, {}))
            if pieces:  # a file with a mistake has none: the pieces before it are the ones to take up again
                self.pieces[name] = pieces
        self.used[key] = found
        return found

    def keep(self, text: str, name: str) -> None:
        """Keep the file's parse for a later build (this one took up the file's unit)."""
        found = self.kept.get((name, text))
        if found is not None:
            self.used[(name, text)] = found

    def finish(self) -> None:
        self.kept, self.used = self.used, {}
        names = {name for name, _ in self.kept}
        self.pieces = {name: p for name, p in self.pieces.items() if name in names}


class Work:
    """What `rulec build` keeps between runs in the cache folder: each file's parse, each table's
    analysis, each ruleset's Python module and each table's per-unit values. finish() after a
    build keeps only what it used."""

    def __init__(self, folder: Path | None):
        """folder: the cache folder; None keeps everything in memory, for the builds of one process."""
        self.folder = folder
        self.parses: ParseCache | MemoryParses = ParseCache(folder) if folder is not None else MemoryParses()
        memo = (lambda name: folder / "memo" / f"{name}.pickle") if folder is not None else (lambda name: None)
        self.analyses = Memo(memo("analyses"))
        self.modules = Memo(memo("modules"))  # each ruleset's Python module
        self.values = Memo(memo("values"))  # each table's per-unit values (cards)
        self.examples = Memo(memo("examples"))  # each ruleset's worked examples: what they found and used
        self.renders = Memo(memo("renders"))  # each rule sheet page's and card's text, by what it shows
        self.views = Memo(memo("views"))  # the parts of each ruleset's cards that read no clause's text
        self.units = Units(folder)  # each file's skeleton and its checked and lowered items (units.py)

    def finish(self) -> None:
        """After the whole tree was compiled and written: keep only what this build used."""
        self.parses.finish()
        self.analyses.save()
        self.modules.save()
        self.values.save()
        self.examples.save()
        self.renders.save()
        self.views.save()
        self.units.finish()
        if self.folder is not None:
            sweep(self.folder / "memo")
