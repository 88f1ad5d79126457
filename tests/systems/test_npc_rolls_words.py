"""The saga's NPC-rolls setting in each system's own words (the setting itself:
tests/campaign/test_npc_rolls_setting.py)."""

import pytest

from campaign.models import NpcRolls

pytestmark = pytest.mark.django_db


def test_the_setting_reads_in_the_sagas_own_system(saga, d6_saga, as_storyguide):
    """Issue 35, item 12: "results only" names what that system's results are; d6 has fatigue tracks, not
    wounds (RULES.md Part 2), and the core's label names no rule's outcome."""
    ars = as_storyguide.get(f"/sagas/{saga.pk}/").content.decode()
    assert "Results only: hit or miss, the wound, the Fatigue level lost" in ars
    d6 = as_storyguide.get(f"/sagas/{d6_saga.pk}/").content.decode()
    assert "Results only: success or failure, the fatigue that rose, who closed in or fell behind" in d6
    assert "wound" not in d6.split('id="npc-rolls"')[1].split("</section>")[0]
    assert "wound" not in NpcRolls.RESULTS.label and "hit or miss" not in NpcRolls.RESULTS.label
    response = as_storyguide.post(f"/sagas/{d6_saga.pk}/npc-rolls/", {"npc_rolls": "totals"}, follow=True)
    saved = "Players now see: Results and their numbers (the result, the challenge value"
    assert saved in response.content.decode()
