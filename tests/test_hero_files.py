"""Hero files: the shipped data, and clear errors for bad files."""
import textwrap

import pytest

from sim.content.compile import compile_content
from sim.content.heroes import HeroFileError, load_all, load_hero
from sim.engine import layout as L

pytestmark = pytest.mark.nojit

GOOD = textwrap.dedent("""
    name = "Tester"
    [hero]
    health = 10
    move = 2
    attack = "melee"
    [[sidekicks]]
    name = "Squire"
    count = 2
    health = 1
    [ability]
    text = "none"
    [[cards]]
    name = "Poke"
    type = "attack"
    value = 3
    boost = 1
    copies = 30
    fighter = "any"
    after = [{ op = "draw", amount = 1, if = "won" }]
""")


def write(tmp_path, text, name="tester.toml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_shipped_heroes_character_cards_and_decks():
    specs = load_all()
    med, sin = specs["medusa"], specs["sinbad"]
    assert (med.hero.health, med.hero.move, med.hero.ranged) == (16, 3, True)
    assert [(s.name, s.count, s.health, s.move, s.ranged) for s in med.sidekicks] == [("Harpy", 3, 1, 3, False)]
    assert (sin.hero.health, sin.hero.move, sin.hero.ranged) == (15, 2, False)
    assert [(s.name, s.count, s.health, s.move, s.ranged) for s in sin.sidekicks] == [("The Porter", 1, 6, 2, False)]
    assert med.deck_size() == 30 and sin.deck_size() == 30
    assert len(med.cards) == 11 and len(sin.cards) == 16
    voyages = [c for c in sin.cards if "voyage" in c.tags]
    assert len(voyages) == 7 and {c.boost for c in voyages if c.name != "Voyage Home"} == {0}


def test_compiled_card_row_holds_the_printed_facts():
    c = compile_content(load_all())
    gaze = c.card_ids[("medusa", "Gaze of Stone")]
    row = c.cards[gaze]
    assert (row[L.C_TYPE], row[L.C_VALUE], row[L.C_BOOST]) == (L.CT_ATTACK, 2, 4)
    assert row[L.C_FMASK] == 1                       # Medusa only (fighter kind 0)
    assert row[L.C_PROG + 2 * L.W_AFTER + 1] == 1    # one After Combat step
    snipe = c.cards[c.card_ids[("medusa", "Snipe")]]
    assert snipe[L.C_FMASK] == 0b11                  # Medusa or a Harpy
    deck = c.decks[c.heroes[c.row("medusa"), L.H_DECK_START]:][: c.heroes[c.row("medusa"), L.H_DECK_LEN]]
    assert len(deck) == 30 and list(deck).count(gaze) == 3


def test_a_good_homebrew_file_loads(tmp_path):
    spec = load_hero(write(tmp_path, GOOD))
    assert spec.key == "tester" and spec.deck_size() == 30
    assert [f.name for f in spec.fighters] == ["Tester", "Squire"]


@pytest.mark.parametrize("change, expected", [
    (("value = 3", 'value = "three"'), r"card 'Poke'\.value: must be a whole number"),
    (('type = "attack"', 'type = "punch"'), r"card 'Poke'\.type: unknown 'punch'; valid: attack, defense, versatile, scheme"),
    (('fighter = "any"', 'fighter = "Knight"'), r"card 'Poke'\.fighter: unknown fighter 'Knight'; valid: 'any', 'Tester', 'Squire'"),
    (('op = "draw"', 'op = "heal"'), r"card 'Poke'\.after\[0\]\.op: unknown op 'heal'; valid: cancel, damage"),
    (('if = "won"', 'if = "lucky"'), r"card 'Poke'\.after\[0\]\.if: unknown condition 'lucky'; valid: won, not_won"),
    (("amount = 1,", "amount = 1, target = 'opposing',"), r"card 'Poke'\.after\[0\]: op 'draw' does not take target; it takes: "),
    (('attack = "melee"', 'attack = "magic"'), r"hero\.attack: unknown 'magic'; valid: melee, ranged"),
    (("copies = 30", "copies = 0"), r"card 'Poke'\.copies: must be from 1 to 30"),
    (("health = 10", ""), r"hero: missing required field 'health'"),
    (('name = "Tester"', 'name = "Tester"\ncolour = "red"'), r"top level: unknown field\(s\) colour; valid: "),
    (("count = 2", "count = 5"), r"sidekicks\[0\]\.count: must be from 1 to 4 \(a player has at most 5 fighters, "
                                 r"the hero included\)"),
    (('if = "won"', 'if = []'), r"after\[0\]\.if: an empty list; give a condition or a list of conditions"),
    (('if = "won"', 'if = ["won", "lucky"]'), r"after\[0\]\.if\[1\]: unknown condition 'lucky'; valid: won, not_won"),
    (('if = "won"', 'if = ["won", ["first_action"]]'),
     r'after\[0\]\.if\[1\]: must be one condition \(a string or a table; lists do not nest\), got \["first_action"\]'),
    (('if = "won"', 'if = { defeated = "Knight" }'),
     r"after\[0\]\.if\.defeated: unknown fighter 'Knight'; valid: 'Tester', 'Squire'"),
    (('if = "won"', 'if = { discard_top = "spell" }'),
     r"after\[0\]\.if\.discard_top: unknown card type 'spell'; valid: attack, defense, versatile, scheme"),
    (("boost = 1", "boost = 1\nvalue = 2"), r"not valid TOML"),
])
def test_bad_files_name_the_file_card_field_and_choices(tmp_path, change, expected):
    old, new = change
    assert old in GOOD
    p = write(tmp_path, GOOD.replace(old, new, 1), "broken.toml")
    with pytest.raises(HeroFileError, match=expected) as e:
        load_hero(p)
    assert str(e.value).startswith("broken.toml")


def test_a_second_identical_card_of_one_name_says_to_set_copies(tmp_path):
    """Identical entries of one name take copies = N (entries that differ: tests/test_card_symbols.py)."""
    card = GOOD[GOOD.index("[[cards]]"):]
    text = GOOD.replace("copies = 30", "copies = 29") + "\n" + card.replace("copies = 30", "copies = 1")
    with pytest.raises(HeroFileError, match=r"a second card named 'Poke', the same as the first: set copies = N on "
                                            r"the first instead$"):
        load_hero(write(tmp_path, text))


def test_damage_target_must_be_a_known_fighter(tmp_path):
    bad = GOOD.replace('after = [{ op = "draw", amount = 1, if = "won" }]',
                       'after = [{ op = "damage", amount = 1, target = "Dragon" }]')
    with pytest.raises(HeroFileError, match=r"after\[0\]\.target: unknown target 'Dragon'; valid: 'self', 'opposing'"):
        load_hero(write(tmp_path, bad))


def test_loadout_names_are_checked(tmp_path):
    text = GOOD.replace("copies = 30", "copies = 28") + textwrap.dedent("""
        [[choice_groups]]
        name = "weapon"
        options = ["axe", "bow"]
        [[cards]]
        name = "Axe"
        type = "attack"
        value = 5
        boost = 2
        copies = 2
        group = "weapon"
        option = "axe"
        [[cards]]
        name = "Bow"
        type = "attack"
        value = 3
        boost = 2
        copies = 2
        group = "weapon"
        option = "bow"
    """)
    spec = load_hero(write(tmp_path, text))
    assert spec.loadouts() == ["axe", "bow"]
    assert spec.deck_size("axe") == 30 and spec.deck_size("bow") == 30
    with pytest.raises(HeroFileError, match="'sword' is not a weapon option; valid weapon options: axe, bow"):
        spec.parse_loadout("sword")


@pytest.mark.parametrize("change, expected", [
    (('{ op = "draw", amount = 1, if = "won" }', '{ amount = 1 }'), r"after\[0\]: missing required field 'op'"),
    (('{ op = "draw", amount = 1, if = "won" }', '{ op = "damage", amount = -8, target = "opposing" }'),
     r"after\[0\]\.amount: must be a whole number from 0 to 99, got -8"),
    (('{ op = "draw", amount = 1, if = "won" }', '{ op = "add_move", amount = 1 }'),
     r"after\[0\]\.op: op 'add_move' only works in: maneuver_bonus"),
    (('{ op = "draw", amount = 1, if = "won" }', '{ op = "draw", amount = 1, per = "discard_tag" }'),
     r"after\[0\]\.tag: missing required field 'tag'"),
    (('{ op = "draw", amount = 1, if = "won" }', '{ op = "set_value", amount = 5 }'),
     r"after\[0\]\.op: op 'set_value' only works in: attack_value, defense_value, during, immediately"),
    (('name = "Tester"', 'name = "Tester"\nkey = 5'), r"key: 5 is not a valid hero key"),
    # the engine's work arrays hold at most MAX_OPTIONS options of a "choose" step or counter values
    (('{ op = "draw", amount = 1, if = "won" }',
      '{ op = "choose", options = [' + ", ".join(['[{ op = "draw", amount = 1 }]'] * 17) + '] }'),
     r"after\[0\]\.options: 17 options; at most 16"),
    (('move = 2', 'move = 2\ncounters = { mood = [' + ", ".join(f'"m{i}"' for i in range(17)) + '] }'),
     r"hero\.counters\.mood: 17 values; at most 16"),
    (('move = 2', 'move = 2\ncounters = { mood = ["calm", "angry", "calm"] }'),
     r'hero\.counters\.mood: a value is named twice in \["calm", "angry", "calm"\]'),
    (('move = 2', 'move = 2\ncounters = { mood = [1, 2] }'), r"hero\.counters\.mood: must be a list of at least two value names \(strings\)"),
    # flipping is for two-valued counters only
    (('{ op = "draw", amount = 1, if = "won" }', '{ op = "flip_counter", counter = "mood" }'),
     r"after\[0\]\.counter: unknown counter 'mood'"),
])
def test_steps_in_the_wrong_place_or_incomplete_are_refused(tmp_path, change, expected):
    old, new = change
    with pytest.raises(HeroFileError, match=expected):
        load_hero(write(tmp_path, GOOD.replace(old, new, 1), "broken.toml"))


def test_non_utf8_file_is_refused_and_a_bom_is_accepted(tmp_path):
    p = tmp_path / "latin.toml"
    p.write_bytes(GOOD.replace("Tester", "T\xe9ster").encode("latin-1"))
    with pytest.raises(HeroFileError, match=r"latin.toml: not UTF-8 text"):
        load_hero(p)
    p.write_bytes(b"\xef\xbb\xbf" + GOOD.encode())
    assert load_hero(p).name == "Tester"


def test_flip_counter_needs_a_two_valued_counter(tmp_path):
    text = GOOD.replace("move = 2", 'move = 2\ncounters = { mood = ["calm", "angry", "furious"] }', 1).replace(
        '{ op = "draw", amount = 1, if = "won" }', '{ op = "flip_counter", counter = "mood" }')
    with pytest.raises(HeroFileError, match=r"after\[0\]\.counter: flip_counter needs a counter of two values; "
                                            r"'mood' has 3 \(calm, angry, furious\): use set_counter or choose_counter"):
        load_hero(write(tmp_path, text))
    two = text.replace('"angry", "furious"]', '"angry"]')
    assert load_hero(write(tmp_path, two)).key == "tester"


def test_a_homebrew_folder_given_twice_is_read_once_and_a_clash_names_both_files(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    write(a, GOOD)
    specs = load_all(extra=[a, a, a / "tester.toml"])
    assert "tester" in specs and "medusa" in specs
    write(b, GOOD)
    with pytest.raises(HeroFileError, match=r"b[/\\]tester\.toml: key 'tester' already used by .*a[/\\]tester\.toml"):
        load_all(extra=[a, b])


# steps that would do nothing where they stand (issue 35): what reads the combat in a hook or
# window run outside any combat, gain_action at the end of the turn, a per's field without it
NO_COMBAT_WHY = "the end_of_turn hook runs outside any combat"


@pytest.mark.parametrize("ability, expected", [
    ('end_of_turn = [{ op = "gain_action", amount = 1 }]',
     r"^broken\.toml: ability\.end_of_turn\[0\]\.op: op 'gain_action' does nothing in the end_of_turn hook: "
     r"the turn's actions are over \(gain actions in start_of_turn, or on a card\)$"),
    ('end_of_turn = [{ op = "damage", amount = 1, target = "opposing" }]',
     rf"^broken\.toml: ability\.end_of_turn\[0\]\.target: 'opposing' is a fighter of a combat, and {NO_COMBAT_WHY} "
     r"\(the step would do nothing\); name a fighter \('self', 'hero', a fighter name\) or a table such as"),
    ('fighter_defeated = [{ op = "move", target = { one = "adjacent", of = "opposing", side = "any" }, up_to = 1 }]',
     r"ability\.fighter_defeated\[0\]\.target\.of: 'opposing' is a fighter of a combat, and the fighter_defeated "
     r"hook runs outside any combat"),
    ('start_of_turn = [{ op = "move", target = "combatant", up_to = 1 }]',
     r"ability\.start_of_turn\[0\]\.target: 'combatant' is a fighter of a combat"),
    ('end_of_turn = [{ op = "draw", amount = 1, if = "won" }]',
     rf"ability\.end_of_turn\[0\]\.if: 'won' is about a combat, and {NO_COMBAT_WHY} \(the condition would never "
     r"hold\); valid here: started_elsewhere, on_fog, .*no_opposing_in_zone = fighter"),
    ('end_of_turn = [{ op = "draw", amount = 1, unless = ["first_action", { opposing_printed_at_least = 0 }] }]',
     r"ability\.end_of_turn\[0\]\.unless\[1\]: 'opposing_printed_at_least' is about a combat"),
    ('end_of_turn = [{ op = "draw", amount = 1, if = { adjacent = ["self", "opposing"] } }]',
     r"ability\.end_of_turn\[0\]\.if: 'opposing' is about a combat"),
    ('setup = [{ op = "draw", amount = 1, per = "combat_damage" }]',
     r"ability\.setup\[0\]\.per: 'combat_damage' counts in a combat, and the setup hook runs outside any combat "
     r"\(it would count 0\); valid here: discard_tag, adjacent_to_self, last_boost, last_damage, "
     r"fighter_adjacent_to_moved, zones_of$"),
    ('end_of_turn = [{ op = "choose", options = [[{ op = "draw" }], [{ op = "recover", target = "combatant" }]] }]',
     r"ability\.end_of_turn\[0\]\.options\[1\]\[0\]\.target: 'combatant' is a fighter of a combat"),
    ('end_of_turn = [{ op = "draw", amount = 1, tag = "x" }]',
     r"^broken\.toml: ability\.end_of_turn\[0\]\.tag: 'tag' goes only with per = 'discard_tag' \(this step has no "
     r"per\); remove it$"),
    ('after_attack = [{ op = "recover", target = "self", per = "last_damage", fighter = "Squire" }]',
     r"ability\.after_attack\[0\]\.fighter: 'fighter' goes only with per = 'fighter_in_zone_of_opposing' or "
     r"'fighter_adjacent_to_moved' or 'zones_of', not per = 'last_damage'; remove it$"),
])
def test_steps_that_would_do_nothing_where_they_stand_are_refused(tmp_path, ability, expected):
    with pytest.raises(HeroFileError, match=expected):
        load_hero(write(tmp_path, GOOD.replace('text = "none"', f'text = "none"\n{ability}', 1), "broken.toml"))


@pytest.mark.parametrize("ability", [
    # the combat is there after an attack; a target table's side = "opposing" is a side, fine anywhere
    'after_attack = [{ op = "damage", amount = 1, target = "opposing", if = "won" }]',
    'end_of_turn = [{ op = "damage", amount = 1, target = { each = "in_zone", of = "Tester", side = "opposing" } }]',
    'end_of_turn = [{ op = "draw", amount = 1, if = [{ no_opposing_in_zone = "hero" }, "attacked_this_turn"] }]',
    'start_of_turn = [{ op = "gain_action", amount = 1 }]',
    'end_of_turn = [{ op = "draw", amount = 1, per = "zones_of", fighter = "Squire" }]',
])
def test_steps_that_act_outside_a_combat_load(tmp_path, ability):
    spec = load_hero(write(tmp_path, GOOD.replace('text = "none"', f'text = "none"\n{ability}', 1)))
    assert len(spec.hooks) == 1


def test_errors_show_values_as_a_hero_file_writes_them(tmp_path):
    """A value the file got wrong is shown in TOML form (["x"], { k = 1 }, "text", true), not
    as Python's ['x'] / {'k': 1}, and a wrong if says that a list combines conditions."""
    step = '{ op = "draw", amount = 1, if = "won" }'
    for new, expected in [
        ('{ op = "draw", amount = 1, if = 3 }',
         r'after\[0\]\.if: must be a condition \(a string or a table\) or a list of them, which combines them '
         r'\(if = \[a, b\]: all must hold; unless = \[a, b\]: none may\), e\.g\. if = \["won", '
         r'\{ hand_at_least = 3 \}\]; got 3$'),
        ('{ op = "draw", amount = 1, if = { lucky = true } }', r"after\[0\]\.if: unknown condition table \{ lucky = true \}"),
        ('{ op = "damage", target = ["self"] }', r'after\[0\]\.target: must be a string or a table, got \["self"\]$'),
        ('{ op = "draw", amount = "two" }', r'after\[0\]\.amount: must be a whole number from 0 to 99, got "two"$'),
        ('{ op = "discard", random = "yes" }', r'after\[0\]\.random: must be true or false, got "yes"$'),
        ('{ op = "search", card = "Poke", from = ["deck"] }', r'after\[0\]\.from: unknown \["deck"\]; valid: '),
    ]:
        with pytest.raises(HeroFileError, match=expected):
            load_hero(write(tmp_path, GOOD.replace(step, new, 1), "broken.toml"))
