"""An Ars Magica character named in the records of time passing is kept, not deleted (the rest of the
housekeeping: tests/campaign/test_manage.py)."""

import pytest
from django.urls import reverse

from arsmagica import services as ars
from campaign.models import Character

pytestmark = pytest.mark.django_db


def test_a_character_in_the_records_of_time_passing_is_kept(saga, storyguide, as_storyguide, boris):
    ars.record_exertion(storyguide, boris.pk, 1, "A day's march", saga_id=saga.pk)
    response = as_storyguide.post(reverse("character_delete", args=[boris.pk]), {"confirm": "on"})
    assert response.status_code == 400 and Character.objects.filter(pk=boris.pk).exists()
