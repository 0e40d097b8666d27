"""What the coach says on a lesson's board: computed on the server for the learner's own seat view
(never another seat's cards) from the game's phase and the engine's events of this deal.

The play app asks for it with every board it draws (``games.play.registry.coach_for``), so a move,
a push and a reload all say the same thing for the same state.
"""

from __future__ import annotations

from games.engine.scoring import score_pegging
from games.engine.view import SeatView
from games.play.board.player import expert_discards
from games.practice.lesson import words
from games.practice.lesson.deals import PREPARED_DEALS

COMPUTER = "The computer"

CUT = ("The cut for deal: choose any card from the spread, and the computer chooses one too. The lower "
       "card deals (the ace is lowest; equal cards cut again).")
WHY_CRIB = ("Why it matters: each player lays two cards away into the crib, and the crib is the dealer's. "
            "It is counted for the dealer at the show as a third hand, so the dealer scores more; "
            "the other player, the pone, leads the play and counts first at the show.")
CRIB_MINE = ("You deal, so the crib is yours: the two cards you lay away score for you. Give it cards "
             "that go together (a five, a pair, cards that make fifteen).")
CRIB_THEIRS = ("The computer deals, so the crib is its own: the two cards you lay away score for it. "
               "Give it cards that go badly together (far apart, no fives, no pairs).")
PLAY_TIP = ("Lay a card that keeps the count at 31 or under. Making 15 or 31 scores two, matching the "
            "last card's rank scores a pair, three cards in sequence score a run.")
SHOW = ("The show: each hand is counted with the starter as a fifth card: the pone's hand first, then "
        "the dealer's hand, then the dealer's crib. Count it together with the table:")


def coach(game, v: SeatView, user) -> dict | None:
    """The coach panel's context for ``user``'s board of the lesson ``game`` (``v``: their seat's view)."""
    from django.urls import reverse

    from games.practice.models import LessonRecord

    hidden = LessonRecord.objects.filter(user=user, coach_hidden=True).exists()
    panel = {"hidden": hidden, "toggle_url": reverse("practice:lesson_coach", args=[game.pk]),
             "heading": "", "lines": [], "shows": [], "after": [], "offer_url": "", "offer_note": ""}
    if not hidden:
        panel.update(explain(v))
        if panel.pop("offer", False):
            panel["offer_url"] = reverse("practice:lesson_normal_game")
    return panel


def explain(v: SeatView) -> dict:
    """The heading and lines for the learner's view ``v``: a dict the panel is drawn from."""
    me = v.seat
    if v.phase == "cut":
        again = ["Equal cards: cut again."] if v.cut_attempt else []
        return {"heading": "The cut for deal", "lines": [*again, CUT, WHY_CRIB]}
    if v.phase in ("discard", "starter"):
        return {"heading": "Laying away", "lines": _discard_lines(v, me)}
    if v.phase == "play":
        return {"heading": "The play", "lines": _play_lines(v, me)}
    if v.phase == "show":
        return _show(v, me)
    return _game_over(v, me)


def _discard_lines(v: SeatView, me: int) -> list[str]:
    lines = []
    if v.game_no == 0 and v.deal_no == 0 and all(c is not None for c in v.cut_cards):
        mine, theirs = v.cut_cards[me], v.cut_cards[1 - me]
        who = "you deal" if v.dealer == me else "the computer deals"
        lines.append(f"You cut {words.cards([mine])}, the computer cut {words.cards([theirs])}: "
                     f"the lower card deals, so {who}.")
    lines.append(CRIB_MINE if v.dealer == me else CRIB_THEIRS)
    if v.phase == "discard" and not v.discarded[me]:
        lines.append(advice(v))
    elif v.phase == "starter":
        lines.append("The pone cuts the pack, and the dealer turns the top card of the lower half: "
                     "the starter.")
    else:
        lines.append("Now the computer lays away its two.")
    return lines


def advice(v: SeatView) -> str:
    """The computer's advice in words and points: the first row of the hint table (the expert's
    valuation of each way to lay away)."""
    best = expert_discards(v)[0]["option"]
    hand, crib = f"{best.expected_hand:.1f}", f"{abs(best.expected_crib):.1f}"
    worth = (f"about {hand} points in your hand and {crib} in your crib" if v.dealer == v.seat else
             f"about {hand} points in your hand, less {crib} given to the computer's crib")
    return (f"The computer's advice: lay away {words.cards(best.laid_away)} and keep "
            f"{words.cards(best.kept)}: {worth}, {best.net:.1f} in all (on average, before the starter). "
            "The hint lists every way.")


def best_play(v: SeatView) -> str:
    """The learner's card that scores most now, as the engine would score it on the series, in
    words ("" when none scores)."""
    series = [card for _, card in v.series]
    scored = [(sum(p.points for p in parts), card, parts) for card in v.playable
              if (parts := score_pegging([*series, card]).parts)]
    if not scored:
        return ""
    points, card, parts = max(scored, key=lambda s: s[0])
    return (f"Your {words.cards([card])} would score {points}: "
            f"{words.joined([words.score_words(p) for p in parts])}.")


def _play_lines(v: SeatView, me: int) -> list[str]:
    steps = words.play_steps(v.log)
    lines = []
    if v.starter is not None and not steps:
        lines.append(f"The starter is {words.cards([v.starter])}. It is not played: it counts as a fifth "
                     "card in every hand at the show. The pone leads.")
        heels = [e for e in v.log if e.kind == "his_heels"]
        if heels:
            who = "you" if heels[0].seat == me else "the computer"
            lines.append(f"A jack turned: {words.score_words(heels[0])}, pegged by the dealer ({who}).")
    # From the learner's latest card on: what it made stays up while the computer answers (its
    # card, or its go and the card it leads after).
    mine = [i for i, s in enumerate(steps) if s.seat == me]
    lines += [words.step_sentence(s, me, COMPUTER) for s in steps[mine[-1] if mine else -1:]]
    if v.my_turn and v.can_go:
        lines.append("You have no card that keeps the count at 31 or under: say Go. "
                     "The computer plays on and pegs one for the go, two if it makes 31.")
    elif v.my_turn:
        # The rule of the count is said on the learner's first cards; after that, the count alone.
        first_cards = v.game_no == 0 and v.deal_no == 0 and len(mine) < 2
        lines.append(f"Your turn: the count is {v.count}." + (f" {PLAY_TIP}" if first_cards else ""))
        if tip := best_play(v):
            lines.append(tip)
    return lines


def _show(v: SeatView, me: int) -> dict:
    shows = []
    for entry in v.show:
        if entry.status != "done":
            continue
        whose = "Your" if entry.seat == me else "The computer's"
        shows.append({
            "lead": f"{whose} {entry.kind} ({words.cards(entry.cards)}) with the starter "
                    f"{words.cards([entry.starter])}:",
            "calls": words.show_calls(entry.groups),
            "total": entry.total,
            "sum": (f"That is {entry.total}." if entry.total else
                    "Nothing to count: players call it “nineteen”, a score no hand can make."),
        })
    # The play's last card leads straight to the show: what it scored is said here.
    steps = words.play_steps(v.log)
    last = [words.step_sentence(steps[-1], me, COMPUTER)] if steps and steps[-1].scores else []
    # The lesson ends with the show of its last prepared deal; the game goes on if the learner likes.
    offer = v.game_no == 0 and v.deal_no + 1 == PREPARED_DEALS
    after = [_skunk_lines(v, me), LESSON_DONE] if offer else [
        "Press Next hand when you are ready: the deal passes to the other player."]
    return {"heading": "The show", "lines": [*last, SHOW], "shows": shows, "after": after, "offer": offer}


LESSON_DONE = ("That is the whole of cribbage, twice round: the cut, laying away, the play and the show. "
               "The lesson is done. Play this game on to 121 (the table keeps explaining), or start a "
               "normal game against the computer.")


def _skunk_lines(v: SeatView, me: int) -> str:
    line, double = v.skunk_line, v.double_skunk_line
    mine, theirs = v.scores[v.side], v.scores[1 - v.side]
    if not v.rules.skunks:
        return f"The game is to {v.target}; skunks do not count in this game."
    doubled = (f"; with {double - 1} or fewer (short of {double}), double-skunked: four games"
               if double else "")
    return (f"The skunk lines on the board: the game is to {v.target}, and a player who loses with "
            f"{line - 1} or fewer points (short of {line}) is skunked: the win counts two games in a "
            f"match{doubled}. You have {mine}; the computer has {theirs}.")


def _game_over(v: SeatView, me: int) -> dict:
    won = v.result is not None and v.result.winner == v.side
    lines = ["You won the game. Well played!" if won else "The computer won this time.",
             _skunk_lines(v, me),
             "Ready for a normal game against the computer? It plays as it likes and explains nothing."]
    return {"heading": "The game is over", "lines": lines, "offer": True}
