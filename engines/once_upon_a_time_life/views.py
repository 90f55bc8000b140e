"""What each seat may see. Public: the board and every pawn (who chose which,
and while pawns are chosen the free ones), every purse, how many cards each
player keeps, lost turns, the bank, deck sizes, an open question with its
answers in the order shown, a duel or attack in progress. Private to their
owner: the kept Master and Virus cards. Nobody sees the order of any deck,
nor which shown answer is right before it is answered."""

from __future__ import annotations

from pydantic import BaseModel, Field

from engines.core import View, seat_ref
from engines.once_upon_a_time_life.asking import shown_answers
from engines.once_upon_a_time_life.state import LifeState
from engines.once_upon_a_time_life.tokens import Tokens


class CardFace(BaseModel):
    uid: int
    name: str
    keep: str
    text: str


class SystemInfo(BaseModel):
    name: str
    icon: str
    start: int
    spaces: list[str]


class PawnInfo(BaseModel):
    id: str
    name: str
    mark: str
    colour: str
    system: str


class SeatInfo(BaseModel):
    seat: int
    pawn: PawnInfo | None = None  # None: not chosen yet (then no system nor position either)
    system: str
    icon: str
    position: int | None
    away: str | None
    tokens: Tokens
    cards: int
    skips: int
    worth: float


class QuestionInfo(BaseModel):
    level: str
    text: str
    answers: list[str]
    answerer: int
    purpose: str


class ChallengeInfo(BaseModel):
    kind: str
    by: int
    target: int
    level: str | None
    winner: int | None
    dice: list[list[int]] = Field(default_factory=list)


class LifeView(View):
    stage: str
    turn: int | None
    turn_no: int
    last_roll: int | None
    hemo_to_win: int
    answer_seconds: int
    systems: list[SystemInfo]
    places: list[str]
    free_pawns: list[PawnInfo] = Field(default_factory=list)  # while pawns are chosen
    seats: list[SeatInfo]
    bank: Tokens
    chance_left: int
    bad_luck_left: int
    questions_left: dict[str, int]
    question: QuestionInfo | None = None
    challenge: ChallengeInfo | None = None
    threat: str | None = None
    earned: int = 0
    winner: int | None = None
    hand: list[CardFace] | None = None


def build(state: LifeState, viewer: int | None) -> LifeView:
    board = state.board
    view = LifeView(
        viewer=viewer,
        headline=headline(state),
        stage=state.stage,
        turn=None if state.stage == "over" else state.turn,
        turn_no=state.turn_no,
        last_roll=state.last_roll,
        hemo_to_win=state.options.hemo,
        answer_seconds=state.options.answer_seconds,
        systems=[
            SystemInfo(name=s.name, icon=s.icon, start=board.start(i), spaces=["start", *s.spaces])
            for i, s in enumerate(board.system)
        ],
        places=[p.name for p in board.place],
        seats=[_seat(state, s) for s in range(state.players)],
        free_pawns=[_pawn(state, p.id) for p in state.free_pawns()] if state.stage == "pawn" else [],
        bank=state.bank.model_copy(),
        chance_left=len(state.chance),
        bad_luck_left=len(state.bad_luck),
        questions_left={"easy": len(state.easy_pile), "hard": len(state.hard_pile)},
        threat=state.threat,
        earned=state.earned,
        winner=state.winner,
    )
    if state.question is not None:
        q = state.question
        view.question = QuestionInfo(
            level=q.level,
            text=state.asked().text,
            answers=shown_answers(state),
            answerer=q.answerer,
            purpose=q.purpose,
        )
    if state.challenge is not None:
        c = state.challenge
        view.challenge = ChallengeInfo(
            kind=c.kind,
            by=c.by,
            target=c.target,
            level=c.level,
            winner=c.winner,
            dice=[list(d) for d in c.dice],
        )
    if viewer is not None:
        view.hand = [_face(state, c) for c in state.hands[viewer]]
    return view


def _face(state: LifeState, card: int) -> CardFace:
    spec = state.card("chance", card)
    return CardFace(uid=card, name=spec.name, keep=spec.keep or "", text=spec.text)


def _pawn(state: LifeState, pawn_id: str) -> PawnInfo:
    board = state.board
    pawn = board.pawn_named(pawn_id)
    assert pawn is not None
    system = board.system[board.system_index(pawn.system)].name
    return PawnInfo(id=pawn.id, name=pawn.name, mark=pawn.mark, colour=pawn.colour, system=system)


def _seat(state: LifeState, seat: int) -> SeatInfo:
    chosen = state.pawns[seat]
    system = state.board.system[state.systems[seat]]
    away = state.away[seat]
    placed = chosen is not None or state.stage != "pawn"
    return SeatInfo(
        seat=seat,
        pawn=_pawn(state, chosen) if chosen else None,
        system=system.name if placed else "",
        icon=system.icon if placed else "",
        position=None if away or not placed else state.position[seat],
        away=state.board.place_named(away).name if away else None,
        tokens=state.purses[seat].model_copy(),
        cards=len(state.hands[seat]),
        skips=state.skips[seat],
        worth=state.purses[seat].worth(),
    )


STAGES = {
    "pawn": "choosing a pawn",
    "act": "before the roll",
    "defend": "fending off",
    "pick": "choosing a question",
    "answer": "answering",
    "vabanque": "va banque?",
    "respond": "a challenge",
    "spoils": "the duel's spoils",
}


def headline(state: LifeState) -> str:
    if state.stage == "over":
        return (
            f"Game over — {seat_ref(state.winner)} collects the magic Hemo"
            if state.winner is not None
            else "Game over"
        )
    acting = state.turn
    if state.stage == "answer" and state.question is not None:
        acting = state.question.answerer
    elif state.stage == "respond" and state.challenge is not None:
        acting = state.challenge.target
    elif state.stage == "spoils" and state.challenge is not None and state.challenge.winner is not None:
        acting = state.challenge.winner
    if state.stage == "pawn":
        return f"Choosing pawns — {seat_ref(state.turn)} to choose"
    whose = f"{seat_ref(state.turn)}'s turn, {STAGES[state.stage]}"
    return f"Turn {state.turn_no} · {whose} — {seat_ref(acting)} to act"
