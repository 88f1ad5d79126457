"""Who ran each encounter, as the archive says it: its seat's holder now and each hand-over (combat.seated),
in history.json, archive.json and the recaps."""

from __future__ import annotations

from .reading import Reader


def seat_of(reader: Reader, encounter_id: int) -> dict:
    """Who ran an encounter: its seat's holder now and each hand-over, in the log's words (the step's number
    for a reader who reads that step whole)."""
    return {
        "seat_holder": reader.seated.holder(encounter_id),
        "hand_overs": [
            {
                **({"seq": given.seq} if reader.whole_at(encounter_id, given.seq) else {}),
                "round": given.round_number,
                "by": given.by,
                "was": given.was,
                "to": given.to,
                "reason": given.reason,
            }
            for given in reader.seated.hand_overs.get(encounter_id, [])
        ],
    }


def ran_by(reader: Reader, encounter_id: int) -> str:
    """Who ran the encounter, in words: "sg", or "sg, then bob (Round 2: Bob runs the ambush)"."""
    seated = reader.seated
    said = [seated.first(encounter_id)]
    for given in seated.hand_overs.get(encounter_id, []):
        when = reader.system.log.round_heading(given.round_number)
        said.append(f"{given.to} ({when}: {given.reason})" if given.reason else f"{given.to} ({when})")
    return ", then ".join(said)
