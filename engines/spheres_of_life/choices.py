"""The legal moves of one seat, as menu-ready :class:`Choice` lists.

Big moves are split into micro-steps kept in the state (an exchange offer
before its wanted card; discards before picks) so each list stays small.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from engines.core import Choice, seat_ref
from engines.spheres_of_life import actions, effects, knowledge
from engines.spheres_of_life.phases import heroes_needed, night_limit
from engines.spheres_of_life.scoring import SET_SIZE
from engines.spheres_of_life.state import SolState
from engines.words import plural

MENU_MAX = 25
GROUP = 20


def _first_of_each_kind(state: SolState, cards: list[int]) -> list[int]:
    seen: dict[str, int] = {}
    for card in cards:
        seen.setdefault(state.kind(card), card)
    return list(seen.values())


def _own(state: SolState, seat: int, card: int) -> str:
    return f"{state.name(card)} (#{state.hands[seat].index(card) + 1})"


def _group(position: int, total: int) -> list[str]:
    """An extra menu level for long hands, so no menu offers more than 25 options."""
    if total <= MENU_MAX:
        return []
    low = (position - 1) // GROUP * GROUP + 1
    return [f"Cards {low}–{min(low + GROUP - 1, total)}"]


def _own_steps(state: SolState, seat: int, card: int) -> list[str]:
    hand = state.hands[seat]
    return [*_group(hand.index(card) + 1, len(hand)), _own(state, seat, card)]


def hero_choices(state: SolState, seat: int) -> list[Choice]:
    if heroes_needed(state, seat) <= 0:
        return []
    mine = Counter(state.hero_picks[seat] + [state.kind(c) for c in state.heroes[seat]])
    pool = Counter(state.kind(c) for c in state.hero_pool)
    return [
        Choice(
            key=f"hero:{kind}",
            label=f"Choose {state.deck_spec.name_of(kind)}",
            steps=["Choose a Hero", state.deck_spec.name_of(kind)],
            action=actions.ChooseHero(hero=kind),
        )
        for kind in sorted(pool)
        if pool[kind] > mine[kind]
    ]


def rps_choices(state: SolState, seat: int) -> list[Choice]:
    if seat not in state.rps_players or state.rps[seat] is not None:
        return []
    return [
        Choice(
            key=f"throw:{s}",
            label=s.capitalize(),
            steps=["Throw", s.capitalize()],
            action=actions.Throw(shape=s),
        )
        for s in ("rock", "paper", "scissors")
    ]


def table_picks(state: SolState, verb: str = "Pick") -> list[Choice]:
    return [
        Choice(
            key=f"pick:{c}",
            label=f"{verb} {state.name(c)}",
            steps=[verb, state.name(c)],
            action=actions.Pick(card=c),
        )
        for c in _first_of_each_kind(state, state.table)
    ]


def night_choices(state: SolState, seat: int) -> list[Choice]:
    if state.picking:
        return [
            *table_picks(state),
            Choice(key="done", label="Stop picking", steps=["Stop picking"], action=actions.Done()),
        ]
    found = (
        [
            Choice(
                key=f"discard:{c}",
                label=f"Discard {_own(state, seat, c)}",
                steps=["Discard", *_own_steps(state, seat, c)],
                action=actions.Discard(card=c),
            )
            for c in state.hands[seat]
        ]
        if state.discarded < night_limit(state)
        else []
    )
    # A count of cards, said as one: a bare "(1)" beside a menu's option counts read as one of them.
    done = f"Done discarding ({plural(state.discarded, 'card')} discarded)"
    return [*found, Choice(key="done", label=done, steps=["Done discarding"], action=actions.Done())]


def dream_choices(state: SolState, seat: int) -> list[Choice]:
    dream = state.dream
    assert dream is not None
    if dream.offer is not None:
        return _wanted(state, dream.offer)
    found = [] if dream.exchange is not None else _bank(state, seat)
    found += _steals(state, seat) + _gifts(state, seat)
    if dream.exchange is None:
        found += [
            Choice(
                key=f"offer:{c}",
                label=f"Exchange: offer {state.name(c)}",
                steps=["Exchange", state.name(c)],
                action=actions.Offer(card=c),
            )
            for c in _first_of_each_kind(state, state.hands[seat])
        ]
    if not found:
        found.append(
            Choice(key="pass", label="No Action is possible: pass", steps=["Pass"], action=actions.Pass())
        )
    return found


def _bank(state: SolState, seat: int) -> list[Choice]:
    dream = state.dream
    if dream is None or seat in dream.banked:
        return []
    counts = Counter(state.kind(c) for c in state.hands[seat])
    spec = state.deck_spec
    return [
        Choice(
            key=f"bank:{k}",
            label=f"Bank a set of {spec.name_of(k)}",
            steps=["Bank a set", spec.name_of(k)],
            action=actions.Bank(animal=k),
        )
        for k in sorted(counts)
        if counts[k] >= SET_SIZE and spec.animal(k) is not None
    ]


def _steals(state: SolState, seat: int) -> list[Choice]:
    """One random steal per player with cards — the thief never names a position —
    and, besides, each card the thief has been shown in that hand."""
    dream = state.dream
    assert dream is not None
    found: list[Choice] = []
    for t in range(state.players):
        if t == seat or t in dream.steal_shield or not state.hands[t]:
            continue
        known = _first_of_each_kind(state, knowledge.seen_in(state, seat, t))
        found.append(
            Choice(
                key=f"steal:{t}",
                label=f"Steal a random card from {seat_ref(t)}",
                steps=["Steal", seat_ref(t), *(["A random card"] if known else [])],
                action=actions.Steal(target=t),
            )
        )
        found += [
            Choice(
                key=f"steal:{t}:{c}",
                label=f"Steal {state.name(c)} (seen) from {seat_ref(t)}",
                steps=["Steal", seat_ref(t), f"{state.name(c)} (seen)"],
                action=actions.Steal(target=t, card=c),
            )
            for c in known
        ]
    return found


def _gifts(state: SolState, seat: int) -> list[Choice]:
    dream = state.dream
    assert dream is not None
    return [
        Choice(
            key=f"gift:{c}:{t}",
            label=f"Give {_own(state, seat, c)} to {seat_ref(t)}",
            steps=["Forced Gift", *_own_steps(state, seat, c), seat_ref(t)],
            action=actions.Gift(card=c, target=t),
        )
        for c in state.hands[seat]
        for t in range(state.players)
        if t != seat and t not in dream.gift_shield
    ]


def _wanted(state: SolState, offer: int) -> list[Choice]:
    spec = state.deck_spec
    found = [
        Choice(
            key=f"want:{k}",
            label=f"{state.name(offer)} for {spec.name_of(k)}",
            steps=["Want", spec.name_of(k)],
            action=actions.Want(wanted=k),
        )
        for k in state.wantable()
        if k != state.kind(offer)
    ]
    return [
        *found,
        Choice(key="cancel", label="Cancel the offer", steps=["Cancel"], action=actions.Cancel(), idle=True),
    ]


def exchange_answers(state: SolState, seat: int) -> list[Choice]:
    dream = state.dream
    assert dream is not None and dream.exchange is not None
    wanted = dream.exchange.wanted
    name = state.deck_spec.name_of(wanted)
    found = [Choice(key="decline", label="Decline", steps=["Decline"], action=actions.Decline())]
    if any(state.kind(c) == wanted for c in state.hands[seat]):
        found.insert(
            0, Choice(key="accept", label=f"Accept: give {name}", steps=["Accept"], action=actions.Accept())
        )
    return found


def block_answers(state: SolState, seat: int) -> list[Choice]:
    apples = [
        c
        for c in _first_of_each_kind(state, state.hands[seat])
        if (p := state.deck_spec.power(state.kind(c))) is not None and p.is_block
    ]
    return [
        *(
            Choice(
                key=f"block:{c}",
                label=f"Block with {state.name(c)}",
                steps=["Block", state.name(c)],
                action=actions.Block(card=c),
            )
            for c in apples
        ),
        Choice(
            key="pass",
            label="Pass" if apples else "Pass (you hold no card that blocks)",
            steps=["Pass"],
            action=actions.Pass(),
        ),
    ]


def anytime(state: SolState, seat: int) -> list[Choice]:
    """Plays a seat may make whenever nothing else resolves: Abilities, Heroes, reordering."""
    found: list[Choice] = []
    hand = state.hands[seat]
    abilities = [
        c for c in _first_of_each_kind(state, hand) if state.deck_spec.group(state.kind(c)) == "ability"
    ]
    for cards, hero in ((abilities, False), (state.heroes[seat], True)):
        if effects.can_play_now(state, hero):
            found += [
                _play(state, seat, c, t, hero)
                for c in cards
                for t in effects.targets(state, seat, effects.power_of(state, c))
                if effects.sensible(state, seat, c, t)
            ]
    if state.pending is None and not state.locked[seat] and state.stage in ("day", "night", "dream"):
        found += _reorders(len(hand))
    return found


@lru_cache(maxsize=256)
def _reorders(cards: int) -> tuple[Choice, ...]:
    """The swaps a hand of ``cards`` cards allows. They name positions only, so
    every hand of that size shares them: built once, not on every query."""
    return tuple(
        Choice(
            key=f"reorder:{i}",
            label=f"Swap my cards #{i} and #{i + 1}",
            steps=["Reorder my hand", *_group(i, cards - 1), f"Swap #{i} and #{i + 1}"],
            action=actions.Reorder(position=i),
            idle=True,
        )
        for i in range(1, cards)
    )


def _play(state: SolState, seat: int, card: int, target: int | None, hero: bool) -> Choice:
    what = "Play Hero" if hero else "Play ability"
    steps = [what, state.name(card)] + ([seat_ref(target)] if target is not None else [])
    on = f" on {seat_ref(target)}" if target is not None else ""
    return Choice(
        key=f"play:{card}:{'me' if target is None else target}",
        label=f"{state.name(card)}{on}",
        steps=steps,
        action=actions.Play(card=card, target=target),
    )


def effect_choices(state: SolState, seat: int) -> list[Choice]:
    pending, step = state.pending, effects.current_step(state)
    if pending is None or step is None or seat != pending.owner:
        return []
    target = pending.target if pending.target is not None else pending.owner
    done = Choice(key="done", label="Done", steps=["Done"], action=actions.Done())
    if step.do == "peek_reorder" and len(pending.chosen) < min(step.n, len(state.hands[target])):
        return [
            Choice(
                key=f"peek:{p}",
                label=f"Look at card {p} of {seat_ref(target)}",
                steps=["Look at", *_group(p, len(state.hands[target])), f"Card {p}"],
                action=actions.Peek(position=p),
            )
            for p in range(1, len(state.hands[target]) + 1)
            if p - 1 not in pending.chosen
        ]
    if step.do in ("peek_reorder", "arrange_target"):
        slot = pending.slots[len(pending.placed)] + 1
        left = [c for c in pending.pool if c not in pending.placed]
        found = [
            Choice(
                key=f"place:{c}",
                label=f"Put {state.name(c)} at #{slot}",
                steps=["Put", state.name(c)],
                action=actions.Place(card=c),
            )
            for c in _first_of_each_kind(state, left)
        ]
        return found + ([done] if step.do == "arrange_target" else [])
    if step.do == "look_take":
        return [
            *(
                Choice(
                    key=f"take:{c}",
                    label=f"Take {state.name(c)}",
                    steps=["Take", state.name(c)],
                    action=actions.Take(card=c),
                )
                for c in _first_of_each_kind(state, state.hands[target])
            ),
            done,
        ]
    if step.do == "discard":
        return [
            *(
                Choice(
                    key=f"discard:{c}",
                    label=f"Discard {_own(state, seat, c)}",
                    steps=["Discard", *_own_steps(state, seat, c)],
                    action=actions.Discard(card=c),
                )
                for c in state.hands[seat]
            ),
            done,
        ]
    return []
