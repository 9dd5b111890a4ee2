"""Commands that read the installed content: ``heroes``, ``battlefields``, ``validate``, ``profiles``."""
from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path

import click

from sim.cli.app import main
from sim.cli.options import check_profile, command_heroes, note_same_names
from sim.content.battlefields import BattlefieldError, list_battlefields, load_battlefield
from sim.content.compile import compile_content
from sim.content.heroes import HeroFileError, deck_warnings, load_all, load_hero
from sim.content.profiles import get_profile, profile_names
from sim.engine.ai import WEIGHT_NAMES
from sim.engine.layout import HF_FOG_WALK


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def heroes(as_json):
    """List the installed heroes with their character cards."""
    specs = command_heroes()
    rows = []
    for key, s in sorted(specs.items()):
        rows.append({
            "key": key, "name": s.name, "set": s.set,
            "health": s.hero.health, "move": s.hero.move, "attack": "ranged" if s.hero.ranged else "melee",
            "sidekicks": [{"name": k.name, "count": k.count, "health": k.health, "move": k.move,
                           "attack": "ranged" if k.ranged else "melee"} for k in s.sidekicks],
            "ability": s.ability_text,
            "forms": list(s.counters["form"][1]) if "form" in s.counters else [],
            "fog_tokens": 3 if s.ability_flags & HF_FOG_WALK else 0,
            "deck_size": {lo or "default": s.deck_size(lo) for lo in s.loadouts()},
            "loadouts": [lo for lo in s.loadouts() if lo],
        })
    note_same_names({r["key"]: r for r in rows})
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    for r in rows:
        sk = ", ".join(f"{k['count']}x {k['name']} ({k['health']} health, move {k['move']}, {k['attack']})"
                       for k in r["sidekicks"]) or "none"
        sizes = list(r["deck_size"].values())
        if len(set(sizes)) == 1:   # (one size for every loadout: say it once)
            decks = f"{sizes[0]} cards" + (f" (each of {len(sizes)} loadouts)" if len(sizes) > 1 else "")
        else:
            decks = ", ".join(f"{lo or 'default'}: {n} cards" for lo, n in r["deck_size"].items())
        click.echo(f"{r['key']}: {r['name']} ({r['set']})")
        click.echo(f"  health {r['health']}, move {r['move']}, {r['attack']}; sidekicks: {sk}; deck {decks}")
        if r["loadouts"]:
            click.echo(f"  loadouts: {', '.join(r['loadouts'])}")
        if r["forms"]:
            click.echo(f"  forms: {', '.join(r['forms'])} (starts as {r['forms'][0]})")
        if r["fog_tokens"]:
            click.echo(f"  fog tokens: {r['fog_tokens']}")
        click.echo(f"  ability: {r['ability']}")


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def battlefields(as_json):
    """List the installed battlefields."""
    rows = []
    for key in list_battlefields():
        bf = load_battlefield(key)
        rows.append({"key": key, "name": bf.name, "box": bf.box, "spaces": bf.n_spaces,
                     "zones": list(bf.zone_names),
                     "starts": [bf.space_ids[s] if s >= 0 else None for s in bf.starts.tolist()],
                     "one_way_paths": int(((bf.move != bf.move.T) & (bf.move == 1)).sum()),
                     "secret_passages": [bf.space_ids[i] for i in range(bf.n_spaces) if bf.passage[i]]})
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    for r in rows:
        extra = []
        if r["one_way_paths"]:
            extra.append(f"{r['one_way_paths']} one-way paths")
        if r["secret_passages"]:
            extra.append("secret passages " + ", ".join(r["secret_passages"]))
        click.echo(f"{r['key']}: {r['name']} ({r['box']}): {r['spaces']} spaces, {len(r['zones'])} zones, "
                   f"starts {', '.join(s for s in r['starts'] if s)}" + (f"; {'; '.join(extra)}" if extra else ""))


def _is_battlefield(path: Path) -> bool:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return path.parent.name == "battlefields"
    return "spaces" in data


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
def validate(paths):
    """Check hero and battlefield files (or folders of them); exit 1 if any is invalid."""
    files = []
    for p in paths:
        if p.is_dir():
            files.extend(sorted(p.glob("*.toml")))
        elif not p.exists():
            raise click.BadParameter(f"{p}: no such file or folder", param_hint="PATHS")
        else:
            files.append(p)
    if not files:
        raise click.BadParameter("no .toml files found", param_hint="PATHS")
    bad = 0
    for f in files:
        try:
            if _is_battlefield(f):
                bf = load_battlefield(f)
                click.echo(f"ok  {f}: battlefield {bf.name}, {bf.n_spaces} spaces")
            else:
                spec = load_hero(f)
                compile_content({spec.key: spec})
                installed = load_all()
                clash = installed.get(spec.key)
                if clash is not None and Path(clash.path).resolve() != f.resolve():
                    raise HeroFileError(f"{f.name}: key {spec.key!r} is already the installed hero {clash.path}; "
                                        "rename the file or set key = \"...\" in it")
                click.echo(f"ok  {f}: hero {spec.name}, " + ", ".join(
                    f"{lo + ': ' if lo else ''}{spec.deck_size(lo)} cards" for lo in spec.loadouts()))
                for w in deck_warnings(spec):
                    click.echo(f"    warning: {w}")
        except (HeroFileError, BattlefieldError) as e:
            bad += 1
            msg = str(e)
            if msg.startswith(f"{f.name}: "):   # the loaders name the file only: give the path, as the ok lines do
                msg = f"{f}: " + msg[len(f.name) + 2:]
            click.echo(f"ERR {msg}", err=True)
    if bad:
        click.echo(f"{bad} of {len(files)} {'file' if len(files) == 1 else 'files'} invalid", err=True)
        sys.exit(1)



@main.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.argument("profile", required=False)
def profiles(profile, as_json):
    """List the AI profiles, or show one profile's weights (a name or a .toml file)."""
    chosen = [check_profile(profile, "PROFILE")] if profile else [get_profile(n) for n in profile_names()]
    rows = [{"name": p.name, "mode": p.mode_name, "description": p.description, "source": p.source,
             "weights": dict(zip(WEIGHT_NAMES, p.weights)) if p.mode_name != "random" else {},
             "heroes": {h: {k: v for k, v in zip(WEIGHT_NAMES, w) if v != dict(zip(WEIGHT_NAMES, p.weights))[k]}
                        for h, w in p.hero_weights},
             "provenance": {h: json.loads(t) for h, t in p.provenance}} for p in chosen]
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    for r in rows:
        click.echo(f"{r['name']} (mode {r['mode']}): {r['description']}")
        if profile and r["weights"]:
            for k, v in r["weights"].items():
                click.echo(f"  {k:<18} {v:g}")
        if profile and r["heroes"]:
            for h, w in r["heroes"].items():
                pv = r["provenance"].get(h, {})
                how = (f" (tuned {pv['date']}: score {pv['score_before']:.1%} -> {pv['score_after']:.1%} against "
                       f"the field of {pv.get('field_ai', '?')})") if "score_after" in pv else ""
                click.echo(f"{h}: weights of its own, where they differ from the above{how}")
                for k, v in w.items():
                    click.echo(f"  {k:<18} {v:g}")
