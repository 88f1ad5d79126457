"""What the campaign pages give a phone: tables whose rows become labelled cards (.stacks, each cell
carrying its column's name), saga cards that name who runs the saga."""

import re


def cells(page, name):
    """The cells of the table row whose first cell holds `name`."""
    row = re.search(rf"<tr>\s*<td class=\"row-title\">(?:<a [^>]*>)?{name}.*?</tr>", page, re.S).group(0)
    return re.findall(r'<td data-label="([^"]+)">([^<]*)</td>', row)


def test_my_sagas_says_who_runs_each_saga_and_links_the_whole_card(saga, as_player):
    page = as_player.get("/sagas/").content.decode()
    assert "run by sg" in page
    assert f'<a class="stretched" href="/sagas/{saga.pk}/">Sir Boris and the bandits</a>' in page


def test_the_saga_page_labels_each_characters_cells_for_the_phone_layout(saga, boris, bandit, as_storyguide):
    page = as_storyguide.get(f"/sagas/{saga.pk}/").content.decode()
    assert page.count('class="table-scroll stacks"') == 2  # player characters and NPCs
    assert cells(page, "Sir Boris") == [("Player", "alice")]
