"""Built-in Resilience content: every entry validates and the set is varied and balanced."""

from __future__ import annotations

import html
import re
from collections import Counter
from pathlib import Path
from typing import Any, TypeVar, get_args

import pytest
from pydantic import BaseModel, ValidationError
from ruamel.yaml import YAML

from scratchpress.definitions.resilience_models import (
    DEFENSES,
    THREAT_DEFENSE,
    THREATS,
    Career,
    Defense,
    Event,
    Faction,
    ProjectIdea,
    ProjectTheme,
    ResilienceContent,
    event_over_budget,
    marks_left,
    word_count,
)
from scratchpress.rules.abilities import CHARACTER_CATEGORIES
from scratchpress.rules.community import DEFENSES as RULES_DEFENSES

from conftest import Cli, WriteCampaign, shared_location

CONTENT = Path(__file__).resolve().parents[2] / "generator" / "content" / "resilience"

CAREER_NAMES = [
    "Farmer",
    "Business Owner",
    "Landlord",
    "Doctor",
    "Parent",
    "Soldier",
    "Engineer",
    "Teacher",
    "Builder",
    "Sheriff",
    "Wealthy Investor",
    "Mechanic",
    "Entertainer",
]

M = TypeVar("M", bound=BaseModel)

# Bigger damage comes with a smaller attack bonus: allowed attack bonuses per damage.
# An event's damage and its attack bonus trade off: a heavy blow lands less often.
BALANCE = {5: range(8, 10), 6: range(6, 9), 7: range(3, 6), 8: range(2, 6)}


def _load(name: str, key: str) -> list[dict[str, Any]]:
    data = YAML(typ="safe").load((CONTENT / name).read_text(encoding="utf-8"))
    assert isinstance(data, dict) and list(data) == [key], f"{name}: one top-level key {key!r}"
    entries = data[key]
    assert isinstance(entries, list)
    return entries


def _validate(model: type[M], entries: list[dict[str, Any]]) -> list[M]:
    out: list[M] = []
    for raw in entries:
        try:
            out.append(model.model_validate(raw))
        except ValidationError as exc:  # name the entry, not just the field
            pytest.fail(f"{model.__name__} {raw.get('id', '?')!r}: {exc}")
    return out


@pytest.fixture(scope="module")
def events() -> list[Event]:
    return _validate(Event, _load("events.yaml", "events"))


@pytest.fixture(scope="module")
def careers() -> list[Career]:
    return _validate(Career, _load("careers.yaml", "careers"))


@pytest.fixture(scope="module")
def ideas() -> list[ProjectIdea]:
    return _validate(ProjectIdea, _load("project_ideas.yaml", "project_ideas"))


def _dupes(values: list[Any]) -> list[Any]:
    return [v for v, n in Counter(values).items() if n > 1]


def _opening(text: str, words: int = 4) -> str:
    return " ".join(re.findall(r"[a-z']+", text.lower())[:words])


# ----------------------------------------------------------------------------- all together


def test_the_three_files_form_valid_campaign_content(
    events: list[Event], careers: list[Career], ideas: list[ProjectIdea]
) -> None:
    content = ResilienceContent(events=events, careers=careers, project_ideas=ideas)
    assert len(content.events) == len(events)


# ----------------------------------------------------------------------------- events


def test_event_counts_per_defense_and_threat(events: list[Event]) -> None:
    assert len(events) >= 40
    per_defense = Counter(e.attacks for e in events)
    for defense in DEFENSES:
        assert per_defense[defense] >= 13, f"{defense}: {per_defense[defense]} events"
    per_threat = Counter(e.threat for e in events)
    for threat in THREATS:
        assert per_threat[threat] >= 3, f"{threat}: {per_threat[threat]} events"


def test_every_threat_attacks_its_own_defense(events: list[Event]) -> None:
    for e in events:
        assert e.attacks == THREAT_DEFENSE[e.threat], e.id


def test_events_are_unique(events: list[Event]) -> None:
    assert not _dupes([e.id for e in events])
    assert not _dupes([e.title.casefold() for e in events])
    assert not _dupes([_opening(e.story) for e in events]), "two stories open alike"
    # No two events ask for the same challenge roll...
    assert not _dupes([(e.challenge.ability, e.challenge.difficulty) for e in events])
    # ...nor the same challenge together with the same decision.
    combos = [
        (
            e.challenge.ability,
            e.challenge.difficulty,
            tuple(sorted(c.choice.casefold() for c in e.decision.choices)),
        )
        for e in events
    ]
    assert not _dupes(combos)
    assert not _dupes([e.decision.prompt.casefold() for e in events])
    assert not _dupes([e.encounter.casefold() for e in events])


def test_events_fit_a_poker_card(events: list[Event]) -> None:
    problems = {e.id: notes for e in events if (notes := event_over_budget(e))}
    assert not problems


def test_bigger_damage_means_smaller_attack_bonus(events: list[Event]) -> None:
    threats = [e for e in events if not e.windfall]
    for e in threats:
        assert e.attack_bonus in BALANCE[e.damage], (e.id, e.attack_bonus, e.damage)
    assert {e.damage for e in threats} == {5, 6, 7, 8}


def test_events_use_varied_challenge_abilities(events: list[Event]) -> None:
    abilities = Counter(e.challenge.ability for e in events)
    assert len(abilities) >= 12
    assert max(abilities.values()) <= len(events) // 6


def test_decisions_have_mechanical_consequences(events: list[Event]) -> None:
    mechanical = re.compile(
        r"[+-]\d|automatically|d20|ends|join|surprise|parley|unmasked|beside|roll"
    )
    for e in events:
        for c in e.decision.choices:
            assert mechanical.search(c.consequence), (e.id, c.choice)
        for text in (e.challenge.success, e.challenge.failure, e.temporary):
            assert re.search(r"[+-]\d|less HP|injured|captive|surprise|evade", text), (e.id, text)


def test_decision_needs_two_or_three_choices(events: list[Event]) -> None:
    raw = events[0].model_dump()
    for n in (1, 4):
        bad = {
            **raw,
            "decision": {**raw["decision"], "choices": raw["decision"]["choices"][:1] * n},
        }
        with pytest.raises(ValidationError, match="2 or 3 choices"):
            Event.model_validate(bad)


def test_threat_must_match_the_attacked_defense(events: list[Event]) -> None:
    raw = {**events[0].model_dump(), "threat": "siege", "attacks": "economy"}
    with pytest.raises(ValidationError, match="attacks environment"):
        Event.model_validate(raw)


# ----------------------------------------------------------------------------- careers


def test_exactly_the_thirteen_careers(careers: list[Career]) -> None:
    assert sorted(c.name for c in careers) == sorted(CAREER_NAMES)
    assert not _dupes([c.id for c in careers])
    assert {c.id for c in careers} == {n.lower().replace(" ", "-") for n in CAREER_NAMES}


def test_careers_are_complete_and_short(careers: list[Career]) -> None:
    for c in careers:
        assert c.description is not None and 25 <= word_count(c.description) <= 45, c.id
        assert c.project is not None and word_count(c.project) <= 35, c.id
        assert c.combat_role is not None, c.id
        assert 2 <= len(c.required) <= 4, c.id
        assert all(level == 1 for level in c.required_levels().values()), c.id
    assert {c.combat_role for c in careers} == {"attack", "defense", "support", "strategy"}


def test_every_career_says_what_it_wants_at_the_council(careers: list[Career]) -> None:
    # Careers exist so that interests conflict: each names the interest it pushes for.
    for c in careers:
        assert c.wants is not None and 8 <= word_count(c.wants) <= 16, c.id
    assert len({c.wants for c in careers}) == len(careers)


def test_careers_require_only_attack_defense_and_support_abilities(
    careers: list[Career],
) -> None:
    assert {c.id: c.off_type_requirements() for c in careers if c.off_type_requirements()} == {}
    scout = Career(id="scout", name="Scout", required=[["stealth"], ["shooting"], ["driving"]])
    assert scout.off_type_requirements() == ["stealth", "driving"]


def test_a_campaign_career_asking_for_another_kind_of_ability_is_a_warning(
    write_campaign: WriteCampaign, cli: Cli
) -> None:
    folder = write_campaign(
        {
            "careers.yaml": """
careers:
  - id: lookout
    name: Lookout
    required: [["detection"], ["toughness"]]
"""
        }
    )
    result = cli("check", str(folder))
    assert result.exit_code == 0, result.output
    assert (
        'careers.yaml:5: warning: entry "Lookout": required: requires detection, outside the'
        " attack, defense and support abilities careers are built from"
    ) in result.output


def test_career_requirements_check_level_one(careers: list[Career]) -> None:
    farmer = next(c for c in careers if c.id == "farmer")
    assert farmer.is_met_by({"wrestling": 1, "toughness": 2, "craftsmanship": 1})
    assert not farmer.is_met_by({"wrestling": 1, "craftsmanship": 1})
    with pytest.raises(ValidationError, match="at most level 1"):
        Career(id="x", name="X", required=[["fighting"], ["fighting", "wrestling"]])


# ----------------------------------------------------------------------------- project ideas


# A table plays one project size (Resilience, "Projects"): 1, 2 or 4 players large, 5 players
# medium, 3, 6 or 7 players small. Every size needs ideas for every defense.
PROJECT_SIZES = ("small", "medium", "large")
SIZE_BY_DEVELOPMENT = {1: "small", 2: "small", 3: "small", 4: "medium", 5: "large"}


def _main_defense(idea: ProjectIdea) -> Defense | None:
    """The defense an idea develops most; None when two tie (it serves neither first)."""
    top = max(idea.develops.values())
    leaders = [d for d, levels in idea.develops.items() if levels == top]
    return leaders[0] if len(leaders) == 1 else None


def test_project_ideas_are_unique(ideas: list[ProjectIdea]) -> None:
    assert len(ideas) >= 40
    assert not _dupes([p.id for p in ideas])
    assert not _dupes([p.name.casefold() for p in ideas])
    assert not _dupes([_opening(p.summary) for p in ideas])


def test_every_project_idea_is_a_legal_project(ideas: list[ProjectIdea]) -> None:
    for p in ideas:
        assert 1 <= p.developed_total <= 5, p.id
        assert not set(p.develops) & set(p.sacrifices), p.id
        assert p.sacrificed_total <= p.developed_total, p.id
        assert p.size == SIZE_BY_DEVELOPMENT[p.developed_total], p.id
        assert p.difficulty == 7 + 2 * p.developed_total - 5 * p.sacrificed_total, p.id
        assert 15 <= word_count(p.summary) <= 35, p.id


def test_project_size_and_difficulty_follow_the_book() -> None:
    base = {"id": "x", "name": "X", "theme": "agriculture", "summary": "Plant trees."}
    # David plants trees with volunteers: 5 environment, nothing given up.
    david = ProjectIdea.model_validate({**base, "develops": {"environment": 5}})
    assert (david.size, david.difficulty) == ("large", 17)
    # Adam sells the harvest rights: 2 environment and 1 economy for 1 equity.
    adam = ProjectIdea.model_validate(
        {**base, "develops": {"environment": 2, "economy": 1}, "sacrifices": {"equity": 1}}
    )
    assert (adam.size, adam.difficulty) == ("small", 8)


def test_the_three_es_are_developed_about_equally(ideas: list[ProjectIdea]) -> None:
    totals = {d: sum(p.develops.get(d, 0) for p in ideas) for d in DEFENSES}
    assert max(totals.values()) <= 1.1 * min(totals.values()), totals


def test_every_table_size_finds_ideas_for_every_defense(ideas: list[ProjectIdea]) -> None:
    counts = Counter((_main_defense(p), p.size) for p in ideas)
    short = {(d, s): counts[d, s] for d in DEFENSES for s in PROJECT_SIZES if counts[d, s] < 2}
    assert short == {}


def test_sacrifices_are_spread_over_the_three_es(ideas: list[ProjectIdea]) -> None:
    levels = {d: sum(p.sacrifices.get(d, 0) for p in ideas) for d in DEFENSES}
    assert max(levels.values()) <= sum(levels.values()) / 2, levels
    for defense in DEFENSES:
        assert sum(defense in p.sacrifices for p in ideas) >= 3, defense
    # Volunteers and patience pay for some projects: they give up nothing.
    assert sum(not p.sacrifices for p in ideas) >= len(ideas) / 4


def test_project_ideas_use_every_theme(ideas: list[ProjectIdea]) -> None:
    counts = Counter(p.theme for p in ideas)
    assert set(counts) == set(get_args(ProjectTheme))
    assert max(counts.values()) <= len(ideas) / 10, counts


def test_project_rules_are_enforced() -> None:
    base = {"id": "x", "name": "X", "theme": "DIY", "summary": "A test."}
    with pytest.raises(ValidationError, match="develop and sacrifice"):
        ProjectIdea.model_validate(
            {**base, "develops": {"economy": 2}, "sacrifices": {"economy": 1}}
        )
    with pytest.raises(ValidationError, match="more levels"):
        ProjectIdea.model_validate(
            {**base, "develops": {"economy": 1}, "sacrifices": {"equity": 2}}
        )
    with pytest.raises(ValidationError, match="1 to 5"):
        ProjectIdea.model_validate({**base, "develops": {"economy": 3, "equity": 3}})
    cynthia = ProjectIdea.model_validate(
        {**base, "develops": {"economy": 5}, "sacrifices": {"environment": 4}}
    )
    assert (cynthia.difficulty, cynthia.size) == (-3, "large")


@pytest.mark.parametrize("path", sorted(CONTENT.glob("*.yaml")), ids=lambda p: p.name)
def test_built_in_content_reads_the_same_under_yaml_1_2(path: Path) -> None:
    # The loader parses our own files with libyaml (YAML 1.1, fast); users' files follow
    # YAML 1.2. A bare `no` or `on` would read as false or true under the first alone.
    import yaml

    text = path.read_text(encoding="utf-8")
    assert yaml.load(text, Loader=yaml.SafeLoader) == YAML(typ="safe").load(text)


# -------------------- formerly tests/test_own_words.py
# Our words are our own: nothing we ship repeats a run of six words of the rule texts.
#
# Numbers, formulas and tables are facts and may be reproduced; prose must be ours. So a run
# of six words shared with the rule texts (../shared/seeds) is a failure unless it is a fact:
# it holds a number (a stat line such as "3 spaceflight (5 with Chokestar as pilot)") or is
# made only of the game's own terms (ability names, the three E's, card suits and colours).
# The check reads every file we write text in: content, the example campaign, templates,
# docs and the Python sources (messages, help, notes).

ROOT = Path(__file__).resolve().parents[2]
SEEDS = shared_location() / "seeds"
RUN = 6
OURS = [
    "generator/**/*.py",
    "generator/content/**/*.yaml",
    "generator/content/**/*.md",
    "generator/content/**/*.toml",
    "examples/**/*.yaml",
    "examples/**/*.md",
    "templates/**/*.html",
    "docs/*.md",
    "README.md",
]
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?|\d+")


def _words(text: str) -> list[str]:
    return _WORD.findall(html.unescape(re.sub(r"<[^>]+>", " ", text)).lower())


def _terms() -> set[str]:
    abilities = {a for group in CHARACTER_CATEGORIES.values() for a in group}
    suits = {"clubs", "spades", "hearts", "diamonds", "blue", "green", "yellow", "red"}
    stats = {"agility", "intelligence", "strength", "stamina", "hp", "cp", "and", "or"}
    return abilities | set(RULES_DEFENSES) | suits | stats


def _is_fact(run: tuple[str, ...], terms: set[str]) -> bool:
    return any(word.isdigit() for word in run) or all(word in terms for word in run)


@pytest.mark.skipif(not SEEDS.is_dir(), reason=f"needs the rule texts at {SEEDS}")
def test_nothing_we_ship_repeats_six_words_of_the_rule_texts() -> None:
    theirs: set[tuple[str, ...]] = set()
    for seed in SEEDS.glob("*.txt"):
        words = _words(seed.read_text(encoding="utf-8"))
        theirs.update(tuple(words[i : i + RUN]) for i in range(len(words) - RUN + 1))
    terms = _terms()
    shared: dict[str, list[str]] = {}
    files = sorted({p for pattern in OURS for p in ROOT.glob(pattern)})
    assert len(files) > 50
    for path in files:
        words = _words(path.read_text(encoding="utf-8"))
        for i in range(len(words) - RUN + 1):
            run = tuple(words[i : i + RUN])
            if run in theirs and not _is_fact(run, terms):
                shared.setdefault(str(path.relative_to(ROOT)), []).append(" ".join(run))
    assert shared == {}


def test_no_sentence_starts_after_a_semicolon(events: list[Event]) -> None:
    """"attack bonus -2; If the attack fails" reads as a slip: after a semicolon the clause
    goes on in lower case (the False Horn had one). A gamble keeps its own capital: "Roll
    d20: on 11+ ..." is the cards' fixed wording (rules/effects.py)."""
    texts = [
        (e.id, text)
        for e in events
        for text in (
            e.temporary,
            e.challenge.success,
            e.challenge.failure,
            *(c.consequence for c in e.decision.choices),
        )
    ]
    slips = [(event, text) for event, text in texts if re.search(r";\s+(?!Roll d20)[A-Z]", text)]
    assert not slips


# ------------------------------------------------------------------- marks and factions


def test_ten_to_fifteen_answers_leave_a_mark_that_later_cards_read(events: list[Event]) -> None:
    left = marks_left(events)
    assert 10 <= len(left) <= 15
    readers: Counter[str] = Counter()
    for event in events:
        for memory in event.remembers:
            assert memory.mark in left, f"{event.id} reads {memory.mark}, which no answer leaves"
            assert left[memory.mark][1].id != event.id, f"{event.id} reads its own mark"
            readers[memory.mark] += 1
    assert set(readers) == set(left), "a mark no card reads"
    # Marks cut both ways: some make a later card harder, some easier.
    bonuses = [m.attack_bonus for e in events for m in e.remembers]
    assert any(b > 0 for b in bonuses) and any(b < 0 for b in bonuses)


def test_the_recurring_powers_each_have_a_faction_on_their_own_cards(
    events: list[Event],
) -> None:
    factions = _validate(Faction, _load("factions.yaml", "factions"))
    names = {f.name for f in factions}
    for power in ("Salt Guild", "Highway Company", "Union of Towns", "Grey Hand", "Vells"):
        assert any(power in name for name in names), power
    by_id = {e.id: e for e in events}
    for faction in factions:
        assert len(faction.appears_in) >= 2, faction.id
        for event_id in faction.appears_in:
            assert event_id in by_id, f"{faction.id}: {event_id}"
        assert re.search(r"\((?:[a-z]+ \d+)\)", faction.dealing), faction.dealing  # its roll


def test_every_project_idea_has_a_failure_line_and_a_large_variant(
    ideas: list[ProjectIdea],
) -> None:
    for idea in ideas:
        assert idea.failure, idea.id
        if idea.size == "large":
            assert idea.large is None, idea.id
            continue
        assert idea.large is not None, idea.id
        assert idea.large.difficulty == 7 + 10 - 5 * sum(idea.large.sacrifices.values())
        main = max(idea.develops, key=lambda d: idea.develops[d])
        assert main in idea.large.develops, idea.id  # the same idea, built big
