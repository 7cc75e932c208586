"""The sizes a player aid card can be printed at: pages, and the card sizes of card-game printers.

Plain data, shared by the checker (a card's `size` must be one of these), the card pages and the
printer. Sizes are in millimetres, portrait; `bleed` is the art that runs past the trim line on
each side, which a printer cuts off (0 for a page printed at home).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Size:
    name: str
    title: str
    width_mm: float
    height_mm: float
    bleed_mm: float  # past the trim line on each side (cards for a printer); 0 for pages
    margin_mm: float  # inside the trim line, kept free of text

    @property
    def area(self) -> float:
        """The area text can fill, in square millimetres."""
        return (self.width_mm - 2 * self.margin_mm) * (self.height_mm - 2 * self.margin_mm)

    @property
    def is_page(self) -> bool:
        """A page printed at home (Letter, A4): no bleed, the cards' own layout of two columns."""
        return self.bleed_mm == 0

    @property
    def page_mm(self) -> tuple[float, float]:
        """The sheet a card of this size is printed on: its trim and the bleed on every side."""
        return self.width_mm + 2 * self.bleed_mm, self.height_mm + 2 * self.bleed_mm

    @property
    def type_pt(self) -> float:
        """The body type of a card laid out on this size of its own (`card ... size poker`); a card packed
        onto a page keeps the page's PAGE_TYPE_PT."""
        return 6.6 if self.width_mm < 100 else 7.6


SIZES: dict[str, Size] = {s.name: s for s in (
    Size("letter", "US Letter page", 215.9, 279.4, 0, 10),
    Size("a4", "A4 page", 210, 297, 0, 10),
    Size("a5", "A5", 148, 210, 3, 6),
    Size("half_letter", "half Letter", 139.7, 215.9, 3, 6),
    Size("tarot", "tarot card (70 x 120 mm)", 70, 120, 3, 4),
    Size("poker", "poker card (63 x 88 mm)", 63, 88, 3, 4),
)}
PAGE_TYPE_PT = 8.4  # the body type of a page card (cards.css.j2)
PAGE = SIZES["letter"]  # what a card without a size is laid out for (and printed on Letter and A4)
COLUMNS = (1, 2, 3)


def size_names() -> str:
    return ", ".join(SIZES)
