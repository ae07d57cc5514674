"""An action's words, in the language the build speaks: its name, roll, target, range,
timing, damage and effect, and the ruleset's own words about them (how often the psychic
attacks may be used, where its texts leave gaps).

The rules say what an action is by keys and numbers (rules/actions.py); this is the one
place that words them, so the sheet, the minions' frames, the initiative cards, the
roster and the exports never disagree. Every effect is one whole sentence per variant an
era prints, never pieced together, so a translator sees each as it reads at the table.
The tables are marked with ``N_`` and worded when asked.
"""

from __future__ import annotations

from ..rules.actions import Action, Damage
from ..rules.rulesets import Ruleset
from ..wording import N_, _, number, pgettext
from . import terms

NAMES: dict[str, str] = {
    "basic_attack": N_("Basic attack"),
    "fighting": N_("Fighting"),
    "wrestling_hold": N_("Wrestling hold"),
    "hold": N_("Hold"),
    "shooting": N_("Shooting"),
    "blasting": N_("Blasting"),
    "knockout": N_("Knockout"),
    "throw_object": N_("Throw object"),
    "distract": N_("Distract"),
    "surprise": N_("Surprise"),
    "intimidate": N_("Intimidate"),
    "heal": N_("Heal"),
    "revive": N_("Revive"),
    "evade": N_("Evade"),
    "escape": N_("Escape"),
    "engage": N_("Engage"),
    "take_cover": N_("Take cover"),
    "catch": N_("Catch"),
}

# One sentence per variant an era prints (rulesets.ActionRules names the variants).
# %(best)s is a number; %(defense)s the defense an attack rolls against (agility, or the
# single-defense era's defense), worded by terms.
EFFECTS: dict[str, str] = {
    "basic_attack": N_("a weapon or unarmed strike"),
    "fighting": N_("two basic attacks as one action while healthy; one when injured"),
    "wrestling_hold.hurts": N_(
        "a hold that hurts: 1 damage, only while healthy and not delayed; "
        "target delayed to the end of its next turn"
    ),
    "wrestling_hold.with_attack": N_("while healthy, a basic attack and a hold as one action"),
    "hold": N_("target delayed to the end of its next turn"),
    "hold.ends_evade": N_("target delayed to the end of its next turn and loses its evade bonus"),
    "hold.terrain": N_(
        "target delayed to the end of its next turn"
        " (or add a movement ability that suits the ground)"
    ),
    "hold.ends_evade.terrain": N_(
        "target delayed to the end of its next turn and loses its evade bonus"
        " (or add a movement ability that suits the ground)"
    ),
    "one_target": N_("one target"),
    "shooting.delays": N_("one target; injured? you are delayed after the shot"),
    "blasting": N_("up to three different targets, one roll each"),
    "blasting.delays": N_(
        "up to three different targets, one roll each; injured? you are delayed after"
    ),
    "knockout.delays": N_("one target; you are delayed to the end of your next turn"),
    "throw_object": N_("needs something dangerous to throw"),
    "distract": N_("target delayed to the end of its next turn"),
    "distract.terrain": N_(
        "target delayed to the end of its next turn (movement ability must suit the ground)"
    ),
    "surprise.panicked": N_(
        "target panicked to the end of its next turn: it may only evade or escape"
    ),
    "surprise.frightened": N_(
        "target frightened to the end of its next turn: it may only evade or escape"
    ),
    "intimidate.panicked": N_("target panicked to the end of its next turn"),
    "intimidate.frightened": N_("target frightened to the end of its next turn"),
    "heal": N_("an injured ally (not yourself) goes to half maximum HP + 1"),
    "revive": N_("an incapacitated ally (not yourself) comes back at 1 HP"),
    "evade.held": N_(
        "agility and strength each gain a movement level (best %(best)s) till your next turn"
        " or till you are held"
    ),
    "evade.early": N_("agility gains a movement level (best %(best)s) till your next turn"),
    "evade.classic": N_("defense gains a movement level (best %(best)s) till your next turn"),
    "evade.held.no_movement": N_("no movement ability: agility and strength stay as they are"),
    "evade.early.no_movement": N_("no movement ability: agility stays as it is"),
    "evade.classic.no_movement": N_("no movement ability: defense stays as it is"),
    "escape.evading": N_("leave the encounter, straight after a turn spent evading"),
    "escape.unhit": N_(
        "leave the encounter, straight after a turn spent evading,"
        " if nobody has caught or hit you since"
    ),
    "engage": N_(
        "before a close attack: +2 to close attack rolls this turn, -2 %(defense)s"
        " until your next turn"
    ),
    "take_cover.behind_cover": N_(
        "behind real cover: +2 %(defense)s, -2 to all your rolls; no evading, close"
        " attacks, distract, surprise or intimidate"
    ),
    "take_cover.long_range": N_(
        "before a long-range attack: -2 to that roll, +2 %(defense)s till your next turn"
    ),
    "catch": N_("an evading target loses its evade bonus to %(defense)s"),
}

# Targets other than a defense's own name; %(number)s is the target's number.
TARGETS: dict[str, str] = {
    "intelligence_or_strength": N_("intelligence or strength, whichever is higher"),
    "intelligence_if_not_stronger": N_("intelligence (only if its strength is not above yours)"),
    "defense_if_not_stronger": N_("defense (only if it is not stronger than you)"),
    "difficulty": N_("difficulty %(number)s"),
    "evader_level": N_("%(number)s + the level the evader added"),
}
# The sheet's narrow "Against" column: the long targets as a main word and a small line.
TARGET_LINES: dict[str, tuple[str, str]] = {
    "intelligence_or_strength": ("intelligence", N_("or strength (higher)")),
    "intelligence_if_not_stronger": ("intelligence", N_("only if it is not stronger")),
    "defense_if_not_stronger": ("defense", N_("only if it is not stronger")),
}
# The roster's attacks line: the gated targets, shorter.
ROSTER_TARGETS: dict[str, str] = {
    "intelligence_or_strength": N_("intelligence or strength (higher)"),
    "intelligence_if_not_stronger": N_("intelligence (if not stronger)"),
}

LIMITS: dict[str, str] = {
    "once_per_target": N_("once per target"),
    "once_per_battle": N_("once per battle"),
}
SOURCE_NOTES: dict[str, str] = {
    "fragment": N_("a fragment: gaps from current"),
    "early_actions": N_("early's actions, vs defense"),
}

# What an initiative card's narrow column says an effect does to the target.
CARD_EFFECTS: dict[str, str] = {
    "wrestling_hold.with_attack": N_("atk + hold"),
    "wrestling_hold.hurts": N_("delay"),
    "hold": N_("delay"),
    "hold.ends_evade": N_("delay"),
    "hold.terrain": N_("delay"),
    "hold.ends_evade.terrain": N_("delay"),
    "distract": N_("delay"),
    "distract.terrain": N_("delay"),
    "surprise.panicked": N_("panic"),
    "intimidate.panicked": N_("panic"),
}
DASH = "—"  # an empty cell


def _words(table: dict[str, str], key: str) -> str:
    """``key``'s words from ``table``; a key we have no words for is printed as written."""
    english = table.get(key)
    return _(english) if english is not None else key.replace("_", " ")


def named(key: str) -> str:
    """The action ``key``'s name: ``basic_attack`` reads "Basic attack"."""
    return _words(NAMES, key)


def name(action: Action) -> str:
    """``Basic attack``."""
    return named(action.name)


def ability(action: Action) -> str:
    """The ability the roll adds (``wrestling``); "" for a bare d20 or no roll."""
    return terms.ability(action.roll) if action.roll else ""


def roll(action: Action) -> str:
    """What is added to the d20: ``wrestling 2``; "" for a bare d20 or no roll."""
    if not action.roll or action.bonus is None:
        return ""
    return _("%(ability)s %(level)s") % {"ability": ability(action), "level": action.bonus}


def roll_label(action: Action) -> str:
    """The whole roll as a sentence: ``d20 + wrestling 2 against agility``."""
    values = {"roll": roll(action), "target": target(action)}
    if values["roll"] and values["target"]:
        return _("d20 + %(roll)s against %(target)s") % values
    if values["roll"]:
        return _("d20 + %(roll)s") % values
    if values["target"]:
        return _("d20 against %(target)s") % values
    return _("d20")


def target(action: Action) -> str:
    """What the roll is against: ``agility``, ``difficulty 10``, ``intelligence or
    strength, whichever is higher``; "" when nothing is rolled."""
    if not action.target:
        return ""
    if action.target in TARGETS:
        return _(TARGETS[action.target]) % {"number": number(action.target_number or 0)}
    return terms.derived(action.target)


def target_lines(action: Action) -> tuple[str, str]:
    """The sheet's two lines for the target: a main word and a small second line."""
    if action.target in TARGET_LINES:
        main, sub = TARGET_LINES[action.target]
        return terms.derived(main), _(sub)
    return target(action) or DASH, ""


def roster_target(action: Action) -> str:
    """The roster's target: the gated ones shorter."""
    if action.target in ROSTER_TARGETS:
        return _(ROSTER_TARGETS[action.target])
    return target(action)


def range_(action: Action) -> str:
    """``close``, ``long``; "" for an action that is not an attack."""
    if action.range == "close":
        return pgettext("range", "close")
    if action.range == "long":
        return pgettext("range", "long")
    return action.range


def timing(action: Action) -> str:
    """When the action may be taken: ``regular``, ``bonus``, ``unrepeatable`` or ``once
    per battle``."""
    if action.timing == "regular":
        return pgettext("action timing", "regular")
    if action.timing == "bonus":
        return pgettext("action timing", "bonus")
    if action.timing == "unrepeatable":
        return pgettext("action timing", "unrepeatable")
    if action.timing == "once_per_battle":
        return pgettext("action timing", "once per battle")
    return action.timing.replace("_", " ")


def _damage_values(damage: Damage) -> dict[str, str]:
    return {"amount": number(damage.amount), "injured": number(damage.injured)}


def damage_text(damage: Damage | None) -> str:
    """``1``, ``1 + 1``, ``2 each``, ``4 (2 injured)``; "" for none."""
    if damage is None:
        return ""
    values = _damage_values(damage)
    if damage.per == "twice":
        return _("%(amount)s + %(amount)s") % values
    if damage.per == "each":
        return _("%(amount)s each") % values
    if damage.per == "injured":
        return _("%(amount)s (%(injured)s injured)") % values
    return values["amount"]


def damage(action: Action) -> str:
    """Damage on a success, as the exports print it."""
    return damage_text(action.damage)


def auto_damage(action: Action) -> str:
    """Damage on a natural 20, as the exports print it."""
    return damage_text(action.auto_damage)


def damage_parts(damage: Damage | None) -> tuple[str, str]:
    """The sheet's damage cell: a big figure over a small note (``4`` over ``2 injured``);
    a dash for none."""
    if damage is None:
        return DASH, ""
    if damage.per == "injured":
        values = _damage_values(damage)
        return values["amount"], _("%(injured)s injured") % values
    return damage_text(damage), ""


def roster_damage(damage: Damage, on_a_20: bool = False) -> str:
    """The roster's damage with its words: ``4 damage (2 injured)``, ``1 damage each``,
    and on a 20 ``2 each on a 20``."""
    values = _damage_values(damage)
    if on_a_20:
        if damage.per == "twice":
            return _("%(amount)s + %(amount)s on a 20") % values
        if damage.per == "each":
            return _("%(amount)s each on a 20") % values
        if damage.per == "injured":
            return _("%(amount)s on a 20 (%(injured)s injured)") % values
        return _("%(amount)s on a 20") % values
    if damage.per == "twice":
        return _("%(amount)s + %(amount)s damage") % values
    if damage.per == "each":
        return _("%(amount)s damage each") % values
    if damage.per == "injured":
        return _("%(amount)s damage (%(injured)s injured)") % values
    return _("%(amount)s damage") % values


def roster_attack(action: Action) -> str:
    """The roster's attack after its bonus: ``vs agility, long, 2 damage, 5 on a 20``."""
    values = {"target": roster_target(action), "range": range_(action)}
    if action.damage is None:
        return _("vs %(target)s, %(range)s") % values
    values["damage"] = roster_damage(action.damage)
    if action.auto_damage is None:
        return _("vs %(target)s, %(range)s, %(damage)s") % values
    values["auto"] = roster_damage(action.auto_damage, on_a_20=True)
    return _("vs %(target)s, %(range)s, %(damage)s, %(auto)s") % values


def card_damage(action: Action) -> str:
    """An initiative card's effect column: damage and what it does to the target, short:
    ``1 + delay``, ``panic``, ``4 (2 inj.)``; a dash for neither."""
    hurt = action.damage
    figure = ""
    if hurt is not None:
        values = _damage_values(hurt)
        if hurt.per == "injured":
            figure = _("%(amount)s (%(injured)s inj.)") % values
        else:
            figure = damage_text(hurt)
    effect = _(CARD_EFFECTS[action.effect]) if action.effect in CARD_EFFECTS else ""
    if figure and effect:
        return _("%(damage)s + %(effect)s") % {"damage": figure, "effect": effect}
    return figure or effect or "–"


def effect(action: Action) -> str:
    """What the action does, as one sentence."""
    english = EFFECTS.get(action.effect)
    if english is None:
        return action.effect
    values: dict[str, str] = {}
    for key, value in action.effect_values:
        values[key] = number(value) if isinstance(value, int) else terms.derived(value)
    return _(english) % values


def limit(rules: Ruleset) -> str:
    """How often distract, surprise and intimidate may be used: ``once per target``."""
    return _words(LIMITS, rules.psychic_limit)


def source_note(rules: Ruleset) -> str:
    """Where the ruleset's texts leave gaps, after "<name> rules"; "" when they are whole."""
    return _words(SOURCE_NOTES, rules.source_note) if rules.source_note else ""
