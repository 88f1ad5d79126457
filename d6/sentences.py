"""Each d6 event as one sentence built from its fields (d6 seed; RULES.md Part 2): a phone's pop-up and a
screen reader's words (`combat.sentences`), the wording each kind's `sentence` says (`d6.events`). The
payload is the one its audience sees, so an NPC's dice and numbers a player may not see are not there to
be said; each die is a number of its own ("1, 8, 1")."""

from __future__ import annotations

from django.utils.html import strip_tags
from typing_extensions import override

from combat import systems

from . import presenters as say

SCREENED = "behind the screen"


def dice(faces) -> str:
    """Dice named, each a number of its own: "d6 1, d10s 8, 1" (d6 seed)."""
    return say.dice_words(faces)


def numbers(p: dict) -> str:
    """A challenge's numbers: " (Consistency 2, Potential 1) d6 1, d10s 8, 1: die result 8 (the highest die),
    +1 = result 9 vs 6"; what is shown of them."""
    score = f" ({say.roll_score(p)})" if "consistency" in p else ""
    faces = f" {dice(p['faces'])}" if p.get("faces") else ""
    said = [f"die result {p['die_result']}{say.die_result_how(p)}"] if "die_result" in p else []
    if "result" in p and "die_result" in p and p.get("potential"):
        said.append(f"{p['potential']:+d} = result {p['result']}")
    elif "result" in p and "die_result" not in p:
        said.append(f"result {p['result']}")
    versus = f" vs {p['value']}" if p.get("value") is not None and said else ""
    return f"{score}{faces}{': ' if faces and said else ' ' if said else ''}{', '.join(said)}{versus}"


def outcome(p: dict) -> str:
    """A challenge's outcome (d6 seed): fails outright below fatigue, success, failure, or its result."""
    if p.get("auto_failed"):
        return f"fails outright (die result below fatigue {p.get('fatigue_before', '')})"
    if p.get("success") is not None:
        return "success" if p["success"] else "failure"
    return f"result {p['result']}" if "result" in p else SCREENED


def fatigue(p: dict) -> str:
    """What a challenge did to fatigue, after its outcome."""
    if p.get("fatigue_rose"):
        return f", fatigue {p.get('fatigue_before', '')} → {p.get('fatigue_after', '')}"
    if p.get("rise_held_back"):
        return ", the d6 was below fatigue, but fatigue already rose this turn"
    return ""


def roll(p: dict) -> str:
    """A fight challenge: who rolls what against whom, the numbers, the outcome, what follows."""
    cluster = p.get("cluster")
    into = f" (into the cluster, shot {cluster['index']} of {cluster['of']})" if cluster else ""
    if p.get("defends_against"):
        against = f" defends against {p.get('attacker_name', '')}"
    elif p.get("target_name"):
        against = f" attacks {p['target_name']}"
    else:
        against = " (defensive roll)" if p.get("defending") else ""
    follows = ""
    if p.get("target_name"):
        follows = f"; {p['target_name']} must defend" if p.get("defence_needed") else "; no defence needed"
    elif p.get("defends_against"):
        follows = "; the attack is stopped" if p.get("success") else "; the attack lands"
    head = f"{p.get('name', '')}{into}{against}: {say.score_label(p.get('rolled', ''))}{numbers(p)}"
    return f"{head}: {outcome(p)}{follows}{fatigue(p)}."


def fight_started(p: dict) -> str:
    """Initiative, a Dexterity challenge: the order, each with what is shown of its dice and result."""
    order = "; ".join(
        f"{n}. {row['name']},{numbers(row) if 'faces' in row or 'result' in row else ' ' + SCREENED}"
        for n, row in enumerate(p["order"], 1)
    )
    return f"The fight begins. Initiative (Dexterity): {order}. {p.get('first', '')} acts first."


def runner(r: dict, p: dict) -> str:
    """One runner's roll in an exchange: the numbers shown, what the margin does, fatigue."""
    said = f"{r.get('name', '')} ({r.get('role', '')})"
    if r.get("faces"):
        said += f" {dice(r['faces'])}, result {r.get('result', '')}"
    elif "result" in r:
        said += f" result {r['result']}"
    if r.get("dropped_out"):
        said += f", {say.drops_out(r)}"
    elif r.get("margin") is not None or r.get("step"):
        said += f", {strip_tags(say.margin_effect(r, p))}"
    return said + fatigue(r)


def exchange(p: dict) -> str:
    """A chase exchange: every runner's roll, the moves on the grid, who lost sight."""
    terrain = p.get("terrain") or {}
    rolls = "; ".join(runner(r, p) for r in p.get("rolls", []))
    said = (
        f"Exchange {p.get('number', '')} on {terrain.get('name', '')} "
        f"({say.score_label(terrain.get('rolled', ''))}): {rolls}."
    )
    if p.get("moves"):
        said += f" {say.exchange_moves(p)}"
    if p.get("lost_sight"):
        said += f" {say.names_list(p['lost_sight'])} lost sight of the target."
    return said


def chase_started(p: dict) -> str:
    """The chasers, each so many squares behind, the target, the terrain and its roll."""
    chasers = say.names_list(
        f"{c['name']} ({say.plural(c['distance'], 'square')} behind)" for c in p.get("chasers") or ()
    )
    terrain = p.get("terrain") or {}
    said = (
        f"A chase! {chasers} after {p.get('target_name', '')} on {terrain.get('name', '')}: "
        f"everyone rolls {say.score_label(terrain.get('rolled', ''))}."
    )
    far = p.get("escape_distance")
    return f"{said} {far} squares behind, a chaser loses sight." if far else said


def chase_ended(p: dict) -> str:
    """How a chase ended: caught, overtaken or escaped."""
    target, catcher = p.get("target_name", ""), p.get("caught_by_name", "")
    if p.get("outcome") == "caught":
        if p.get("acts_against_target"):
            return f"Caught! {catcher} reaches {target} and acts against them instead of passing."
        return f"Caught! {target} is spent: {catcher} catches up."
    if p.get("outcome") == "overtaken":
        return f"Overtaken! {say.names_list(p.get('moved_ahead') or ())} ran past {target} instead of acting."
    return f"Escaped! {target} gets away."


def terrain_chosen(p: dict) -> str:
    """The target takes the chase onto new terrain; dice sent for the old one are void."""
    before, after = p.get("before") or {}, p.get("after") or {}
    said = (
        f"{p.get('target_name', '')} takes the chase from {before.get('name', '')} "
        f"onto {after.get('name', '')}: from exchange {p.get('from_exchange', '')} "
        f"everyone rolls {say.score_label(after.get('rolled', ''))}."
    )
    if p.get("dice_cleared"):
        said += (
            f" Dice already sent ({say.names_list(p['dice_cleared'])}) are for the old ground: roll again."
        )
    return said


def turn_ended(p: dict) -> str:
    """The turn passes: an awaited defence lapses, a new round may begin, the next fighter acts."""
    lapsed = f"{p['defence_lapsed']} does not defend. " if p.get("defence_lapsed") else ""
    new_round = f" Round {p.get('next_round', '')} begins:" if p.get("new_round") else ""
    return f"{lapsed}End of {p.get('ended_name', '')}’s turn.{new_round} {p.get('next_name', '')} acts."


def faces_in(p: dict) -> str:
    """A runner's dice typed in for the next exchange; an NPC's behind the screen, at the saga's setting."""
    shown = dice(p["faces"]) if "faces" in p else SCREENED
    rolled = say.score_label(p.get("rolled", ""))
    return f"{p.get('name', '')} rolled {rolled} for exchange {p.get('exchange', '')}: {shown}."


def breather(p: dict) -> str:
    """A breather brings fatigue back to base; in a chase, by standing still."""
    how = "stands still and gets their breath back" if p.get("in_chase") else "takes a breather"
    change = f"{p.get('fatigue_before', '')} → {p.get('fatigue_after', '')}"
    return f"{p.get('name', '')} {how}: fatigue {change} (base)."


def terrain_offered(p: dict) -> str:
    """The storyguide offers the target a choice of terrains."""
    chooser = str(p.get("chooser", ""))
    terrains = say.terrains_text(p.get("terrains") or ())
    offer = f"The storyguide offers {p.get('target_name', '')} a terrain change: {terrains}."
    return f"{offer} {chooser[:1].upper()}{chooser[1:]} chooses."


def pass_choice(p: dict) -> str:
    """What a chaser does if the roll would pass the target."""
    choice = "moves ahead of them" if p.get("move_ahead") else "acts against them"
    return f"{p.get('name', '')}, if the roll would pass {p.get('target_name', '')}: {choice}."


class Log(systems.Log):
    """The d6 log: turns and chase exchanges as where each event happened. Its sentences and what players see
    of each event are its kinds' (`d6.events`)."""

    STYLESHEETS = say.STYLESHEETS
    NPC_ROLLS = say.NPC_ROLLS

    @override
    def event_label(self, event, *, in_round=False):
        return say.event_label(event, in_round=in_round)

    @override
    def round_heading(self, number):
        return say.round_heading(number)

