"""``{% load cribbage %}``: card faces, card backs and the cribbage board.

Cards are drawn with HTML and CSS (styles in ``static/css/site.css``), no images, and are
``aria-hidden``: the element around a card (a button, a list item) carries its accessible name,
e.g. ``aria-label="{{ card|card_name }}"``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from games.engine.cards import Card, parse_card
from games.engine.count_check import check_count
from games.engine.deck import commitment, deal_seed
from games.play import components
from games.play.chat import MESSAGES
from games.play.pegboard import render_pegboard

register = template.Library()

SIZES = ("small", "medium", "large")
# U+FE0E asks for the text (not emoji) glyph, so suits keep our colours on phones.
TEXT_STYLE = "\ufe0e"
COURT = {11: "J", 12: "Q", 13: "K"}


def _card(card: Card | str) -> Card:
    return card if isinstance(card, Card) else parse_card(str(card))


def _size_class(size: str) -> str:
    return f" card--{size}" if size in SIZES and size != "medium" else ""


def _rank_label(card: Card) -> str:
    return "10" if card.rank == 10 else card.rank_char


def card_name(card: Card | str) -> str:
    """``Five of hearts`` for a Card or notation like ``"5H"``; empty for nothing."""
    if card in (None, ""):
        return ""
    return _card(card).name


def card_short(card: Card | str) -> str:
    """``10♥``: a card as players write it, for running text ("T" is the notation's, not theirs)."""
    c = _card(card)
    return f"{_rank_label(c)}{c.symbol}{TEXT_STYLE}"


def cards_text(cards) -> SafeString:
    """Cards in running text, ``10♥ 5♣``, red suits red (each names its card for screen readers).
    ``cards``: Cards, notations, or one string of notations ("TH 5C")."""
    if isinstance(cards, str):
        cards = cards.split()
    return mark_safe(" ".join(_card_text(c) for c in map(_card, cards or ())))


@lru_cache(maxsize=64)  # a show's every item names its cards: each of the 52 is drawn once
def _card_text(c: Card) -> SafeString:
    return format_html('<span class="card-text card-text--{}" title="{}">{}</span>',
                       "red" if c.suit in "HD" else "black", c.name, card_short(c))


def card_face(card: Card | str, size: str = "medium", extra_class: str = "") -> SafeString:
    """A face-up card: rank and suit in two corners, a large centre mark, red or black by suit."""
    return _card_face(_card(card), size, extra_class)


# A board draws dozens of cards on every move: each distinct card, size and class is drawn once
# (``play/parts/card.jinja``, the one drawing of a card).
@lru_cache(maxsize=1024)
def _card_face(c: Card, size: str, extra_class: str) -> SafeString:
    return components.render("play/parts/card.jinja", {
        "c": c, "colour": "red" if c.suit in "HD" else "black", "suit": c.symbol + TEXT_STYLE,
        "rank": _rank_label(c), "court": COURT.get(c.rank, ""), "size_class": _size_class(size),
        "extra_class": extra_class,
    })


@lru_cache(maxsize=64)
def card_back(size: str = "medium", extra_class: str = "") -> SafeString:
    """A face-down card (the crib, the deck, an opponent's hand)."""
    return components.render("play/parts/card_back.jinja", {
        "size_class": _size_class(size), "extra_class": extra_class})


@lru_cache(maxsize=1)
def quick_message_buttons() -> SafeString:
    """The quick messages' buttons: the same on every board, and a loop of them cost more than
    the rest of the board's side column."""
    return format_html_join(
        "",
        '<button type="submit" name="message" value="{}" class="button button--small">{}</button>',
        MESSAGES.items(),
    )


@register.simple_tag
def component(template_name: str, **values) -> SafeString:
    """``{% component "play/parts/counted_hand.jinja" title=… %}``: one of the board's components
    (``games/play/components.py``) in a Django page, drawn with ``values`` alone."""
    return components.render(template_name, values)


def card_back_items(count: int, size: str = "medium") -> SafeString:
    """``count`` face-down cards as list items: an opponent's hand, the crib."""
    return _card_back_items(int(count), size)


@lru_cache(maxsize=64)
def _card_back_items(count: int, size: str) -> SafeString:
    return mark_safe(f"<li>{card_back(size)}</li>" * count)


def cribbage_board(
    tracks: Iterable[Mapping], target: int = 121, id_prefix: str = "pegboard"
) -> SafeString:
    """The board: ``tracks`` is a list of ``{"label", "front", "back", "color"}`` dicts."""
    return render_pegboard(tracks, target=target, id_prefix=id_prefix)


def deal_commitment(game, v) -> SafeString:
    """The current deal's number and the SHA-256 commitment to its shuffle (``v``: the SeatView).
    The same hash the deal's Round row keeps, computed here (the board is drawn on every move)."""
    if v is None or v.phase == "cut" or not game.secret:
        return mark_safe("")
    return _commitment_html(game.secret, v.game_no, v.deal_no, v.rules.match_games > 1)


@lru_cache(maxsize=512)
def _commitment_html(secret: str, game_no: int, deal_no: int, match: bool) -> SafeString:
    """Built once a deal: the hash and its markup do not change until the next one."""
    seal = commitment(deal_seed(bytes.fromhex(secret), game_no, deal_no))
    return components.render("play/_commitment.jinja", {
        "round": {"game_no": game_no, "deal_no": deal_no, "commitment": seal}, "match": match,
    })


@register.simple_tag
def how_ended(game, organised=None) -> str:
    """How a game that did not end at the target ended, for a list: "resignation", "on time",
    "claim: opponent absent", "entered by the director", or the organiser's word ("forfeit";
    ``organised``: see ``games.play.registry``)."""
    from games.play.endings import ending_of, list_word
    from games.play.game_result import is_entered
    from games.play.narration import ENTERED_MARK

    if is_entered(game):
        return ENTERED_MARK
    if organised is not None and organised.list_word:
        return organised.list_word
    return list_word(ending_of(game)) or "resignation"


def countdown(seconds: int) -> str:
    """``2:05`` for 125 seconds: a claim's countdown as the page shows it, and goes on ticking."""
    seconds = max(0, int(seconds or 0))
    return f"{seconds // 60}:{seconds % 60:02d}"


@register.filter
def ago(moment) -> str:
    """"just now" within the minute, then "3 minutes ago": ``timesince`` alone says "0 minutes"."""
    from django.utils import timezone
    from django.utils.timesince import timesince

    if not moment:
        return ""
    return "just now" if (timezone.now() - moment).total_seconds() < 60 else f"{timesince(moment)} ago"


# The helpers both template engines draw with, listed once: ``{% load cribbage %}`` registers them
# here, and the components' Jinja2 environment (games/play/jinja.py) takes them from these lists,
# so a helper added for one engine is there for the other.
SHARED_FILTERS = (card_name, cards_text, countdown)
SHARED_GLOBALS = (
    card_face, card_back, card_back_items, check_count, cribbage_board, deal_commitment,
    quick_message_buttons,
)

for _filter in SHARED_FILTERS:
    register.filter(_filter.__name__, _filter)
for _tag in SHARED_GLOBALS:
    register.simple_tag(_tag, name=_tag.__name__)
