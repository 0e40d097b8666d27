"""The director's desk: one admin page per tournament from which it is run. Each step says what it
will do before it is done; every form posts to a service and comes back to the desk, with the
service's refusal and a 4xx when it refuses (nothing changed), or a message and a redirect."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse

from games.tournaments import desk_steps, notice_words, selectors, services
from games.tournaments.admin import desk_actions
from games.tournaments.admin.desk_forms import (
    AddPlayersForm,
    AnnounceForm,
    CutForm,
    ImportForm,
    RoundSheetForm,
    StepForm,
    WithdrawForm,
)
from games.tournaments.models import Match, Notice, Tournament


def urls(model_admin) -> list:
    view = _guarded(model_admin)
    return [
        path("<id:tournament_id>/desk/", view(desk_page), name="tournaments_tournament_desk"),
        path("<id:tournament_id>/desk/step/", view(post_step), name="tournaments_tournament_desk_step"),
        path(
            "<id:tournament_id>/desk/announce/",
            view(post_announce),
            name="tournaments_tournament_desk_announce",
        ),
        path("<id:tournament_id>/desk/players/add/", view(post_add), name="tournaments_tournament_desk_add"),
        path(
            "<id:tournament_id>/desk/players/import/",
            view(post_import),
            name="tournaments_tournament_desk_import",
        ),
        path(
            "<id:tournament_id>/desk/players/withdraw/",
            view(post_withdraw),
            name="tournaments_tournament_desk_withdraw",
        ),
        path(
            "<id:tournament_id>/desk/results/",
            view(post_results),
            name="tournaments_tournament_desk_results",
        ),
        path("<id:tournament_id>/desk/cut/", view(post_cut), name="tournaments_tournament_desk_cut"),
    ]


def _guarded(model_admin):
    """The admin's own guard (staff only, CSRF, no caching), then the right to change tournaments.
    A post from someone who may not use the admin is refused outright (403), not redirected."""

    def wrap(func):
        def inner(request: HttpRequest, tournament_id: int) -> HttpResponse:
            if request.method == "POST" and not model_admin.admin_site.has_permission(request):
                raise PermissionDenied("Only the tournament's directors can do this.")

            def checked(request: HttpRequest, tournament_id: int) -> HttpResponse:
                t = get_object_or_404(Tournament.objects.select_related("champion"), pk=tournament_id)
                if not model_admin.has_change_permission(request, t):
                    raise PermissionDenied("You may not run tournaments.")
                page = func is desk_page
                if page and request.method not in ("GET", "HEAD"):
                    return HttpResponse("Use the desk's forms.", status=405)
                if not page and request.method != "POST":
                    return HttpResponseRedirect(reverse("admin:tournaments_tournament_desk", args=[t.pk]))
                return func(model_admin, request, t)

            return model_admin.admin_site.admin_view(checked)(request, tournament_id)

        return inner

    return wrap


def _done(model_admin, request: HttpRequest, t: Tournament, message: str, anchor: str = "") -> HttpResponse:
    model_admin.log_change(request, t, message)
    messages.success(request, message)
    return HttpResponseRedirect(reverse("admin:tournaments_tournament_desk", args=[t.pk]) + anchor)


def _refused(model_admin, request, t, exc: services.TournamentError, **forms) -> HttpResponse:
    return render_desk(model_admin, request, t, status=exc.status, error=exc.message, **forms)


def _invalid(model_admin, request, t, **forms) -> HttpResponse:
    return render_desk(
        model_admin,
        request,
        t,
        status=400,
        error="Nothing was changed: see the message by the form below.",
        **forms,
    )


def post_step(model_admin, request: HttpRequest, t: Tournament) -> HttpResponse:
    form = StepForm(request.POST)
    if not form.is_valid():
        return _invalid(model_admin, request, t, step_form=form)
    try:
        said = desk_actions.take_step(t, form.cleaned_data["step"], by=request.user,
                                      reason=form.cleaned_data["reason"])
    except services.TournamentError as exc:
        return _refused(model_admin, request, t, exc, step_form=form)
    return _done(model_admin, request, t, said)


def post_announce(model_admin, request: HttpRequest, t: Tournament) -> HttpResponse:
    form = AnnounceForm(request.POST)
    if not form.is_valid():
        return _invalid(model_admin, request, t, announce_form=form)
    try:
        services.tournament_announce(tournament_id=t.pk, text=form.cleaned_data["text"], by=request.user)
    except services.TournamentError as exc:
        return _refused(model_admin, request, t, exc, announce_form=form)
    return _done(model_admin, request, t, f"Announced: {form.cleaned_data['text']}", "#announce")


def post_add(model_admin, request: HttpRequest, t: Tournament) -> HttpResponse:
    form = AddPlayersForm(request.POST)
    if not form.is_valid():
        return _invalid(model_admin, request, t, add_form=form)
    try:
        new, already = services.entrants_add_many(tournament_id=t.pk, usernames=form.names(), by=request.user)
    except services.TournamentError as exc:
        form.add_error("usernames", exc.message)
        return _refused(model_admin, request, t, exc, add_form=form)
    text = f"Entered {len(new)}: {', '.join(e.name for e in new)}."
    if already:
        text += f" Already entered: {', '.join(already)}."
    return _done(model_admin, request, t, text, "#players")


def post_import(model_admin, request: HttpRequest, t: Tournament) -> HttpResponse:
    form = ImportForm(request.POST, tournament=t)
    if not form.is_valid():
        return _invalid(model_admin, request, t, import_form=form)
    source = form.cleaned_data["source"]
    try:
        new, already = services.entrants_import(tournament_id=t.pk, source_id=source.pk, by=request.user)
    except services.TournamentError as exc:
        return _refused(model_admin, request, t, exc, import_form=form)
    text = f"Imported {len(new)} player{'s' if len(new) != 1 else ''} from {source.name}"
    return _done(
        model_admin, request, t, text + (f" ({already} entered already)." if already else "."), "#players"
    )


def post_withdraw(model_admin, request: HttpRequest, t: Tournament) -> HttpResponse:
    form = WithdrawForm(request.POST, tournament=t)
    if not form.is_valid():
        return _invalid(model_admin, request, t, withdraw_form=form)
    entrant, reason = form.cleaned_data["entrant"], form.cleaned_data["reason"]
    entrant.tournament = t
    try:
        text = desk_actions.withdraw(entrant, by=request.user, reason=reason)
    except services.TournamentError as exc:
        return _refused(model_admin, request, t, exc, withdraw_form=form)
    return _done(model_admin, request, t, text, "#players")


def post_results(model_admin, request: HttpRequest, t: Tournament) -> HttpResponse:
    stage, round_no = _sheet_round(t, request.POST)
    if round_no is None:
        return render_desk(model_admin, request, t, status=400, error="No such round to enter results for.")
    form = RoundSheetForm(request.POST, matches=_sheet_matches(t, stage, round_no))
    if not form.is_valid():
        return _invalid(model_admin, request, t, sheet_form=form, sheet_round=(stage, round_no))
    try:
        saved = services.round_set_results(
            tournament_id=t.pk, entries=form.entries(), reason=form.cleaned_data["reason"], by=request.user
        )
    except services.ResultErrors as exc:
        for match_id, message in exc.errors.items():
            form.add_error(f"m{match_id}-winner", message)
        return _refused(model_admin, request, t, exc, sheet_form=form, sheet_round=(stage, round_no))
    except services.TournamentError as exc:
        return _refused(model_admin, request, t, exc, sheet_form=form, sheet_round=(stage, round_no))
    return _done(
        model_admin,
        request,
        t,
        f"Saved {saved} result{'s' if saved != 1 else ''} of {_round_name(t, stage, round_no).lower()}.",
        "#results",
    )


def post_cut(model_admin, request: HttpRequest, t: Tournament) -> HttpResponse:
    form = CutForm(request.POST, entrants=_cut_entrants(t))
    if not form.entrants or not form.is_valid():
        return _invalid(model_admin, request, t, cut_form=form)
    try:
        services.entrants_record_cut(tournament_id=t.pk, cards=form.cards(), by=request.user)
    except services.TournamentError as exc:
        return _refused(model_admin, request, t, exc, cut_form=form)
    return _done(model_admin, request, t, "Cut of the cards recorded.", "#standings")


def desk_page(model_admin, request: HttpRequest, t: Tournament) -> HttpResponse:
    stage, round_no = _sheet_round(t, request.GET)
    return render_desk(model_admin, request, t, sheet_round=(stage, round_no))


# --- the page --------------------------------------------------------------------------------------


def _rounds(t: Tournament) -> list[tuple[str, int]]:
    """Every round with matches, in play order: (stage, round)."""
    found = Match.objects.filter(tournament=t).values_list("stage", "round_no").distinct()
    order = {Tournament.Stage.ROUND_ROBIN: 0, Tournament.Stage.QUALIFYING: 0, Tournament.Stage.KNOCKOUT: 1}
    return sorted(set(found), key=lambda sr: (order.get(sr[0], 2), sr[1]))


def _sheet_round(t: Tournament, data) -> tuple[str, int | None]:
    """The round whose score sheet is shown or posted: the one asked for, else the current one."""
    rounds = _rounds(t)
    stage, raw = data.get("stage", ""), data.get("round", "")
    if raw:
        return (stage, int(raw)) if raw.isdigit() and (stage, int(raw)) in rounds else (stage, None)
    if (t.stage, t.current_round) in rounds:
        return t.stage, t.current_round
    return rounds[-1] if rounds else ("", None)


def _sheet_matches(t: Tournament, stage: str, round_no: int) -> list[Match]:
    return list(
        Match.objects.filter(
            tournament=t, stage=stage, round_no=round_no, entrant1__isnull=False, entrant2__isnull=False
        )
        .exclude(status__in=[Match.Status.BYE, Match.Status.VOID])
        .select_related("entrant1__user", "entrant2__user", "winner__user")
        .prefetch_related("changes__by")
        .order_by("slot")
    )


def _round_name(t: Tournament, stage: str, round_no: int) -> str:
    return t.round_name(stage, round_no)


def _cut_entrants(t: Tournament) -> list:
    """The players whose cut of the cards the desk asks for: those level on everything across the
    playoff line (or for first place) once the rounds are over, and any with a card recorded."""
    if t.status not in (Tournament.Status.RUNNING, Tournament.Status.FINISHED) or t.format == "ko":
        return []
    table = selectors.standings(t)
    over = (
        t.stage == t.rounds_stage
        and not selectors.rounds_left(t)
        and not selectors.undecided(t).filter(stage=t.rounds_stage).exists()
    )
    tied = selectors.cut_tie(t, table) if over else []
    recorded = [row.player for row in table if row.player.cut_card and row.player not in tied]
    return [*tied, *recorded]


def render_desk(
    model_admin,
    request: HttpRequest,
    t: Tournament,
    *,
    status: int = 200,
    error: str = "",
    sheet_round: tuple[str, int | None] | None = None,
    **forms,
) -> TemplateResponse:
    stage, round_no = sheet_round or _sheet_round(t, {})
    matches = _sheet_matches(t, stage, round_no) if round_no else []
    sheet = forms.pop("sheet_form", None) or (RoundSheetForm(matches=matches) if matches else None)
    shows_table = t.format != Tournament.Format.KNOCKOUT and t.status != Tournament.Status.UPCOMING
    table = selectors.standings(t) if shows_table else []
    found = selectors.qualification(t, table) if table else None
    cut_entrants = _cut_entrants(t)
    ko_rounds = max((r for s, r in _rounds(t) if s == Tournament.Stage.KNOCKOUT), default=0)
    context = {
        **model_admin.admin_site.each_context(request),
        "title": f"Desk: {t.name}",
        "is_nav_sidebar_enabled": False,  # the desk needs the width
        "t": t,
        "opts": Tournament._meta,
        "original": t,
        "error": error,
        "stage_text": t.stage_text(ko_rounds) if t.status == Tournament.Status.RUNNING else "",
        "steps": desk_steps.steps(t),
        "step_form": forms.get("step_form"),
        "announce_form": forms.get("announce_form") or AnnounceForm(),
        "announcements": notice_words.in_words(t.notices.filter(kind=Notice.Kind.ANNOUNCEMENT)[:10]),
        "log": notice_words.in_words(t.notices.exclude(kind=Notice.Kind.ANNOUNCEMENT)[:12]),
        "entrants": list(
            t.entrants.select_related("user").order_by("withdrawn", "seed", "registered_at", "pk")
        ),
        "add_form": forms.get("add_form") or AddPlayersForm(),
        "import_form": forms.get("import_form") or ImportForm(tournament=t),
        "withdraw_form": forms.get("withdraw_form") or WithdrawForm(tournament=t),
        "rounds": [(s, r, _round_name(t, s, r)) for s, r in _rounds(t)],
        "sheet_stage": stage,
        "sheet_round": round_no,
        "sheet_name": _round_name(t, stage, round_no) if round_no else "",
        "sheet": sheet,
        "sheet_games": any(m.match_games > 1 for m in matches),
        "standings": table,
        "qualified": found.qualified if found else frozenset(),
        "eliminated": found.eliminated if found else frozenset(),
        "cut_form": forms.get("cut_form") or (CutForm(entrants=cut_entrants) if cut_entrants else None),
        "can_add": t.status == Tournament.Status.UPCOMING,
    }
    return TemplateResponse(request, "tournaments/admin/desk.html", context, status=status)
