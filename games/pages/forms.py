"""The rules page's hand counter: four cards and a starter, typed as players write them."""

from __future__ import annotations

from django import forms

from games.engine.cards import Card, parse_card

# Players paste cards from the site's own pages, which print suits as symbols.
SUIT_SYMBOLS = str.maketrans({"♠": "S", "♥": "H", "♦": "D", "♣": "C", "\ufe0e": None, "\ufe0f": None})
EXAMPLE = "5H 5C 5S JD"


def _cards(text: str) -> list[Card]:
    tokens = text.translate(SUIT_SYMBOLS).replace(",", " ").split()
    cards = []
    for token in tokens:
        try:
            cards.append(parse_card(token))
        except ValueError:
            raise forms.ValidationError(
                f"{token!r} is not a card: write its rank (A, 2–10, J, Q, K) then its suit "
                "(S, H, D, C or ♠ ♥ ♦ ♣), like 5H or 10♣."
            ) from None
    return cards


class HandCountForm(forms.Form):
    hand = forms.CharField(
        label="Hand (four cards)", max_length=60, help_text=f"For example {EXAMPLE}, or 5♥ 5♣ 5♠ J♦.",
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false", "placeholder": EXAMPLE}),
    )
    starter = forms.CharField(
        label="Starter", max_length=12,
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false", "placeholder": "5D"}),
    )
    crib = forms.BooleanField(
        required=False, label="Count it as a crib", help_text="A crib's flush needs the starter's suit too.",
    )

    def clean_hand(self) -> tuple[Card, ...]:
        cards = _cards(self.cleaned_data["hand"])
        if len(cards) != 4:
            raise forms.ValidationError(f"A hand is four cards; this has {len(cards)}.")
        seen = set()
        for card in cards:
            if card in seen:
                raise forms.ValidationError(f"{card.name} is there twice: a deck has one of each card.")
            seen.add(card)
        return tuple(cards)

    def clean_starter(self) -> Card:
        cards = _cards(self.cleaned_data["starter"])
        if len(cards) != 1:
            raise forms.ValidationError("The starter is one card.")
        return cards[0]

    def clean(self) -> dict:
        data = super().clean()
        if data.get("starter") in data.get("hand", ()):
            self.add_error("starter", f"{data['starter'].name} is already in the hand.")
        return data
