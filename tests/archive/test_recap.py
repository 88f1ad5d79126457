"""The session recap in Markdown and the print view: each encounter, round and phase, with the
declarations, the rolls with their faces, the results, the corrections and their reasons, and where
the characters stand; players get what they saw."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from combat.archive.markdown import line

pytestmark = pytest.mark.django_db


def recap(saga, user, **filters) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(reverse("saga_recap", args=[saga.pk]), filters)
    assert response.status_code == 200 and response["Content-Type"] == "text/markdown; charset=utf-8"
    disposition = response["Content-Disposition"]  # filtered to an encounter, its name comes after the saga's
    assert disposition.startswith('attachment; filename="test-saga-') or saga.name != "Test saga"
    assert disposition.endswith(f'-{timezone.localdate()}-recap.md"')
    return b"".join(response.streaming_content).decode()


def test_the_storyguides_recap_of_the_p168_round(ars):
    text = recap(ars.saga, ars.storyguide)
    heading = "# Test saga: session recap\n\n## Forest road (ended)\n\n_Storyguide: sg_\n\n### Setting up\n"
    assert text.startswith(heading)
    assert "\n### Round 1\n" in text and "\n### Round 2\n" in text
    assert "- Declarations: **Bandit 1** has declared." in text
    assert (
        "**Bandit 1** stress die 1 (a 1 doubles and rolls again): 9 ×2 = 18, +5 = Initiative **23** · "
        "**Sir Boris** stress die 8 +12 = Initiative **20**"
    ) in text
    melee = "- Melee: **Sir Boris** → **Bandit 1** (Sword at reach) · Attack: stress die 7 +4 = **11** · vs"
    assert melee in text
    assert "**Hit by 2**: Damage 9 vs Soak 3 → **1 Body level lost**" in text
    assert "- Round over: **Correction** to Brother Anselm: body unhurt → **hurt**. _“An old wound”_" in text
    assert "| Character | Side | Fatigue level | Body level |\n|---|---|---|---|\n" in text
    # As the fight ended (Winded by the Fatigue phase), not as his sheet stands now (a rest, then a day's
    # march: Weary): each encounter's end is folded from its own log.
    assert "**Where they stood at the end**" in text
    assert "| Sir Boris | Companions | Winded | Unhurt |" in text
    assert "| Brother Anselm | Companions | Fresh | Hurt |" in text
    assert "| Bandit 2 | Bandits | Winded | Hurt |" in text
    assert "Weary" not in text.split("**Where they stood at the end**")[1]


def test_a_players_recap_leaves_out_what_the_table_did_not_see(ars):
    text = recap(ars.saga, ars.alice)
    assert "**Sir Boris** has declared." in text and "**Bandit 1** has declared" not in text
    assert "rolled melee for a preview" not in text and "An old wound" in text
    assert "| Sir Boris | Companions | Winded | Unhurt |" in text  # folded from the players' log


def test_the_recap_keeps_the_historys_filters(ars):
    text = recap(ars.saga, ars.storyguide, kind="correction", encounter=ars.encounter.pk)
    entries = [row for row in text.splitlines() if row.startswith("- ")]
    assert entries == [
        "- Round over: **Correction** to Brother Anselm: body unhurt → **hurt**. _“An old wound”_"
    ]
    assert "| Sir Boris | Companions | Winded | Unhurt |" in text  # the end folds the whole log, unfiltered


def test_the_d6_recap_shows_each_die(d6):
    text = recap(d6.saga, d6.storyguide)
    assert "Initiative (Dexterity): 1. Marta d6 2, d10s 3 8 → result 8" in text
    attack = (
        "**Marta** attacks **Bandit 2**: Dexterity (Consistency 2, physical) d6 2, d10s 7 3 → "
        "die result **7** (the highest die) vs **6**"
    )
    assert attack in text
    assert "| Marta | Companions | 4 |" in text
    from d6.sheet import write

    write(d6.marta_character, fatigue=12)  # later, away from the table: the recap keeps the fight's end
    d6.marta_character.save()
    assert "| Marta | Companions | 4 |" in recap(d6.saga, d6.storyguide)


def test_markdown_lines_escape_what_markdown_would_read():
    assert line("<b>*Star*</b> hits _hard_ <i>now</i>") == "**\\*Star\\*** hits \\_hard\\_ _now_"
    assert line("a<br>b<ul><li>c</li><li>d</li></ul>") == "a · b · c · d"


def test_the_print_view_is_a_paper_record_of_one_encounter(client, ars):
    client.force_login(ars.storyguide)
    response = client.get(reverse("encounter_record", args=[ars.encounter.pk]))
    html = response.content.decode()
    assert response.status_code == 200 and "css/print.css" in html
    assert (
        html.count("<h2>Round ") == 2 and "An old wound" in html and 'data-testid="record-standing"' in html
    )
    assert "Bandit 1</b> has declared" in html


def test_the_print_view_is_the_players_version_for_players(client, ars):
    client.force_login(ars.alice)
    html = client.get(reverse("encounter_record", args=[ars.encounter.pk])).content.decode()
    assert "Bandit 1</b> has declared" not in html and "Sir Boris</b> has declared" in html


def test_outsiders_get_404(client, ars):
    client.force_login(ars.outsider)
    assert client.get(reverse("encounter_record", args=[ars.encounter.pk])).status_code == 404
    assert client.get(reverse("saga_recap", args=[ars.saga.pk])).status_code == 404
