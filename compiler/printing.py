"""Print HTML cards to PDF and PNG with headless Chromium, and count PDF pages with pdfinfo.

Chromium is driven over its DevTools pipe (--remote-debugging-pipe: JSON messages
ending in NUL on file descriptors 3 and 4), so one browser prints every card on
every paper with nothing but the standard library.  Prints are not byte-stable
across browser versions, so each one gets a text sidecar naming the sha256 of
the HTML it was printed from: `rulec build --check` compares sidecars, and a
build reprints only what changed.
"""

from __future__ import annotations

import base64
import collections
import hashlib
import json
import os
import queue
import re
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
import time
from collections.abc import Generator, Iterator, Mapping
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import papers
from .tidy import alive, remove_tree

# Debian's chromium-headless-shell first: the same Blink as its chromium, without the full browser around
# it (Chromium's "old headless" mode, which Puppeteer prints with too). It printed the shipped rules'
# 117 prints in 3.6-4.0 s against 5.2-5.6 s, and a full build with printing took 6.1-6.5 s against
# 8.1-8.8 s (/tmp scripts, paired rounds). Its prints are not the other's bytes (another /Creator, and
# a glyph placed a fraction of a pixel apart here and there), as prints of two Chromium versions are
# not: a print is kept while its HTML is unchanged, whichever browser made it. Debian's
# /usr/bin/chromium-headless-shell is a script that runs the browser as its child, not in its place,
# so the browser would be neither the process close() waits for nor the one set to die with rulec
# (_die_with_parent): the browser itself is named first.
CHROMIUM_NAMES = ("/usr/lib/chromium/chromium-headless-shell", "chromium-headless-shell", "chromium",
                  "chromium-browser", "google-chrome", "google-chrome-stable")
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-quic", "--no-first-run", "--disable-component-update", "--disable-sync",
                  "--disable-extensions", "--hide-scrollbars", "--mute-audio", "--remote-debugging-pipe")
# Each print tab opens in a window of its own, where it is the tab in front: Chromium lowers a tab behind
# another to nice 5 (--disable-renderer-backgrounding did not change that), and on a busy machine a print
# in such a tab waited past TIMEOUT ("chromium did not answer in time") beside three CPU hogs.
NEW_TAB = {"url": "about:blank", "newWindow": True}
TIMEOUT = 60.0
# Pages printed side by side in one browser: in the headless shell, the shipped rules' 117 prints took
# 3.0-3.4 s in four tabs, 3.2-3.3 s in three, 3.6-4.2 s in two, 3.1-3.7 s in six (four paired rounds in
# one process); a full build with printing 5.5-5.6 s in four, 6.2-6.5 s in two (whole processes).
PRINT_TABS = 4

# Paper sizes in inches, and the margin the card CSS expects (@page { margin: 10mm }).
PAPERS = {"letter": (8.5, 11.0), "a4": (210 / 25.4, 297 / 25.4)}
MARGIN_IN = 10 / 25.4
PREVIEW = {"scale": 1.5}  # the preview's pixels to a CSS px: 1,190 x 1,581 for a Letter card
# How every page is printed (prints_of_page), in its sidecars: a print made another way is made again.
OPENED = {"width": 816, "height": 1056, "scale": 1.0}  # the screen a page opens on: Letter's width at 96 px/in
HOW = (f"how: opened on a screen {OPENED['width']} px wide at {OPENED['scale']:g}x, printed, then the card "
       f"captured at {PREVIEW['scale']:g}x for the preview")
PDF_DATE = re.compile(rb"/(CreationDate|ModDate) \(D:[0-9]{14}[^)]{0,12}\)")
FIXED_DATE = b"D:20000101000000Z"


# A card's content past its page: the bottom of its last block or footer below the card's own box (a
# card of its own size, whose box is its page) or more than 259 mm below its top (a page card).
OVERFLOWS = """(() => { const c = document.querySelector('.card'); if (!c) return false;
  const box = c.getBoundingClientRect(); const pad = parseFloat(getComputedStyle(c).paddingTop);
  const ends = [...c.querySelectorAll('section.block, footer')].map(e => e.getBoundingClientRect().bottom);
  const bottom = Math.max(...ends);
  if (c.classList.contains('sized')) { const main = c.querySelector('main');
    return main.scrollHeight > main.clientHeight + 1 || bottom > box.bottom + 1; }
  return bottom - box.top - pad > 259 * 96 / 25.4 + 1; })()"""


BLOCKED = ["http://*", "https://*", "ws://*", "wss://*", "ftp://*"]


class PrintError(RuntimeError):
    """Chromium could not be started, or did not answer."""


def find_chromium() -> str | None:
    """The Chromium to print with: $RULEC_CHROMIUM, else the first of CHROMIUM_NAMES on PATH."""
    forced = os.environ.get("RULEC_CHROMIUM")
    if forced is not None:
        return shutil.which(forced)
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def sha256(text: str | bytes) -> str:
    return hashlib.sha256(text.encode("utf-8") if isinstance(text, str) else text).hexdigest()


PDF_NODE_ID = re.compile(rb"\(node(\d{8})\)")
PDF_ELEMENT_ID = re.compile(rb"/ID \(node(\d{8})\)")
PDF_ID_LEAF = re.compile(rb"/Limits \[\(node\d{8}\) \(node\d{8}\)\]\n/Names \[((?:\(node\d{8}\) \d+ 0 R ?)+)\]")
PDF_ID_PAIR = re.compile(rb"\(node(\d{8})\) (\d+) 0 R")


def normalise_pdf(pdf: bytes) -> bytes:
    """What Chromium varies between two prints of the same page, made the same: the dates (fix_pdf_dates),
    and the ids of the tagged PDF's structure elements, `(node00000028)`. They are the page's DOM node
    numbers, given out as the browser first needs them: they shift from one browser to the next, and
    on a busy machine two table headers' ids came out swapped (tests/test_watch_print.py failed in CI).
    Each element's id becomes its rank in the file's order of elements (`/ID (node...)`, written as the
    structure tree is walked, so the same page gives the same order), everywhere it is named (a cell's
    /Headers too); then the IDTree's leaf, which lists (id, element) by id, is sorted again and its
    /Limits set. Every id keeps its length and the leaf its bytes' count, so the xref offsets stay valid.
    A file with more than one leaf (Chromium writes one) keeps its ids ranked by number, as before."""
    pdf = fix_pdf_dates(pdf)
    ids = [int(m.group(1)) for m in PDF_ELEMENT_ID.finditer(pdf)]
    named = {int(m.group(1)) for m in PDF_NODE_ID.finditer(pdf)}
    leaves = list(PDF_ID_LEAF.finditer(pdf))
    if len(leaves) > 1 or len(set(ids)) != len(ids) or not named <= set(ids):
        ids = sorted(named)
    rank = {n: i for i, n in enumerate(ids, 1)}
    pdf = PDF_NODE_ID.sub(lambda m: b"(node%08d)" % rank[int(m.group(1))], pdf)

    def sorted_leaf(m: re.Match[bytes]) -> bytes:
        pairs = sorted(PDF_ID_PAIR.findall(m.group(1)))
        names = b" ".join(b"(node%s) %s 0 R" % pair for pair in pairs)
        return b"/Limits [(node%s) (node%s)]\n/Names [%s]" % (pairs[0][0], pairs[-1][0], names)
    return PDF_ID_LEAF.sub(sorted_leaf, pdf) if len(leaves) == 1 else pdf


def fix_pdf_dates(pdf: bytes) -> bytes:
    """Replace the creation and modification dates with a fixed one of the same length or shorter,
    padded with spaces inside the string, so every byte offset in the file (the xref table) stays valid."""
    def fixed(m: re.Match[bytes]) -> bytes:
        whole = m.group(0)
        head = b"/" + m.group(1) + b" ("
        body_len = len(whole) - len(head) - 1
        return head + FIXED_DATE.ljust(body_len, b" ")[:body_len] + b")"
    return PDF_DATE.sub(fixed, pdf)


# ---- print jobs and sidecars ---------------------------------------------------------------


@dataclass(frozen=True)
class Job:
    """One print: `target` (a .pdf or .png in generated/) made from `source` (an .html there)."""

    source: str
    target: str
    paper: str  # "letter", "a4" or "preview"

    @property
    def sidecar(self) -> str:
        return self.target + ".source"

    def sidecar_of(self, digest: str) -> str:
        """The sidecar of this print of the HTML whose sha256 is digest."""
        if self.paper == "preview":
            what = f"preview: the card at {PREVIEW['scale']}x"
        elif self.paper.startswith("sheet-"):
            paper = self.paper.removeprefix("sheet-")
            w, h = PAPERS[paper]
            what = f"paper: {paper} ({w:.2f} x {h:.2f} in, no margins), cards with crop marks"
        elif self.paper not in PAPERS:
            size = papers.SIZES[self.paper]
            w, h = size.page_mm
            what = (f"paper: {size.name}, the card's own size ({size.title}, {size.bleed_mm:g} mm bleed on each "
                    f"side: {w:g} x {h:g} mm)")
        else:
            w, h = PAPERS[self.paper]
            what = f"paper: {self.paper} ({w:.2f} x {h:.2f} in, margins 10 mm)"
        return (f"# {Path(self.target).name} was printed by headless Chromium from the HTML below;\n"
                f"# rulec build reprints it when that HTML changes.\n"
                f"source: {Path(self.source).name}\nsha256: {digest}\n{what}\n{HOW}\n")


def is_card(rel: str) -> bool:
    """A card's HTML, which is printed."""
    return re.fullmatch(r"cards/[^/]+/card-[A-Za-z0-9_]+\.html", rel) is not None


_SHEET = re.compile(r"cards/[^/]+/sheet-[a-z0-9_]+-(letter|a4)\.html")


def is_sheet(rel: str) -> bool:
    """A sheet of small cards to cut out (sheets.view.imposed), which is printed on its paper."""
    return _SHEET.fullmatch(rel) is not None


_SIZED = re.compile(r'<article class="card sized"[^>]*? data-size="([a-z0-9_]+)"')


def jobs_of(rel: str, html: str) -> list[Job]:
    """The prints of one file of the cards (none for a file that is not printed): a card's are a
    Letter PDF, an A4 PDF and a PNG preview; a card of its own size (`card ... size poker`), one PDF
    of that size with its bleed, and the preview; a sheet of small cards, one PDF of its paper."""
    if is_card(rel):
        stem = rel[:-len(".html")]
        sized = _SIZED.search(html)
        if sized is not None and sized.group(1) in papers.SIZES:
            out = [Job(rel, f"{stem}.pdf", sized.group(1))]
        else:
            out = [Job(rel, f"{stem}.letter.pdf", "letter"), Job(rel, f"{stem}.a4.pdf", "a4")]
        return [*out, Job(rel, f"{stem}.png", "preview")]
    if (sheet := _SHEET.fullmatch(rel)) is not None:
        return [Job(rel, f"{rel[:-len('.html')]}.pdf", f"sheet-{sheet.group(1)}")]
    return []


@dataclass
class Prints:
    files: dict[str, str | bytes]
    reused: int = 0
    printed: int = 0
    missing: list[str] | None = None
    why: str | None = None
    overflowing: list[str] = field(default_factory=list)  # cards whose content runs past their page


def collect(files: Mapping[str, str], out_dir: Path, allow_print: bool, kept: KeptBrowser | None = None) -> Prints:
    """The prints (and sidecars) generated/ should hold: those already there whose sidecar matches
    the HTML are kept; the rest are printed when allowed and Chromium is there, else left out.
    kept: a browser kept open from one build to the next (rulec build --watch); without it, a browser
    is started for this build's prints and closed after them."""
    run = PrintRun(out_dir, allow_print, kept)
    for rel in sorted(files):
        run.add(rel, files[rel])
    return run.finish(files)


class PrintRun:
    """The prints of one build's cards, worked out card by card as the build makes them (add), and
    gathered by finish(), which prints what is left to print. With beside=True and a browser started
    already (kept), each card whose prints are stale is printed as it comes, on a thread of its own
    while the build goes on (Browser.run with a Feed); the sheets of small cards, whose frames open
    their cards' files, are printed by finish()."""

    def __init__(self, out_dir: Path, allow_print: bool, kept: KeptBrowser | None = None,
                 beside: bool = False) -> None:
        self.out_dir, self.allow_print, self.kept = out_dir, allow_print, kept
        self.result = Prints(files={}, missing=[])
        self.todo: dict[str, list[Job]] = {}  # source -> its stale prints, for finish() (its HTML read from files then)
        self.added: set[str] = set()  # each file added
        self.digests: dict[str, str] = {}  # the sha256 of a file's HTML, which its sidecars name, when needed
        self.taken: dict[str, list[Job]] = {}  # each file added: its prints taken as the last build made them
        self.done: list[tuple[str, list[Job], tuple[dict[str, bytes], bool]]] = []
        self._feed: Feed | None = None
        self._fed: list[tuple[str, list[Job], str]] = []  # what was put in the feed, in order, with its HTML's digest
        self._made: list[tuple[dict[str, bytes], bool]] = []  # the thread's prints of it, in the same order
        self._thread: threading.Thread | None = None
        self._failed: BaseException | None = None
        self._started = 0
        if beside and allow_print and kept is not None:
            with suppress(PrintError):  # a browser that cannot start: finish() tries again, and says why
                # Started on this thread, not the print thread: the kernel kills the browser as the
                # thread that started it ends (_die_with_parent), and finish() may print with it after.
                kept.start()
                self._started = kept.started
                self._feed = Feed()
                self._thread = threading.Thread(target=self._print_fed, name="rulec-print", daemon=True)
                self._thread.start()

    def add(self, rel: str, html: str) -> None:
        """One file of the cards: its prints whose sidecar matches its HTML are kept; the rest are
        printed now (beside the build) or by finish(). A file added again with the same HTML is left
        as it is (a build that prints adds its cards as soon as they can be made, build.feed_cards,
        and again as it writes them); with other HTML, it stands for what was added before."""
        jobs = jobs_of(rel, html)
        if not jobs:
            return
        if rel in self.added:
            if self.digests.get(rel) == sha256(html):
                return
            self._drop(rel)
        self.added.add(rel)
        stale, kept = [], []
        for job in jobs:
            side, target = self.out_dir / job.sidecar, self.out_dir / job.target
            if not (side.is_file() and target.is_file()):  # not printed yet: no sidecar to compare with
                stale.append(job)
                continue
            want = job.sidecar_of(self._digest(rel, html))
            if side.read_text(encoding="utf-8") == want:
                self.result.files[job.sidecar] = want
                self.result.files[job.target] = target.read_bytes()
                kept.append(job)
            else:
                stale.append(job)
        self.result.reused += len(kept)
        self.taken[rel] = kept
        if stale and self._feed is not None and is_card(rel):  # shown from its HTML: its address is not used
            self._fed.append((rel, stale, self._digest(rel, html)))
            self._feed.put(prints_of_page("about:blank", [j.paper for j in stale], html))
        elif stale:
            self.todo[rel] = stale

    def _drop(self, rel: str) -> None:
        """Forget what was added of rel: its kept prints, and its prints to make (those fed already are
        made all the same, and left out by finish(): their digest is not rel's)."""
        for job in self.taken.pop(rel, []):
            del self.result.files[job.sidecar], self.result.files[job.target]
            self.result.reused -= 1
        self.todo.pop(rel, None)
        self.digests.pop(rel, None)

    def _digest(self, rel: str, html: str) -> str:
        """The sha256 of rel's HTML, worked out when first needed: a build that prints nothing (--no-print,
        no Chromium) hashes only the cards it has prints of, to compare with their sidecars."""
        if rel not in self.digests:
            self.digests[rel] = sha256(html)
        return self.digests[rel]

    def _print_fed(self) -> None:
        """The thread that prints the cards fed to it until finish(). Its tabs open at once, while the
        build is still reading the rules: a new tab's renderer takes 0.13-0.17 s to start, and a
        one-card edit took 1.07-1.41 s (median 1.21) with them opened so against 1.23-1.64 s (1.48)
        with them opened as its first card came, an edit that printed nothing 1.05-1.51 s against
        1.12-1.49 s (/tmp scripts: whole processes, alternating, eight rounds)."""
        assert self._feed is not None and self.kept is not None
        try:
            with self.kept.open() as b:
                self._made = b.run([], feed=self._feed)
        except BaseException as e:  # raised again by finish(), in the build's own thread
            self._failed = e

    def finish(self, files: Mapping[str, str]) -> Prints:
        """Every print: those kept, those made beside the build (waited for), and the rest, printed
        now when allowed and Chromium is there, else listed as missing. files: every file of the
        cards, which a sheet of small cards opens beside it."""
        if self._thread is not None and self._feed is not None and self.kept is not None:
            self._feed.close()
            self._thread.join()
            if self.kept.started != self._started:  # the print thread started it again: it dies with the thread
                self.kept.close()
            if self._failed is not None:
                raise self._failed
            self.done += [(rel, jobs, made) for (rel, jobs, digest), made in zip(self._fed, self._made, strict=True)
                          if self.digests.get(rel) == digest]
        result = self.result
        if self.todo:
            self._print_rest(files)
        for source, jobs, (made, overflows) in sorted(self.done, key=lambda d: d[0]):
            if overflows:
                result.overflowing.append(source)
            for job in jobs:
                result.files[job.target] = made[job.paper]
                result.files[job.sidecar] = job.sidecar_of(self.digests[source])
                result.printed += 1
        return result

    def _print_rest(self, files: Mapping[str, str]) -> None:
        todo = dict(sorted(self.todo.items()))
        browser = (self.kept.executable if self.kept is not None else find_chromium()) if self.allow_print else None
        if browser is None:
            self.result.missing = [j.target for jobs in todo.values() for j in jobs]
            self.result.why = "chromium not found" if self.allow_print else "not printing with --check or --no-print"
            return
        for source in todo:  # what its prints' sidecars will name
            self._digest(source, files[source])
        tmp = tempfile.mkdtemp(prefix=f"rulec-print-{os.getpid()}-")
        try:
            # A card is shown from its HTML; a sheet is opened as a file, its cards' files beside it.
            for rel in files if any(is_sheet(source) for source in todo) else ():
                if is_card(rel) or is_sheet(rel):
                    page = Path(tmp) / "site" / rel
                    page.parent.mkdir(parents=True, exist_ok=True)
                    page.write_text(files[rel], encoding="utf-8")
            with Browser.launch(browser) if self.kept is None else self.kept.open() as b:
                made = b.run([prints_of_page((Path(tmp) / "site" / source).as_uri(), [j.paper for j in jobs],
                                             files[source] if is_card(source) else None)
                              for source, jobs in todo.items()])
            self.done += [(source, jobs, m) for (source, jobs), m in zip(todo.items(), made, strict=True)]
        finally:
            remove_tree(tmp)


# ---- what a killed rulec left -------------------------------------------------------------------

_LEFT = re.compile(r"rulec-(print|chromium|modcheck)-(\d+)-[A-Za-z0-9_]+")


def clean_leftovers(folders: list[Path] | None = None) -> list[Path]:
    """Remove what a rulec killed while printing left in the temporary folders (the system's, and
    /tmp where Chromium's own went): its rulec-print-<pid>-* and rulec-chromium-<pid>-* folders
    (and rulec-modcheck-<pid>-*, the modules its check compiles beside the build: modcheck.py),
    once process <pid> is gone, and any Chromium still running on such a profile. Only this
    user's folders; the removed ones are returned."""
    removed: list[Path] = []
    for tmp in sorted(set(folders or [Path(tempfile.gettempdir()), Path(SHORT_TMP)])):
        removed += _clean(tmp)
    return removed


def _clean(tmp: Path) -> list[Path]:
    removed = []
    try:
        names = os.listdir(tmp)
    except OSError:
        return []
    for name in sorted(names):
        found = _LEFT.fullmatch(name)
        path = tmp / name
        try:
            st = path.lstat()
        except OSError:
            continue
        if found is None or not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or alive(int(found.group(2))):
            continue
        _kill_browsers_on(path)
        remove_tree(path)
        removed.append(path)
    return removed


SHORT_TMP = "/tmp"
MAX_SCRATCH = 50  # characters of Chromium's TMPDIR: it makes Unix sockets there, whose paths hold 107


def _scratch(profile: str) -> str:
    """A folder for Chromium's own temporary files, removed with the profile: inside it, or, where
    that path is too long for Chromium's sockets (a long TMPDIR made Chromium exit), in /tmp."""
    inside = os.path.join(profile, "tmp")
    if len(inside) <= MAX_SCRATCH:
        os.mkdir(inside)
        return inside
    return tempfile.mkdtemp(prefix=f"rulec-chromium-{os.getpid()}-", dir=SHORT_TMP)


def _kill_browsers_on(profile: Path) -> None:
    """Kill this user's processes started with --user-data-dir=profile (Linux: read from /proc)."""
    flag = f"--user-data-dir={profile}".encode()
    try:
        pids = [int(n) for n in os.listdir("/proc") if n.isdigit()]
    except OSError:
        return
    for pid in pids:
        try:
            if os.stat(f"/proc/{pid}").st_uid != os.getuid():
                continue
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                args = f.read().split(b"\0")
        except OSError:
            continue
        if flag in args:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


def _die_with_parent() -> None:
    """In the browser's process before it starts (Linux): the kernel kills it when rulec dies, even by
    SIGKILL, so no browser outlives the build that started it. Strictly, when the thread that started
    it ends (PR_SET_PDEATHSIG): a browser is started on a thread that outlives its use (PrintRun)."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


# ---- the browser -------------------------------------------------------------------------------


class Browser:
    """A headless Chromium spoken to over the DevTools pipe."""

    def __init__(self, proc: subprocess.Popen[bytes], write_fd: int, read_fd: int, profile: str, scratch: str):
        self.proc = proc
        self.scratch = scratch
        self.write_fd = write_fd
        self.read_fd = read_fd
        self.profile = profile
        self.buf = b""
        self.next_id = 0
        self.events: list[dict[str, Any]] = []
        self.tabs: list[tuple[str, str]] = []  # run's tabs (target, session), kept open for its next run

    @classmethod
    @contextmanager
    def launch(cls, executable: str | None = None) -> Iterator[Browser]:
        exe = executable or find_chromium()
        if exe is None:
            raise PrintError("chromium not found")
        profile = tempfile.mkdtemp(prefix=f"rulec-chromium-{os.getpid()}-")
        scratch = _scratch(profile)
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()

        def wire_pipes() -> None:  # in the child: its fd 3 reads our messages, fd 4 writes its answers
            a, b = os.dup(to_child_r), os.dup(from_child_w)
            os.dup2(a, 3)
            os.dup2(b, 4)
            _die_with_parent()

        try:
            proc = subprocess.Popen(
                [exe, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "about:blank"],
                env={**os.environ, "TMPDIR": scratch},  # its temporary files where rulec removes them
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                close_fds=False, preexec_fn=wire_pipes,
                start_new_session=True)  # its processes a group of their own, which close() stops at once
        except OSError as e:
            remove_tree(profile)
            remove_tree(scratch)
            raise PrintError(f"cannot start {exe}: {e}") from e
        finally:
            os.close(to_child_r)
            os.close(from_child_w)
        browser = cls(proc, to_child_w, from_child_r, profile, scratch)
        try:
            yield browser
        finally:
            browser.close()

    def close(self) -> None:
        """Stop the browser and every process it started, and remove its profile. Nothing of the
        browser is kept (its profile is thrown away), so it is killed rather than asked to close, which
        took 130 ms of a one-card edit's build against 40-65 ms (/tmp script, four paired rounds)."""
        self.kill()
        self.proc.wait()
        for fd in (self.write_fd, self.read_fd):
            try:
                os.close(fd)
            except OSError:
                pass
        remove_tree(self.profile)
        remove_tree(self.scratch)

    def kill(self) -> None:
        """Kill the browser's processes (its session, start_new_session), at once; close() waits for it."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:  # gone already
            pass

    # -- protocol --

    def _send(self, method: str, params: dict[str, Any], session: str | None) -> int:
        self.next_id += 1
        msg: dict[str, Any] = {"id": self.next_id, "method": method, "params": params}
        if session is not None:
            msg["sessionId"] = session
        try:
            os.write(self.write_fd, json.dumps(msg).encode("utf-8") + b"\0")
        except OSError as e:
            raise PrintError(f"chromium closed its pipe ({e})") from e
        return self.next_id

    def _read(self, deadline: float) -> dict[str, Any]:
        msg = self._poll(deadline)
        if msg is None:
            raise PrintError("chromium did not answer in time")
        return msg

    def _poll(self, deadline: float) -> dict[str, Any] | None:
        """The browser's next message, or None if it sends none before deadline."""
        import select
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.read_fd], [], [], left)[0]:
                return None
            chunk = os.read(self.read_fd, 1 << 20)
            if not chunk:
                raise PrintError("chromium exited")
            self.buf += chunk
        raw, self.buf = self.buf.split(b"\0", 1)
        msg: dict[str, Any] = json.loads(raw)
        return msg

    def call(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> Any:
        sent = self._send(method, params or {}, session)
        deadline = time.monotonic() + TIMEOUT
        while True:
            msg = self._read(deadline)
            if msg.get("id") == sent:
                if "error" in msg:
                    raise PrintError(f"{method}: {msg['error'].get('message')}")
                return msg.get("result", {})
            self.events.append(msg)

    @contextmanager
    def page(self, url: str, width: int = 816, height: int = 1056, scale: float = 1.0) -> Iterator[Page]:
        """A new tab showing url, loaded (fonts included): opened as Browser.run opens its tabs
        (_open_tab, which blocks the web first), one call at a time."""
        opening, tab, value = _open_tab(), None, None
        try:
            while True:
                try:
                    ask = opening.send(value)
                except StopIteration:
                    break
                if isinstance(ask, Opened):
                    tab, value = ask, None
                elif isinstance(ask, Call):
                    value = self.call(ask.method, ask.params, None if ask.browser or tab is None else tab.session)
            assert tab is not None
            page = Page(self, tab.session)
            page.call("Emulation.setDeviceMetricsOverride",
                      {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": False})
            page.call("Page.navigate", {"url": url})
            page.wait_loaded()
            yield page
        except BaseException:  # interrupted, or the browser failed: close what can be, and say what happened first
            if tab is not None:
                with suppress(PrintError, OSError, ValueError):
                    self.call("Target.closeTarget", {"targetId": tab.target})
            raise
        self.call("Target.closeTarget", {"targetId": tab.target})

    def pdf(self, url: str, paper: str) -> bytes:
        """A PDF on Letter or A4 paper, or on a card's own size (papers.SIZES) with its bleed and no margin."""
        made: dict[str, bytes] = self.run([prints_of_page(url, [paper])])[0][0]
        return made[paper]

    def screenshot(self, url: str) -> bytes:
        """A PNG of the card as the screen shows it, at PREVIEW scale."""
        return self.preview(url)[0]

    def preview(self, url: str) -> tuple[bytes, bool]:
        """The PNG of screenshot(), and whether the card runs past its page (OVERFLOWS)."""
        made, overflows = self.run([prints_of_page(url, ["preview"])])[0]
        return made["preview"], overflows

    def run(self, tasks: list[Task], tabs: int | None = None, feed: Feed | None = None) -> list[Any]:
        """Run each task (a generator of Calls and Waits, see prints_of_page) in one of a few tabs,
        side by side: while one tab waits for the browser to lay out or print, another works. With a
        feed, the tasks that come through it are run too, as they come, until it is closed (PrintRun:
        the cards printed as the build makes them). The tasks' results, in order: tasks', then the
        feed's in the order they came. A tab opens as a task of its own (_open_tab), which blocks the
        web before the tab opens anything; the tabs of the last run are used again (a browser kept
        open), and a tab that is open starts on its first task while the others still open."""
        tabs = (tabs or PRINT_TABS) if feed is not None else min(tabs or PRINT_TABS, len(tasks))
        results: dict[int, Any] = {}
        waiting = collections.deque(enumerate(tasks))
        count = len(tasks)
        fed = feed is not None  # tasks may still come through the feed
        slots = [_Slot(target, session) for target, session in self.tabs[:tabs]]
        slots += [_Slot(task=_open_tab()) for _ in range(tabs - len(slots))]
        sent: dict[int, _Slot] = {}

        def take(wait: bool) -> None:
            """The tasks the feed has had since the last look (waiting for one with wait)."""
            nonlocal count, fed
            got = feed.take(wait) if feed is not None and fed else None
            if got is None:
                fed = False
                return
            for task in got:
                waiting.append((count, task))
                count += 1

        def step(slot: _Slot, value: Any) -> None:
            """Give the slot's task the answer it waited for and send what it asks next; a task that
            ends leaves its result and the slot takes the next task."""
            while True:
                if slot.task is None:
                    if not waiting and fed:
                        take(wait=False)
                    if not waiting:
                        return
                    slot.index, slot.task = waiting.popleft()
                    value = None
                try:
                    ask = slot.task.send(value)
                except StopIteration as end:
                    if slot.index is not None:
                        results[slot.index] = end.value
                    elif slot.target is not None and slot.session is not None:  # _open_tab ended: the web
                        self.tabs.append((slot.target, slot.session))  # is blocked, the tab may serve again
                    slot.index, slot.task, value = None, None, None
                    continue
                if isinstance(ask, Opened):  # the slot's tab is open: the task goes on in it
                    slot.target, slot.session = ask.target, ask.session
                    value = None
                    continue
                if isinstance(ask, Wait):
                    slot.wake = time.monotonic() + ask.seconds
                else:
                    slot.call, slot.since = ask, time.monotonic()
                    sent[self._send(ask.method, ask.params, None if ask.browser else slot.session)] = slot
                return

        for slot in slots:
            step(slot, None)
        while sent or fed or any(s.wake is not None for s in slots):
            now = time.monotonic()
            for slot in slots:
                if slot.wake is not None and slot.wake <= now:
                    slot.wake = None
                    step(slot, None)
            if not sent and any(s.wake is not None for s in slots):
                time.sleep(max(0.0, min(s.wake for s in slots if s.wake is not None) - time.monotonic()))
                continue
            if not sent:  # every tab idle, and the feed open: wait for its next task
                if self.proc.poll() is not None:  # killed (KeptBrowser.close) while it waited
                    raise PrintError("chromium exited")
                take(wait=True)
                for slot in slots:
                    step(slot, None)
                continue
            if now - min(s.since for s in sent.values()) > TIMEOUT:
                raise PrintError("chromium did not answer in time")
            wakes = [s.wake for s in slots if s.wake is not None]
            msg = self._poll(min([now + TIMEOUT, *wakes]))
            if msg is None:
                continue
            slot_of = sent.pop(msg.get("id", -1), None)
            if slot_of is None:
                continue  # an event: nothing here waits for one
            if "error" in msg and not (slot_of.call is not None and slot_of.call.may_fail):
                raise PrintError(f"{slot_of.call.method if slot_of.call else '?'}: {msg['error'].get('message')}")
            step(slot_of, msg.get("result", {}) if "error" not in msg else {"error": msg["error"]})
            if fed or waiting:  # a task that came meanwhile goes to a tab that is idle
                for slot in slots:
                    if slot.task is None:
                        step(slot, None)
        return [results[i] for i in range(count)]


class Feed:
    """Tasks handed to a Browser.run that is running already, from another thread (PrintRun), until
    closed."""

    def __init__(self) -> None:
        self._items: queue.SimpleQueue[Task | None] = queue.SimpleQueue()
        self._closed = False

    def put(self, task: Task) -> None:
        self._items.put(task)

    def close(self) -> None:
        self._items.put(None)

    def take(self, wait: bool) -> list[Task] | None:
        """The tasks put since the last take, none or more (with wait: one or more, waiting up to a
        tenth of a second for the first); None once it is closed and everything was taken."""
        if self._closed:
            return None
        got: list[Task] = []
        while True:
            try:
                item = self._items.get(timeout=0.1) if wait and not got else self._items.get_nowait()
            except queue.Empty:
                return got
            if item is None:
                self._closed = True
                return got or None
            got.append(item)


class KeptBrowser:
    """One Chromium kept open from one build to the next (`rulec build --watch`, where starting a browser
    would be most of a one-card edit's time), or for one build, started as it starts (`rulec build`):
    started when a build first prints or by start(), started again when it has died since, closed when
    anything goes wrong while it prints (the next print starts a new one) and by close()."""

    def __init__(self, executable: str) -> None:
        self.executable = executable
        self.browser: Browser | None = None
        self.started = 0  # how many browsers it has started
        self._open = ExitStack()  # the launch of the browser, until close()
        self._using = threading.RLock()  # held while a thread prints with it (open)

    def start(self) -> Browser:
        """The browser, started now if it is not running (it died between two builds, or none was
        started yet). It goes on starting up while the caller does other work: Browser.launch returns
        once the process is made, and the first call to it waits for it."""
        if self.browser is not None and self.browser.proc.poll() is not None:
            self.close()
        if self.browser is None:
            self.browser = self._open.enter_context(Browser.launch(self.executable))
            self.started += 1
        return self.browser

    @contextmanager
    def open(self) -> Iterator[Browser]:
        with self._using:
            browser = self.start()
            try:
                yield browser
            except BaseException:  # a browser that failed or was interrupted mid-print is not used again
                self.close()
                raise

    def kill(self) -> None:
        """Kill the browser's processes now, without waiting for them: `rulec build` does once its
        prints are in, so that they die while it writes its last files, and close() (as the build
        ends) finds them gone and only removes the profile. The next start() starts a new browser."""
        if self.browser is not None:
            self.browser.kill()

    def close(self) -> None:
        """Stop the browser: killed at once, so that a print under way on another thread (PrintRun)
        fails at once, then closed once that thread has let it go (its pipe's descriptors are not
        closed under it)."""
        if self.browser is not None:
            self.browser.kill()
        with self._using:
            self.browser = None
            self._open.close()


@dataclass(frozen=True)
class Call:
    """A task asks the browser for something (a DevTools method) in its tab (or, with browser, of the
    browser itself), and gets its result; with may_fail, an error comes back as {"error": ...}
    instead of ending the build."""

    method: str
    params: dict[str, Any]
    may_fail: bool = False
    browser: bool = False


@dataclass(frozen=True)
class Opened:
    """A task has opened its tab (_open_tab): its later Calls go to that tab."""

    target: str
    session: str


@dataclass(frozen=True)
class Wait:
    """A task asks to be woken a moment later."""

    seconds: float


Task = Generator["Call | Wait | Opened", Any, Any]


@dataclass
class _Slot:
    """A tab and the task it runs (the task's index in the run, None while the tab opens)."""

    target: str | None = None
    session: str | None = None
    task: Task | None = None
    index: int | None = None
    call: Call | None = None
    since: float = 0.0
    wake: float | None = None


# The page is the one asked for, loaded, and its fonts are ready.
LOADED = """(() => {{ const want = {url}; let here = location.href;
  try {{ here = decodeURI(here) === decodeURI(want) ? want : here; }} catch (e) {{}}
  return here === want && document.readyState === 'complete' && document.fonts.ready.then(() => true); }})()"""
READY = "document.readyState === 'complete' && document.fonts.ready.then(() => true)"  # and no URL asked for


def _open_tab() -> Task:
    """Open a tab for Browser.run, each in a window of its own (NEW_TAB), which refuses the web before
    it opens anything: a card loads nothing from a network (its fonts and images are inlined,
    themes.py), and should one ever name a web address, the browser refuses it rather than fetch it."""
    target = (yield Call("Target.createTarget", NEW_TAB, browser=True))["targetId"]
    session = (yield Call("Target.attachToTarget", {"targetId": target, "flatten": True}, browser=True))["sessionId"]
    yield Opened(target, session)
    yield Call("Network.enable", {})
    yield Call("Network.setBlockedURLs", {"urls": BLOCKED})


def _screen(width: int, height: int, scale: float) -> Call:
    """The task's tab as a screen width x height px at scale."""
    return Call("Emulation.setDeviceMetricsOverride",
                {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": False})


def _navigate(url: str) -> Generator[Call | Wait, Any, None]:
    """Open url in the task's tab and wait until it is loaded."""
    yield Call("Page.navigate", {"url": url})
    yield from _until_loaded(LOADED.format(url=json.dumps(url)))


def _until_loaded(expression: str) -> Generator[Call | Wait, Any, None]:
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        r = yield Call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True},
                       may_fail=True)
        if r.get("result", {}).get("value") is True:
            return
        yield Wait(0.01)  # the old page is still there, or the new one still loading
    raise PrintError("the page did not finish loading")


def _show_html(html: str) -> Generator[Call | Wait, Any, None]:
    """Show html in the task's tab as the document of an about:blank page (Page.setDocumentContent).
    A card needs nothing beside its HTML (its fonts and images are inlined), and a file:// address
    is a site of its own to Chromium, which gives each page it navigates to a new renderer: the
    shipped rules' 39 cards printed this way took 5.1-5.2 s against 6.7-7.3 s, every print byte for
    byte the same (/tmp script, three paired rounds). Not for a sheet of small cards, whose frames
    open its cards' files beside it."""
    frame = (yield Call("Page.getFrameTree", {}))["frameTree"]["frame"]
    if frame.get("url") != "about:blank":  # the tab showed a sheet's file: a card gets no file:// origin
        yield from _navigate("about:blank")
        frame = (yield Call("Page.getFrameTree", {}))["frameTree"]["frame"]
    # The document is written by the time the call answers, so what is awaited next is the card's.
    yield Call("Page.setDocumentContent", {"frameId": frame["id"], "html": html})
    yield from _until_loaded(READY)


def _value(r: dict[str, Any]) -> Any:
    """What a Runtime.evaluate answered: the script's value, or PrintError if it threw."""
    if "exceptionDetails" in r:
        raise PrintError(f"script failed: {r['exceptionDetails'].get('text')}")
    return r["result"].get("value")


def prints_of_page(url: str, papers_wanted: list[str], html: str | None = None) -> Task:
    """The prints of one page, loaded once for them all: a PDF for each paper in papers_wanted
    (Letter, A4, "sheet-letter" and "sheet-a4" for an imposed sheet, or a card size of papers.SIZES)
    and, for "preview", the card's PNG; the result is ({paper: bytes}, whether the card overflows).
    The page is url opened, or, given its html, that HTML shown in a blank page (_show_html)."""
    made: dict[str, bytes] = {}
    overflows = False
    # Always the same steps, whatever is asked, so a print is the same bytes however it was asked for:
    # Chromium's print layout follows the screen the page was opened on (its scale, in the last
    # decimals of every position), so the page opens on a Letter-wide screen at scale 1, is printed
    # on each paper, and the preview is captured from that screen at PREVIEW's scale. (A screen of
    # the preview's own, 860 px wide at 1.5x, gave the same PNGs byte for byte, the shipped rules'
    # 39 in 2.35 s against 2.6 s: the page laid out and drawn again for it.)
    yield _screen(int(OPENED["width"]), int(OPENED["height"]), float(OPENED["scale"]))
    yield from (_navigate(url) if html is None else _show_html(html))
    for paper in papers_wanted:
        if paper != "preview":
            r = yield Call("Page.printToPDF", _pdf_params(paper))
            made[paper] = normalise_pdf(base64.b64decode(r["data"]))
    if "preview" in papers_wanted:
        # The card's box and whether it overflows, asked together: the screen does not change after.
        x, y, w, h, overflows = _value((yield Call("Runtime.evaluate", {
            "expression": f"[...{CARD_BOX}, {OVERFLOWS}]", "returnByValue": True})))
        # optimizeForSpeed: a lighter zlib level, the PNG a tenth larger and made in two thirds of the time
        r = yield Call("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True, "optimizeForSpeed": True,
            "clip": {"x": x, "y": y, "width": w, "height": h, "scale": float(PREVIEW["scale"])}})
        made["preview"] = base64.b64decode(r["data"])
    return made, bool(overflows)


CARD_BOX = """(() => { const r = document.querySelector('.card').getBoundingClientRect();
  return [r.x + scrollX, r.y + scrollY, r.width, r.height]; })()"""


def _pdf_params(paper: str) -> dict[str, Any]:
    if paper in PAPERS:
        (width, height), margin = PAPERS[paper], MARGIN_IN
    elif paper.startswith("sheet-"):  # the sheet sets its own page, with no margin
        (width, height), margin = PAPERS[paper.removeprefix("sheet-")], 0
    else:
        size = papers.SIZES[paper]
        width, height = (x / 25.4 for x in size.page_mm)
        margin = 0
    return {"paperWidth": width, "paperHeight": height, "marginTop": margin, "marginBottom": margin,
            "marginLeft": margin, "marginRight": margin, "printBackground": True,
            "preferCSSPageSize": paper not in PAPERS, "displayHeaderFooter": False}


class Page:
    def __init__(self, browser: Browser, session: str):
        self.browser = browser
        self.session = session

    def call(self, method: str, params: dict[str, Any] | None = None) -> Any:
        return self.browser.call(method, params, self.session)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (awaited if it is a promise)."""
        return _value(self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                     "awaitPromise": True}))

    def wait_loaded(self) -> None:
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            if self.evaluate(READY):
                return
            time.sleep(0.05)
        raise PrintError("the page did not finish loading")


# ---- pdfinfo ---------------------------------------------------------------------------------


def pdf_info(path: Path) -> dict[str, str]:
    """pdfinfo's fields (Pages, Page size, ...) for a PDF; raises PrintError when pdfinfo is missing."""
    exe = shutil.which("pdfinfo")
    if exe is None:
        raise PrintError("pdfinfo not found (Debian package poppler-utils)")
    out = subprocess.run([exe, str(path)], capture_output=True, text=True, check=True, timeout=TIMEOUT).stdout
    info = {}
    for line in out.splitlines():
        key, _, value = line.partition(":")
        info[key.strip()] = value.strip()
    return info
