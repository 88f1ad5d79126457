"""How d6 log entries read: where each happened, in d6 words (d6 seed); the log role
(`combat.systems.Log`); what players see of an NPC's challenge, which each kind's players' version uses
(`d6.events`)."""

from __future__ import annotations

from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from combat.audience import behind_the_screen, without

from . import kinds

TURN_KINDS = (kinds.ROLL, kinds.TURN_ENDED, kinds.VALUE_SET)
STYLESHEETS = ("css/d6.css",)  # the dice faces (.d6-faces), a roll's success and fatigue


def event_label(event, *, in_round: bool = False) -> str:
    """Where a log entry happened, for everyone: "Round 3 · Wren" in a fight (whose turn it was: a
    defence belongs to the attacker's turn), "Exchange 2" in a chase ("Chase 2 · Exchange 1" from an
    encounter's second chase on), "Setting up" before anything starts. Inside a history round heading
    the round is left out."""
    kind, payload = event.kind, event.payload or {}
    if kind == kinds.FIGHT_STARTED:
        return "Initiative" if in_round else f"Round {event.round_number or 1} · Initiative"
    if kind in TURN_KINDS or (kind == kinds.BREATHER and not payload.get("in_chase")):
        return _turn_label(event, payload, in_round)
    if kind in kinds.ALL:
        return _chase_label(kind, payload)
    if event.round_number:
        return "" if in_round else f"Round {event.round_number}"
    return "Setting up"


def round_heading(number: int) -> str:
    """The history's heading for a round number: a fight's round, or outside a fight."""
    return f"Round {number}" if number else "Outside a fight"


def _turn_label(event, payload: dict, in_round: bool) -> str:
    where = "" if in_round else f"Round {payload.get('round') or event.round_number}"
    who = _turn_of(event.kind, payload)
    if not who:
        return where
    return who if in_round else f"{where} · {who}"


def _turn_of(kind: str, payload: dict) -> str:
    """Whose turn an entry belongs to: a defence is the attacker's turn."""
    if kind == kinds.ROLL:
        return payload.get("attacker_name", "") if payload.get("defending") else payload.get("name", "")
    if kind == kinds.TURN_ENDED:
        return payload.get("ended_name", "")
    if kind == kinds.BREATHER or not payload.get("defence"):
        return payload.get("name", "")
    return ""


def _chase_label(kind: str, payload: dict) -> str:
    number = str(payload.get("chase") or payload.get("in_chase") or "")
    if kind == kinds.CHASE_STARTED:
        return f"Chase {number} starts" if number and number != "1" else "Chase starts"
    prefix = f"Chase {number} · " if number and number != "1" else ""
    return prefix + _exchange_of(kind, payload)


def _exchange_of(kind: str, payload: dict) -> str:
    if kind == kinds.EXCHANGE:
        return f"Exchange {payload.get('number', '')}"
    if kind == kinds.FACES_IN:
        return f"Exchange {payload.get('exchange', '')}"
    if kind == kinds.CHASE_ENDED and payload.get("exchanges"):
        return f"Exchange {payload['exchanges']}"
    if kind == kinds.TERRAIN_OFFERED and payload.get("after_exchange"):
        return f"After exchange {payload['after_exchange']}"
    if kind == kinds.TERRAIN_CHOSEN and payload.get("from_exchange"):
        return f"Before exchange {payload['from_exchange']}"
    return "Chase"


# --- how the lines read: wording and roll breakdowns, made here so the templates only print ------


def plural(count, word: str) -> str:
    """ "1 square", "3 squares"."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def names_list(names) -> str:
    """Names joined with commas: "Bandit 1, Bandit 2"."""
    return ", ".join(str(name) for name in names)


def score_label(name) -> str:
    """What is rolled, as the sheet labels it: an attribute's key ("dexterity", kept in lower case by the
    saga's attributes form) as "Dexterity"; an ability's name ("Running") as its sheet gives it."""
    name = str(name or "")
    return name.title() if name == name.lower() else name


def terrains_text(terrains) -> str:
    """Terrains as they read at the table: "Rooftops (Climbing), The river (Swimming)"."""
    return names_list(f"{terrain['name']} ({score_label(terrain['rolled'])})" for terrain in terrains)


def terrain_html(terrain) -> str:
    """A terrain offered on the route: its name in bold, then what is rolled there."""
    return format_html(
        '<b>{}</b> <span class="muted">({})</span>', terrain["name"], score_label(terrain["rolled"])
    )


def terrain_choice(terrain) -> str:
    """A terrain the target may choose: its name, then what is rolled there."""
    return format_html('{} <span class="small">({})</span>', terrain["name"], score_label(terrain["rolled"]))


def dice_words(faces) -> str:
    """The dice of a challenge, named (d6 seed: one d6, then |Consistency| d10s): "d6 4, d10s 7, 3"."""
    faces = list(faces or ())
    if not faces:
        return ""
    d10s = faces[1:]
    tens = f", d10{'s' if len(d10s) > 1 else ''} {', '.join(str(face) for face in d10s)}" if d10s else ""
    return f"d6 {faces[0]}{tens}"


def faces_html(faces) -> str:
    """Typed or rolled dice, each in its own box and named: "d6 [4], d10s [7] [3]" (d6 seed)."""
    faces = list(faces or ())
    boxes = format_html_join(" ", '<span class="die d10">{}</span>', ((face,) for face in faces[1:]))
    d10s = format_html(", d10{} {}", "s" if len(faces) > 2 else "", boxes) if faces[1:] else ""
    return format_html(
        '<span class="d6-faces" data-testid="faces">d6 <span class="die d6">{}</span>{}</span>',
        faces[0] if faces else "",
        d10s,
    )


def die_result_how(p: dict) -> str:
    """How the die result was read from the dice (RULES.md Part 2): " (the highest die)", " (the d6)",
    " (the lowest die, -1 for the extra 1)"; nothing when the dice or the Consistency are not shown."""
    faces, consistency = list(p.get("faces") or ()), p.get("consistency")
    if not faces or not isinstance(consistency, int):
        return ""
    if consistency == 0:
        return " (the d6)"
    if consistency > 0:
        extra = faces[1:].count(10) - 1
        more = f", +{extra} for the extra 10{'s' if extra > 1 else ''}" if extra > 0 else ""
        return f" (the highest die{more})"
    extra = faces.count(1) - 1
    more = f", -{extra} for the extra 1{'s' if extra > 1 else ''}" if extra > 0 else ""
    return f" (the lowest die{more})"


def _signed(number: int) -> str:
    return f"{number:+d}"


# --- what players see of an NPC's challenges ---------------------------------------------------

# A challenge's fields: its dice, the NPC's scores, and its totals (d6 seed).
DICE = ("faces", "d6", "d10s", "die_result")
SCORES = ("consistency", "potential", "physical", "exertion", "dexterity")
TOTALS = ("result", "value", "attack_result", "margin")
# What a player character's defence against an NPC's attack carries of that attack: the number to meet.
TO_MEET = ("value", "attack_result")
SCREENED_WORDS = "(behind the screen)"


# The saga's setting for NPC rolls, in the d6 system's words (`combat.systems.Log.NPC_ROLLS`): d6 has fatigue
# tracks, not wounds (d6 seed).
NPC_ROLLS = {
    "results": "Results only: success or failure, the fatigue that rose, who closed in or fell behind",
    "totals": "Results and their numbers (the result, the challenge value, a chase's margin); no dice",
    "everything": "Everything: Consistency and Potential, dice and results",
}


def to_meet_hidden(attacker, defender, players: set[str], own: set[str], npc_rolls: str) -> bool:
    """Whether a reader is kept from the number a defender must meet (an NPC's attack result, or the value
    the storyguide set for that defence): where the saga keeps NPC totals behind the screen, only the
    player of the defending character needs it to roll against it (issue 35, item 10). A player
    character's attack result is everyone's; an NPC defender's value is its own challenge's."""
    if str(attacker) in players or not behind_the_screen(npc_rolls, totals=("value",)):
        return False
    return str(defender) not in own


def players_challenge(challenge: dict, combatant, players: set[str], npc_rolls: str) -> dict:
    """One challenge: a player character's whole, an NPC's outcome and fatigue with what the setting shows."""
    if str(combatant) in players:
        return challenge
    return without(challenge, behind_the_screen(npc_rolls, dice=DICE, scores=SCORES, totals=TOTALS))


def players_exchange(exchange: dict, players: set[str], npc_rolls: str) -> dict:
    """A chase exchange: each NPC runner's roll at the setting; a margin goes with an NPC target's result,
    which it would give away, and leaves its step (closes, falls behind, holds); the moves stay (d6 seed)."""
    target = next((r.get("runner") for r in exchange["rolls"] if r.get("role") == "target"), None)
    margin = set() if str(target) in players else behind_the_screen(npc_rolls, totals=("margin",))
    return {**exchange, "rolls": [players_runner(r, players, npc_rolls, margin) for r in exchange["rolls"]]}


def players_runner(r: dict, players: set[str], npc_rolls: str, margin: set[str]) -> dict:
    """One runner's roll in an exchange as players see it; a hidden margin leaves its step."""
    shown = without(players_challenge(r, r.get("runner"), players, npc_rolls), margin)
    if r.get("margin") is not None and "margin" not in shown:
        shown = {**shown, "step": margin_step(r["margin"])}
    return shown


# --- a fight challenge -------------------------------------------------------------------------


def roll_line(p: dict) -> str:
    """d6 seed: one fight challenge read out: who rolls what against whom, the dice, the die result
    and the result against the value, the outcome, and what it did to fatigue."""
    tone = " ok" if p.get("success") else " failed" if p.get("success") is False else ""
    return format_html(
        '<span class="roll-line{}" data-testid="roll-line"> <b>{}</b>{}{}: {}{}: {}{} {}</span>',
        tone,
        p.get("name", ""),
        _cluster_note(p),
        _roll_against(p),
        score_label(p.get("rolled", "")),
        roll_workings(p),
        roll_outcome(p),
        _roll_consequence(p),
        _roll_fatigue(p),
    )


def _cluster_note(p: dict) -> str:
    cluster = p.get("cluster")
    if not cluster:
        return ""
    return format_html(
        ' <span class="muted">(into the cluster, shot {} of {})</span>', cluster["index"], cluster["of"]
    )


def _roll_against(p: dict) -> str:
    if p.get("defends_against"):
        return format_html(" defends against {}", p.get("attacker_name", ""))
    if p.get("target_name"):
        return format_html(" attacks <b>{}</b>", p["target_name"])
    return " (defensive roll)" if p.get("defending") else ""


def roll_score(p: dict) -> str:
    """The score rolled, in words: "Consistency 2, Potential 1, physical" (d6 seed)."""
    parts = [f"Consistency {p.get('consistency', '')}"]
    if p.get("potential"):
        parts.append(f"Potential {p['potential']}")
    if p.get("physical"):
        parts.append("physical")
    return ", ".join(parts)


def roll_workings(p: dict) -> str:
    """A challenge's score, dice and numbers: " (Consistency 1, Potential 1) d6 [4], d10 [7] → die result 7
    (the highest die), +1 = result 8 vs 6"; less of an NPC's, as the saga's setting for NPC rolls says."""
    score = format_html(" ({})", roll_score(p)) if "consistency" in p else ""
    dice = format_html(" {}", faces_html(p["faces"])) if p.get("faces") else ""
    numbers = _roll_numbers(p)
    return format_html("{}{}{}", score, dice, format_html(" → {}", numbers) if numbers else "")


def _roll_numbers(p: dict) -> str:
    if "die_result" not in p:
        numbers = format_html("result <b>{}</b>", p["result"]) if "result" in p else ""
    else:
        numbers = format_html(
            'die result <b data-testid="die-result">{}</b>{}', p["die_result"], die_result_how(p)
        )
    if p.get("potential") and "die_result" in p:
        potential = f"{p['potential']:+d}"
        numbers = format_html("{}, {} = result <b>{}</b>", numbers, potential, p.get("result", ""))
    if p.get("value") is not None:
        numbers = format_html("{} vs <b>{}</b>", numbers, p["value"])
    return numbers


def roll_outcome(p: dict) -> str:
    """d6 seed: a die result below fatigue fails outright; else the result meets the value or not."""
    if p.get("auto_failed"):
        return format_html(
            '<strong class="auto-fail" data-testid="auto-failed">fails outright (die result below fatigue {})'
            "</strong>",
            p.get("fatigue_before", ""),
        )
    if p.get("success"):
        return mark_safe('<strong class="success" data-testid="success">success</strong>')
    if p.get("success") is False:
        return mark_safe('<strong class="failure" data-testid="failure">failure</strong>')
    if "result" not in p:
        return SCREENED_WORDS
    return format_html("result <b>{}</b>", p["result"])


def _roll_consequence(p: dict) -> str:
    if p.get("target_name"):
        if p.get("defence_needed"):
            return format_html(" · {} must defend", p["target_name"])
        return mark_safe(' · <span data-testid="no-defence">no defence needed</span>')
    if p.get("defends_against"):
        return " · the attack is stopped" if p.get("success") else " · the attack lands"
    return ""


def _roll_fatigue(p: dict) -> str:
    if p.get("fatigue_rose"):
        return format_html(
            '· <span class="rose" data-testid="fatigue-rose">fatigue {} → {}</span>',
            p.get("fatigue_before", ""),
            p.get("fatigue_after", ""),
        )
    if p.get("rise_held_back"):
        return mark_safe(
            '· <span class="muted" data-testid="rise-held-back">'
            "the d6 was below fatigue, but fatigue already rose this turn</span>"
        )
    return ""


# --- a chase exchange --------------------------------------------------------------------------


def exchange_roll(r: dict, p: dict) -> str:
    """d6 seed: one runner's roll in an exchange: the dice, the result, what the margin does (three
    or more ahead closes a square, three or more behind falls back), and fatigue."""
    name, role = r.get("name", ""), r.get("role", "")
    line = format_html('<b>{}</b> <span class="muted">({})</span>{}', name, role, exchange_workings(r))
    if r.get("dropped_out"):
        line = format_html('{} · <strong class="auto-fail">{}</strong>', line, drops_out(r))
    elif r.get("margin") is not None or r.get("step"):
        line = format_html("{} · {}", line, margin_effect(r, p))
    if r.get("fatigue_rose"):
        line = format_html(
            '{} · <span class="rose">fatigue {} → {}</span>',
            line,
            r.get("fatigue_before", ""),
            r.get("fatigue_after", ""),
        )
    return line


def exchange_workings(r: dict) -> str:
    """A runner's dice and result: " d6 [4], d10 [7] → result <b>9</b>"; the result alone, or nothing, of an
    NPC's."""
    if r.get("faces"):
        return format_html(" {} → result <b>{}</b>", faces_html(r["faces"]), r.get("result", ""))
    return format_html(" result <b>{}</b>", r["result"]) if "result" in r else ""


def drops_out(r: dict) -> str:
    """d6 seed: a die result below fatigue drops the runner out of the chase."""
    die = f" {r['die_result']}" if "die_result" in r else ""
    return f"die result{die} below fatigue {r.get('fatigue_before', '')}: drops out"


def margin_effect(r: dict, p: dict) -> str:
    """d6 seed: a margin of +3 or more closes a square (or reaches or passes the target), -3 or less
    falls a square behind, anything between moves nobody; the step alone when the margin is behind the
    screen."""
    margin = r.get("margin")
    step = margin_step(margin) if margin is not None else r["step"]
    number = f"{_signed(margin)}: " if margin is not None else ""
    if step == "closes":
        return format_html('<span class="success">{}{}</span>', number, _closing(r, p))
    if step == "falls":
        return format_html('<span class="failure">{}falls a square behind</span>', number)
    return format_html('<span class="muted">{}nobody moves</span>', number)


def margin_step(margin: int) -> str:
    """d6 seed: a chaser's margin of +3 or more closes, -3 or less falls behind, anything between holds."""
    return "closes" if margin >= 3 else "falls" if margin <= -3 else "holds"


def _closing(r: dict, p: dict) -> str:
    if r.get("name") in (p.get("moved_ahead") or ()):
        return "moves ahead"
    if p.get("acts_against_target") and p.get("caught_by") == r.get("runner"):
        return "reaches the target"
    return "closes a square"


def exchange_moves(p: dict) -> str:
    """d6 seed: who moved on the grid in an exchange, in one sentence."""
    return "; ".join(move_text(m, p) for m in p.get("moves") or ()) + "."


def move_text(m: dict, p: dict) -> str:
    """One move: a chaser closing in, reaching or passing the target, or the target pulling away."""
    if m["after"] == -1:
        return f"{m['chaser_name']} moves ahead of the target instead of acting against them"
    if m["after"] == 0:
        acting = " and acts against them instead of passing" if p.get("acts_against_target") else ""
        return f"{m['chaser_name']} reaches the target{acting}"
    if m["mover"] == m["chaser"]:
        return f"{m['chaser_name']} closes in: {m['before']} → {m['after']} squares"
    return f"{m['mover_name']} pulls away from {m['chaser_name']}: {m['before']} → {m['after']} squares"


# --- the log's lines -----------------------------------------------------------------------------


def breather_line(p: dict) -> str:
    """d6 seed: a breather brings fatigue back to base; in a chase, by standing still."""
    how = "stands still and gets their breath back" if p.get("in_chase") else "takes a breather"
    return format_html(
        "<b>{}</b> {}: fatigue {} → <b>{}</b> (base).",
        p.get("name", ""),
        how,
        p.get("fatigue_before", ""),
        p.get("fatigue_after", ""),
    )


def chase_ended_line(p: dict) -> str:
    """How a chase ended, in the log: caught, overtaken or escaped."""
    target, catcher = p.get("target_name", ""), p.get("caught_by_name", "")
    if p.get("outcome") == "caught":
        if p.get("acts_against_target"):
            text = format_html(
                "Caught! {} reaches {} and acts against them instead of passing.", catcher, target
            )
        else:
            text = format_html("Caught! {} is spent: {} catches up.", target, catcher)
    elif p.get("outcome") == "overtaken":
        text = format_html(
            "Overtaken! {} ran past {} instead of acting.", names_list(p.get("moved_ahead") or ()), target
        )
    else:
        text = format_html("Escaped! {} gets away.", target)
    return format_html(
        '<strong class="chase-end outcome-{}" data-testid="chase-ended">{}</strong>',
        p.get("outcome", ""),
        text,
    )


def chase_started_line(p: dict) -> str:
    """d6 seed: the chasers, each so many squares behind, the target, the terrain and its roll."""
    chasers = names_list(
        f"{c['name']} ({plural(c['distance'], 'square')} behind)" for c in p.get("chasers") or ()
    )
    terrain = p.get("terrain") or {}
    line = format_html(
        "<b>A chase!</b> {} after <b>{}</b> on {}: everyone rolls {}.",
        chasers,
        p.get("target_name", ""),
        terrain.get("name", ""),
        score_label(terrain.get("rolled", "")),
    )
    if p.get("escape_distance"):
        line = format_html("{} {} squares behind, a chaser loses sight.", line, p["escape_distance"])
    return line


def faces_in_line(p: dict) -> str:
    """A runner's dice typed in for the next exchange (an NPC's behind the screen, at the saga's setting)."""
    return format_html(
        "<b>{}</b> rolled {} for exchange {}: {}",
        p.get("name", ""),
        score_label(p.get("rolled", "")),
        p.get("exchange", ""),
        faces_html(p["faces"]) if "faces" in p else SCREENED_WORDS,
    )


def fight_started_line(p: dict) -> str:
    """d6 seed: initiative is a Dexterity challenge; the order, each with its dice and result."""
    rows = format_html_join(
        ", ",
        '<span data-testid="init-row">{}. {}{}</span>',
        ((n, row["name"], initiative_workings(row)) for n, row in enumerate(p["order"], 1)),
    )
    return format_html(
        "<b>The fight begins.</b> Initiative (Dexterity): {}. {} acts first.", rows, p.get("first", "")
    )


def initiative_workings(row: dict) -> str:
    """An initiative roll's dice and result: " d6 [4], d10 [7] → result 9"; the result alone, or nothing,
    of an NPC's."""
    if row.get("faces"):
        return format_html(" {} → result {}", faces_html(row["faces"]), row.get("result", ""))
    return format_html(" result {}", row["result"]) if "result" in row else ""


def pass_choice_line(p: dict) -> str:
    """d6 seed: what a chaser does if the roll would pass the target."""
    choice = "moves ahead of them" if p.get("move_ahead") else "acts against them"
    return format_html(
        "<b>{}</b>, if the roll would pass {}: {}.", p.get("name", ""), p.get("target_name", ""), choice
    )


def terrain_chosen_line(p: dict) -> str:
    """d6 seed: the target takes the chase onto new terrain; dice sent for the old one are void."""
    before, after = p.get("before") or {}, p.get("after") or {}
    line = format_html(
        "<b>{}</b> takes the chase from {} onto <b>{}</b>: from exchange {} everyone rolls {}.",
        p.get("target_name", ""),
        before.get("name", ""),
        after.get("name", ""),
        p.get("from_exchange", ""),
        score_label(after.get("rolled", "")),
    )
    if p.get("dice_cleared"):
        line = format_html(
            "{} Dice already sent ({}) are for the old ground: roll again.",
            line,
            names_list(p["dice_cleared"]),
        )
    return line


def terrain_offered_line(p: dict) -> str:
    """d6 seed: the GM presents the chase target with terrain decisions."""
    chooser = str(p.get("chooser", ""))
    return format_html(
        "The storyguide offers <b>{}</b> a terrain change: {}. {} chooses.",
        p.get("target_name", ""),
        terrains_text(p.get("terrains") or ()),
        chooser[:1].upper() + chooser[1:],
    )


def turn_ended_line(p: dict) -> str:
    """The turn passes: an awaited defence lapses, a new round may begin, the next fighter acts."""
    lapsed = format_html("{} does not defend. ", p["defence_lapsed"]) if p.get("defence_lapsed") else ""
    new_round = format_html(" <b>Round {}</b> begins:", p.get("next_round", "")) if p.get("new_round") else ""
    return format_html(
        "{}End of {}’s turn.{} <b>{}</b> acts.",
        lapsed,
        p.get("ended_name", ""),
        new_round,
        p.get("next_name", ""),
    )


def value_set_line(p: dict) -> str:
    """RULES.md Part 2: the storyguide names the challenge value of an action or a defence (the number
    behind the screen where the reader may not see it)."""
    what = "defence" if p.get("defence") else "action"
    if "value" not in p:
        return format_html(
            "The storyguide sets the challenge value of <b>{}</b>’s {} {}.",
            p.get("name", ""),
            what,
            SCREENED_WORDS,
        )
    value = "none" if p["value"] is None else format_html("<b>{}</b>", p["value"])
    return format_html(
        "The storyguide sets the challenge value of <b>{}</b>’s {}: {}.", p.get("name", ""), what, value
    )


# --- the chase panel ---------------------------------------------------------------------------


def chase_heading(number: int, chaser_names, target_name: str) -> str:
    """ "Chase 2: Bandit 1, Bandit 2 after Marta" (the first chase has no number)."""
    title = f"Chase {number}" if number > 1 else "Chase"
    return format_html("{}: {} after <b>{}</b>", title, names_list(chaser_names), target_name)


def chase_outcome(outcome: str, target: str, caught_by: str, *, acts_against_target: bool, ahead=()) -> str:
    """d6 seed: how the chase ended, on the panel: caught, overtaken or escaped."""
    if outcome == "caught":
        if acts_against_target:
            return format_html(
                "<b>Caught!</b> {} reaches {} and acts against them instead of passing.", caught_by, target
            )
        return format_html("<b>Caught!</b> {} is spent and {} catches up.", target, caught_by)
    if outcome == "overtaken":
        return format_html(
            "<b>Overtaken!</b> {}ran past {} instead of acting; no chaser is left behind them.",
            "".join(f"{name} " for name in ahead),
            target,
        )
    return format_html("<b>Escaped!</b> {} gets away: no chaser is left in the chase.", target)


def chase_stopped() -> str:
    """A chase still running when the storyguide ended the encounter: it stops where it stood [ours]."""
    return format_html("<b>{}</b> The encounter ended while the chase ran.", "Stopped.")


def fight_over(round_number: int) -> str:
    """The turn panel of a fight whose encounter has ended: the round it stopped in, and no one's turn."""
    return f"The encounter is over: the fight stopped in round {round_number}."


def stretch_exchanges(stretch: dict) -> str:
    """Which exchanges a terrain stretch lasted: "exchanges 1–3", "exchange 4", "from exchange 5"."""
    if not stretch["count"]:
        return f"from exchange {stretch['starts_at']}"
    until = f"–{stretch['until']}" if stretch["until"] != stretch["starts_at"] else ""
    return f"exchange{'' if stretch['count'] == 1 else 's'} {stretch['starts_at']}{until}"


def distance_text(status: str, distance) -> str:
    """d6 seed: a chaser's place on the grid, counted in squares behind the target."""
    if status == "ahead":
        return "moved ahead of the target"
    if distance == 0:
        return "reached the target"
    return f"{plural(distance, 'square')} behind"


def out_text(status: str) -> str:
    """Why a runner is out of the chase, or nothing."""
    return {"dropped_out": "dropped out (fatigue)", "lost_sight": "lost sight"}.get(status, "")


def lane_label(name: str, status: str, distance, target_name: str) -> str:
    """A lane's label on the grid: "Bandit 1: 2 behind · dropped out"."""
    if status == "ahead":
        where = f"moved ahead of {target_name}"
    elif distance == 0:
        where = f"reached {target_name}"
    else:
        where = f"{distance} behind"
    out = {"dropped_out": " · dropped out", "lost_sight": " · lost sight"}.get(status, "")
    return f"{name}: {where}{out}"


def grid_title(lanes, target_name: str) -> str:
    """The grid's title for a screen reader: each chaser's distance behind the target."""
    return "The chase grid: " + "; ".join(
        f"{name} {plural(distance, 'square')} behind {target_name}" for name, distance in lanes
    )


def at_target_choice(moves_ahead: bool, target_name: str) -> str:
    """d6 seed: what a chaser one square behind does if the roll would pass the target."""
    return "moves ahead" if moves_ahead else f"acts against {target_name}"


def dice_in(faces) -> str:
    """Physical dice: whether a runner's dice for the next exchange are in."""
    return "dice in" if faces else "no dice yet"


def swatch(tint: str) -> str:
    """A terrain's colour (its tint's class, d6.css) as a small square beside its name, drawn as SVG."""
    return format_html(
        '<svg class="swatch {}" viewBox="0 0 1 1" aria-hidden="true">'
        '<rect width="1" height="1"></rect></svg>',
        tint,
    )


def faces_prompt(exchange: int, rolled: str, dice: int) -> str:
    """Physical dice: what a runner's player rolls and types for the next exchange."""
    return format_html(
        "Exchange {}: roll <b>{}</b>, one d6 and {} d10{}, and type them (the d6 first)",
        exchange,
        score_label(rolled),
        dice,
        "" if dice == 1 else "s",
    )


def sent_note(faces) -> str:
    """Physical dice: a player's dice as sent, and that the storyguide rolls when all are in."""
    return format_html(
        "Sent: {}. The storyguide rolls the exchange when everyone’s dice are in.", faces_html(faces)
    )


def roll_exchange_text(number: int, terrain: dict) -> str:
    """The storyguide's button: "Roll exchange 3 (Dexterity on Rooftops)"."""
    return f"Roll exchange {number} ({score_label(terrain['rolled'])} on {terrain['name']})"


def not_sent_yet(names) -> str:
    """Physical dice: the runners whose players have not sent their dice, or nothing."""
    return f" Not sent yet: {names_list(names)}." if names else ""


# --- the fight panel ---------------------------------------------------------------------------


def value_note(*, defence: bool, set_by_storyguide: bool) -> str:
    """RULES.md Part 2: where the challenge value on a player's form comes from: the storyguide, the
    attack's result for a defence, or, for an action without one, the storyguide's judgement."""
    if set_by_storyguide:
        return "set by the storyguide"
    if defence:
        return "the attack’s result"
    return "none set: the storyguide judges your result; an attack’s result is what the defender must meet"


def set_value_label(name: str, *, defence: bool, player_rolls: bool = False) -> str:
    """The storyguide's set-value field: a defence's value, or an action's (which its player may roll)."""
    if defence:
        return f"Challenge value of {name}’s defence"
    their_player = " (their player rolls against it)" if player_rolls else ""
    return f"Challenge value for {name}’s action{their_player}"


def awaiting_defence(defender: str, attacker: str, value) -> str:
    """The turn waits for a defence: "<b>Wren</b> must defend against Bandit 1’s attack (result 7)."; with
    no value where the reader may not see it."""
    if value is None:
        return format_html("<b>{}</b> must defend against {}’s attack.", defender, attacker)
    return format_html("<b>{}</b> must defend against {}’s attack (result {}).", defender, attacker, value)


def challenge_word(*, acted: bool) -> str:
    """The turn's first challenge is its action; after it, its next challenge."""
    return "next challenge" if acted else "action"


def queued_defences(names) -> str:
    """The defenders waiting behind the current one: "Then: Bandit 2 defends against the same shot."."""
    if not names:
        return ""
    verb = "defends" if len(names) == 1 else "defend"
    return f"Then: {names_list(names)} {verb} against the same shot."


def track_base(fatigue: int, base: int) -> str:
    """d6 seed: a breather brings fatigue back to its base: "a breather brings it back to 2"."""
    if fatigue > base:
        return f"a breather brings it back to {base}"
    return f"at its base, {base}: a breather lowers it no further"


def track_label(fatigue: int, base: int, top: int) -> str:
    """The track read aloud: "Fatigue 4 of 20; a breather brings it back to 2"."""
    return f"Fatigue {fatigue} of {top}; {track_base(fatigue, base)}"


def track_text(fatigue: int, always_rises: int) -> str:
    """d6 seed: a die result below fatigue fails outright; above `always_rises` every physical roll
    raises fatigue."""
    if fatigue > 1:
        text = format_html('<span class="fails-text">die results below {} fail outright</span>', fatigue)
    else:
        text = "no roll fails on fatigue"
    if fatigue > always_rises:
        return format_html('{} · <span class="rises-text">every physical roll raises it</span>', text)
    return text


def score_option(score) -> str:
    """A score in a roll's select, in words: "Dexterity (Consistency 2, Potential 1, physical)" (d6 seed)."""
    potential = f", Potential {score.potential}" if score.potential else ""
    physical = ", physical" if score.physical else ""
    return f"{score.label} (Consistency {score.consistency}{potential}{physical})"


def scores_html(scores) -> str:
    """A fighter's scores on the storyguide's card: "Dexterity <b>C2</b> P1 phys · Brawl <b>C1</b>"."""
    return format_html_join(" · ", '<span class="score">{} <b>C{}</b>{}{}</span>', map(_score_parts, scores))


def _score_parts(score) -> tuple:
    potential = f" P{score.potential}" if score.potential else ""
    physical = mark_safe(' <span class="muted">phys</span>') if score.physical else ""
    return score.label, score.consistency, potential, physical
