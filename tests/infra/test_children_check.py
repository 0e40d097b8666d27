"""The system check that ``games.infra.children`` can read a game's seats in one statement."""

from __future__ import annotations

from django.core import checks
from django.db import models
from django.test.utils import isolate_apps

from games.infra import children
from games.play.models import check_for_play


def test_the_site_passes_its_own_check() -> None:
    assert check_for_play() == []
    assert not [e for e in checks.run_checks(tags=[checks.Tags.models]) if e.id.startswith("infra.")]


def _models():
    class Table(models.Model):
        class Meta:
            app_label = "play"

    class Chair(models.Model):
        table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chairs")
        index = models.PositiveSmallIntegerField()
        joined = models.DateTimeField()  # a kind JSON would hand back as text

        class Meta:
            app_label = "play"

    return Table


@isolate_apps("games.play")
def test_a_child_field_json_does_not_carry_fails_the_check_at_start_up() -> None:
    errors = children.check(_models(), "chairs", related="table", related_field="id")
    assert [e.id for e in errors] == ["infra.E001"]
    assert "Chair.joined is a DateTimeField" in errors[0].msg


@isolate_apps("games.play")
def test_a_missing_related_field_fails_the_check() -> None:
    errors = children.check(_models(), "chairs", related="table", related_field="name")
    assert [e.id for e in errors] == ["infra.E001", "infra.E002"]
