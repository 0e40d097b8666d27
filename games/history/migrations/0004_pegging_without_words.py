"""A deal's summary keeps what scored in the play (kind and points), not the words for it: those
are the reader's (``games.play.narration``), as for every event."""

from django.db import migrations


def _without_words(line: dict) -> dict:
    line = {k: v for k, v in line.items() if k != "text"}
    if "scores" in line:
        line["scores"] = [{k: v for k, v in s.items() if k != "text"} for s in line["scores"]]
    return line


def pegging_without_words(apps, schema_editor):
    round_model = apps.get_model("play", "Round")
    db = schema_editor.connection.alias
    for row in round_model.objects.using(db).exclude(summary={}).iterator():
        pegging = (row.summary or {}).get("pegging")
        if pegging:
            summary = {**row.summary, "pegging": [_without_words(line) for line in pegging]}
            round_model.objects.using(db).filter(pk=row.pk).update(summary=summary)


class Migration(migrations.Migration):

    dependencies = [
        ("history", "0003_resigned_margins"),
        ("play", "0010_events_as_data"),
    ]

    operations = [
        migrations.RunPython(pegging_without_words, migrations.RunPython.noop),
    ]
