"""The chance of each roll in a phase preview, from the engine's exact `stress_odds`.

For the storyguide: an attack needs its Attack Total to beat the Defense Total as rolled; a
Fatigue-phase roll must beat its ease factor, a fatigue test meet it. The modifier is the total's
parts without the die; the botch dice are the phase options'. The chances are the engine's
(exact fractions); only the face to aim for ("needs 9+") is restated here, for the label.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.utils.html import format_html

from arsmagica.rules import stress_odds
from combat.rules.errors import RulesError

from .services.sheets import options_from_json

# The purpose whose faces are a phase's own attack rolls (a die first rolled in an earlier phase
# of the round is already known; its odds are shown for what they were).
ATTACK_PURPOSE = {"first_missile": "missile", "melee": "combat", "second_missile": "missile_second"}


@dataclass(frozen=True)
class Chance:
    needed: int
    success: Fraction
    botch: Fraction
    botch_dice: int
    earlier: bool = False

    @property
    def success_text(self) -> str:
        return percent(self.success)

    @property
    def botch_text(self) -> str:
        return percent(self.botch)

    @property
    def title(self) -> str:
        return f"exactly {self.success} to succeed, {self.botch} to botch"

    @property
    def aim(self) -> str:
        """The face to aim for: "needs 9+ on the stress die", or any die that does not botch (ArM3 p163)."""
        if self.needed > 0:
            return f"needs {self.needed}+ on the stress die"
        return "succeeds on any stress die" + (" that does not botch" if self.botch_dice else "")

    @property
    def risk(self) -> str:
        """The chance to botch with the botch dice rolled: "botch 2.7% (3 botch dice)" (ArM3 p163)."""
        if not self.botch_dice:
            return "cannot botch (no botch dice)"
        dice = f"{self.botch_dice} botch di{'e' if self.botch_dice == 1 else 'ce'}"
        return format_html('botch <b data-testid="odds-botch">{}</b> ({})', self.botch_text, dice)


def percent(value: Fraction) -> str:
    """47%, 0.5%, <0.1%, 100%: whole percents from 10%, one decimal below."""
    share = value * 100
    if share == 0:
        return "0%"
    if share < Fraction(1, 10):
        return "<0.1%"
    if share < 10:
        return f"{float(share):.1f}%".replace(".0%", "%")
    if share < 100 and round(share) == 100:
        return ">99%"
    return f"{round(share)}%"


def chance(
    modifier: int, ease_factor: int, botch_dice: int, *, must_beat: bool, earlier=False
) -> Chance | None:
    try:
        odds = stress_odds(modifier, ease_factor, botch_dice, must_beat=must_beat)
    except RulesError:
        return None
    needed = ease_factor - modifier + (1 if must_beat else 0)
    return Chance(needed, odds.success, odds.botch, botch_dice, earlier)


def _modifier(parts, roll) -> int:
    """Everything added to the die: the parts of the total, the die's own value taken out."""
    return sum(value for _, value in parts) - ((roll or {}).get("value") or 0)


def odds_context(pending: dict | None) -> dict:
    """The preview's rows with their chances: {"preview": {"attacks": [{**attack, "odds": Chance}],
    "fatigue": [...], "spells": [...], "skipped": [...]}}."""
    if not pending or "result" not in pending:
        return {}
    result = pending["result"]
    options = options_from_json(pending.get("options"))
    rolled_here = pending.get("dice", {})
    purpose = ATTACK_PURPOSE.get(pending.get("phase"), "")
    attacks = []
    for attack in result.get("attacks", []):
        earlier = purpose == "combat" and not rolled_here.get(attack["attacker"], {}).get(purpose)
        attacks.append(
            chance(
                _modifier(attack["attack_parts"], attack["attack_roll"]),
                attack["defense_total"],
                options.botch_dice_for(attack["attacker"]),
                must_beat=True,
                earlier=earlier,
            )
        )
    fatigue = [
        chance(
            sum(value for _, value in roll["parts"]),
            roll["ease_factor"],
            options.botch_dice_for(roll["combatant"]),
            must_beat=roll["kind"] == "combat",
        )
        for roll in result.get("fatigue", [])
    ]
    spells = [
        chance(
            sum(value for _, value in spell["fatigue_test"]["parts"]),
            spell["fatigue_test"]["ease_factor"],
            options.botch_dice_for(spell["caster"]),
            must_beat=False,
        )
        if spell.get("fatigue_test")
        else None
        for spell in result.get("spells", [])
    ]
    return {
        "preview": {
            "attacks": [
                {**row, "odds": odds} for row, odds in zip(result.get("attacks", []), attacks, strict=True)
            ],
            "fatigue": [
                {**row, "odds": odds} for row, odds in zip(result.get("fatigue", []), fatigue, strict=True)
            ],
            "spells": [
                {**row, "odds": odds} for row, odds in zip(result.get("spells", []), spells, strict=True)
            ],
            "skipped": result.get("skipped", []),
        }
    }
