"""Designer variants: validation errors, what they change in the compiled tables, and
how runs record them."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.content.heroes import load_all
from sim.content.variants import VariantError, load_variant
from sim.engine import layout as L
from sim.play.match import installed_content
from sim.runs.errors import RunError
from sim.runs.matrix import plan_run, run_matrix


def write(tmp_path, text, name="v.toml"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def content_of(variant):
    return installed_content((), variant.to_json())


def hero_row(content, key):
    return content.heroes[content.row(key)]


def card_row(content, key, card):
    return content.cards[content.card_ids[(key, card)]]


ARTHUR_PLUS4 = 'name = "arthur +4 health"\n[hero.king_arthur]\nhealth = 22\n'


def test_health_value_boost_copies_change_the_compiled_tables(tmp_path):
    base = installed_content()
    v = load_variant(write(tmp_path, ARTHUR_PLUS4 + '[hero.king_arthur.cards."Excalibur"]\nvalue = 7\nboost = 4\n'
                                                   'copies = 2\n[hero.king_arthur.sidekicks."Merlin"]\nhealth = 9\n'))
    c = content_of(v)
    assert hero_row(base, "king_arthur")[L.H_HP] == 18 and hero_row(c, "king_arthur")[L.H_HP] == 22
    assert hero_row(c, "king_arthur")[L.H_KIND0 + L.K_HP] == 9
    ex = card_row(c, "king_arthur", "Excalibur")
    assert (ex[L.C_VALUE], ex[L.C_BOOST]) == (7, 4)
    assert card_row(base, "king_arthur", "Excalibur")[L.C_VALUE] == 6
    # one more copy of Excalibur: a 31-card deck
    assert hero_row(c, "king_arthur")[L.H_DECK_LEN] == hero_row(base, "king_arthur")[L.H_DECK_LEN] + 1
    same = [i for i in range(L.H_FIELDS) if i != L.H_DECK_START]      # later decks start one card later
    assert hero_row(c, "medusa")[same].tolist() == hero_row(base, "medusa")[same].tolist()   # others untouched
    assert v.describe() == ["king_arthur: health 18 -> 22", "king_arthur: card 'Excalibur' value 6 -> 7",
                            "king_arthur: card 'Excalibur' boost 3 -> 4", "king_arthur: card 'Excalibur' copies 1 -> 2",
                            "king_arthur: sidekick 'Merlin' health 7 -> 9"]


def _program(content, key, card, window):
    row = card_row(content, key, card)
    start, n = row[L.C_PROG + 2 * window], row[L.C_PROG + 2 * window + 1]
    return content.code[start:start + n]


def test_effect_arguments_are_patched_and_recompiled(tmp_path):
    base = installed_content()
    v = load_variant(write(tmp_path, '[hero.medusa.cards."Gaze of Stone"]\nafter.0.amount = 6\n'
                                     '[hero.medusa.ability]\nstart_of_turn.0.amount = 2\n'))
    c = content_of(v)
    old, new = _program(base, "medusa", "Gaze of Stone", L.W_AFTER), _program(c, "medusa", "Gaze of Stone", L.W_AFTER)
    assert old[0, L.I_N] == 8 and new[0, L.I_N] == 6
    assert np.array_equal(np.delete(old, L.I_N, axis=1), np.delete(new, L.I_N, axis=1))  # nothing else moved
    assert v.describe() == ["medusa: card 'Gaze of Stone' after[0].amount 8 -> 6",
                            "medusa: ability start_of_turn[0].amount 1 -> 2"]
    # a whole window replaced: Gaze of Stone now draws a card after combat
    v = load_variant(write(tmp_path, '[hero.medusa.cards."Gaze of Stone"]\nafter = [{ op = "draw", amount = 1 }]\n'))
    from sim.engine import effects as E
    assert _program(content_of(v), "medusa", "Gaze of Stone", L.W_AFTER)[:, L.I_OP].tolist() == [E.OP_DRAW]


def test_a_variant_that_changes_nothing_compiles_to_the_same_tables(tmp_path):
    v = load_variant(write(tmp_path, '[hero.arthur]\nhealth = 18\n[hero.arthur.cards."Excalibur"]\nvalue = 6\n'))
    assert v.is_noop and list(v.heroes) == ["king_arthur"]            # the alias resolves to the key
    base, c = installed_content(), content_of(v)
    for name in ("cards", "code", "heroes", "decks"):
        assert np.array_equal(getattr(base, name), getattr(c, name)), name
    assert not load_variant(write(tmp_path, ARTHUR_PLUS4)).is_noop


BAD = [
    ('[hero.hercules]\nhealth = 3\n', "v.toml: hero 'hercules': unknown hero; valid: alice, ancient_leshen"),
    ('[hero.king_arthur]\nhelth = 20\n',
     "v.toml: hero king_arthur, field helth: unknown field 'helth'; valid: health, move, attack, cards, sidekicks"),
    ('[hero.king_arthur.cards."Excalibr"]\nvalue = 7\n',
     "v.toml: hero king_arthur, card 'Excalibr': no such card; valid: 'Excalibur', 'Noble Sacrifice'"),
    ('[hero.king_arthur.cards."Excalibur"]\nvalu = 7\n',
     "v.toml: hero king_arthur, card 'Excalibur', field valu: unknown field 'valu'; valid: value, boost, copies, "
     "immediately, during, after"),
    ('[hero.king_arthur.cards."Excalibur"]\nvalue = 30\n',
     "v.toml: hero king_arthur: the variant makes the hero invalid: king_arthur.toml: card 'Excalibur'.value: "
     "must be from 0 to 20, got 30"),
    ('[hero.king_arthur.cards."Excalibur"]\nvalue = "seven"\n', "card 'Excalibur'.value: must be a whole number"),
    ('[hero.medusa.cards."Gaze of Stone"]\nafter.0.amont = 6\n',
     "v.toml: hero medusa, card 'Gaze of Stone', field after.0.amont: no argument 'amont'; op 'damage' takes: "
     "amount, fighter, if, may, op, per, tag, target, unless"),
    ('[hero.medusa.cards."Gaze of Stone"]\nafter.2.amount = 6\n',
     "v.toml: hero medusa, card 'Gaze of Stone', field after.2: no step 2; this list has 1 (0..0)"),
    ('[hero.king_arthur.cards."Excalibur"]\nafter.0.amount = 6\n',
     "v.toml: hero king_arthur, card 'Excalibur', field after: this has no 'after' steps to patch"),
    ('[hero.king_arthur.sidekicks."Merln"]\nhealth = 8\n',
     "v.toml: hero king_arthur, sidekick 'Merln': no such sidekick; valid: 'Merlin'"),
    ('[hero.medusa.cards."Gaze of Stone"]\nafter = [{ op = "zap" }]\n',
     "v.toml: hero medusa: the variant makes the hero invalid: medusa.toml: card 'Gaze of Stone'.after[0].op: "
     "unknown op 'zap'; valid:"),
    ('nmae = "x"\n', "v.toml: top level: unknown field 'nmae'; valid: name, description, hero"),
    ('name = "x"\n', "v.toml: changes no hero; add a [hero.KEY] table"),
    ('[hero.king_arthur\nhealth = 3\n', "v.toml: not valid TOML"),
]


@pytest.mark.parametrize("text,message", BAD)
def test_validation_errors_name_the_file_hero_card_and_field(tmp_path, text, message):
    with pytest.raises(VariantError) as e:
        load_variant(write(tmp_path, text), load_all())
    assert message in str(e.value)
    assert "\n" not in str(e.value)


def test_cli_variant_errors_are_one_line_usage_errors(tmp_path):
    bad = write(tmp_path, '[hero.king_arthur.cards."Excalibur"]\nvalu = 7\n')
    for args in (["duel", "king_arthur", "medusa"], ["arena", "--games", "2"], ["matrix", "--games", "2"],
                 ["loadouts", "geralt"], ["compare", "--hero", "king_arthur"]):
        r = CliRunner().invoke(main, args + ["--variant", str(bad)])
        assert r.exit_code == 2, (args, r.output)
        assert "Invalid value for '--variant': v.toml: hero king_arthur, card 'Excalibur', field valu" in r.output
        assert "Traceback" not in r.output
    r = CliRunner().invoke(main, ["duel", "king_arthur", "medusa", "--variant", str(tmp_path / "none.toml")])
    assert r.exit_code == 2 and "no such variant file" in r.output


def test_duel_plays_the_variant(tmp_path):
    v = write(tmp_path, ARTHUR_PLUS4)
    r = CliRunner().invoke(main, ["duel", "king_arthur", "medusa", "--seed", "1", "--variant", str(v)])
    assert r.exit_code == 0 and r.output.startswith("Variant 'arthur +4 health': king_arthur: health 18 -> 22\n")
    assert "King Arthur on M13" in r.output
    j = json.loads(CliRunner().invoke(main, ["duel", "king_arthur", "medusa", "--json", "--variant", str(v)]).output)
    assert j["variant"] == "arthur +4 health"


def test_runs_record_the_variant_and_refuse_to_resume_with_another(tmp_path):
    v = load_variant(write(tmp_path, ARTHUR_PLUS4))
    out = tmp_path / "run"
    run_matrix(out, 2, heroes=["king_arthur", "medusa"], battlefields=["soho"], ai="random", jobs=1, variant=v)
    m = json.loads((out / "manifest.json").read_text())
    assert m["settings"]["variant"]["name"] == "arthur +4 health"
    assert m["settings"]["variant"]["heroes"] == {"king_arthur": {"health": 22}}
    assert m["heroes"]["king_arthur"]["health"] == 22
    plan = plan_run(out, 2, heroes=["king_arthur", "medusa"], battlefields=["soho"], ai="random", variant=v)
    assert plan.games_done == plan.games_total == 6                            # same variant: resumes
    with pytest.raises(RunError) as e:
        plan_run(out, 2, heroes=["king_arthur", "medusa"], battlefields=["soho"], ai="random")
    assert "variant: run has 'arthur +4 health' (v.toml, digest" in str(e.value) and "this command none" in str(e.value)
    other = load_variant(write(tmp_path, '[hero.king_arthur]\nhealth = 20\n', "w.toml"))
    with pytest.raises(RunError) as e:
        plan_run(out, 2, heroes=["king_arthur", "medusa"], battlefields=["soho"], ai="random", variant=other)
    assert "this command 'w'" in str(e.value)


def test_run_compare_and_run_loadouts_take_a_variant_file_path(tmp_path):
    """sim.runs.versus.run_compare / run_loadouts (the notebooks' one-call API) read a variant
    file path as the CLI does: a bad file is a RunError naming --variant, before any game."""
    from sim.runs.versus import _as_variant, run_compare, run_loadouts
    with pytest.raises(RunError) as e:
        run_compare(tmp_path / "out", "king_arthur", tmp_path / "missing.toml", games=2)
    assert e.value.param == "--variant" and "no such variant file" in str(e.value)
    bad = tmp_path / "bad.toml"
    bad.write_text('[hero.king_arthur.cards."Excalibir"]\nvalue = 7\n')
    with pytest.raises(RunError) as e:
        run_loadouts(tmp_path / "out2", "geralt", games=8, variant=bad)
    assert e.value.param == "--variant" and "Excalibir" in str(e.value)
    good = tmp_path / "good.toml"
    good.write_text("[hero.king_arthur]\nhealth = 22\n")
    v = _as_variant(str(good))
    assert v.describe() == ["king_arthur: health 18 -> 22"] and _as_variant(v) is v and _as_variant(None) is None
    assert not (tmp_path / "out").exists() and not (tmp_path / "out2").exists()
