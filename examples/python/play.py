"""Plays Moot's three games through a running server with the client generated from
openapi/openapi.json (openapi-python-client): a whole Herfor game on the size-3 board, a whole
game of The High Kings of Tara, several turns of Hirþ, a whole Herfor game at a table Moot
keeps, each seat playing with its own credential, and one more played by two player keys that
find their turn in their lists of tables and read it back from their feeds, then play again:
one offers a rematch, the other accepts it.

    openapi-python-client generate --path ../../openapi/openapi.json --meta none \
        --output-path moot_client
    python3 play.py http://127.0.0.1:8080

Every request and answer is a generated type; a problem answer stops the program.
"""

import json
import sys
import uuid
from typing import TypeVar

from moot_client import Client
from moot_client.api.herfor import (
    herfor_apply,
    herfor_legal_moves,
    herfor_new_game,
    herfor_score,
)
from moot_client.api.challenges import accept_challenge, create_challenge, list_challenges
from moot_client.api.hirth import hirth_apply, hirth_evaluate, hirth_new_game
from moot_client.api.players import create_player, my_tables
from moot_client.api.tables import ask_takeback, create_table, get_table, offer_rematch, play_move
from moot_client.api.tara import tara_apply, tara_evaluate, tara_new_game, tara_score
from moot_client.models import (
    AcceptChallengeRequest,
    ChallengeSeat,
    ClockKind,
    CreatePlayerRequest,
    HerforCreateChallengeRequest,
    HerforApplyRequest,
    HerforCreateTableRequest,
    HerforNewGameRequest,
    HerforOptions,
    HerforStateRequest,
    HerforStatusFinished,
    HerforTableResponse,
    HirthApplyRequest,
    HirthEvaluateRequest,
    HirthNewGameRequest,
    HirthOptions,
    HirthStatusOngoing,
    ListChallengesGame,
    MyTablesStatus,
    MyTablesToAct,
    RematchStatus,
    PlayerEventType,
    PlayerFeedEvent,
    Problem,
    Seat,
    StrengthName,
    TakebackStatus,
    TableClock,
    TableMoveRequest,
    TableStatus,
    TaraApplyRequest,
    TaraEvaluateRequest,
    TaraNewGameRequest,
    TaraStateRequest,
    TaraStatusFinished,
)

T = TypeVar("T")

#: A game longer than this is a bug in the server or here.
MAX_PLIES = 2000


def answer(result: T | Problem | None) -> T:
    """The answer, or the program stops with the problem the server reported."""
    if result is None:
        sys.exit("no answer the document declares")
    if isinstance(result, Problem):
        sys.exit(f"{result.status} {result.code}: {result.detail}")
    return result


def play_herfor(client: Client) -> None:
    """A whole game on the size-3 board: each player takes the first legal move."""
    game = answer(
        herfor_new_game.sync(
            client=client,
            body=HerforNewGameRequest(options=HerforOptions(size=3, pie=False)),
        )
    )
    state, status = game.state, game.status
    plies = 0
    while not isinstance(status, HerforStatusFinished):
        moves = answer(
            herfor_legal_moves.sync(client=client, body=HerforStateRequest(state=state))
        ).moves
        applied = answer(
            herfor_apply.sync(
                client=client, body=HerforApplyRequest(state=state, move=moves[0])
            )
        )
        state, status = applied.state, applied.status
        plies += 1
        assert plies < MAX_PLIES, "Herfor never ended"
    score = answer(herfor_score.sync(client=client, body=HerforStateRequest(state=state))).score
    print(
        f"herfor: {plies} plies, {status.reason}; black {score.black_total}, white {score.white_total}"
    )


def play_tara(client: Client) -> None:
    """A whole game: each player plays the computer's best move at the easy strength."""
    game = answer(tara_new_game.sync(client=client, body=TaraNewGameRequest()))
    state, status = game.state, game.status
    plies = 0
    while not isinstance(status, TaraStatusFinished):
        analysis = answer(
            tara_evaluate.sync(
                client=client,
                body=TaraEvaluateRequest(state=state, strength=StrengthName.EASY, seed=plies),
            )
        )
        move = analysis.best_move
        assert isinstance(move, str), "an ongoing game has a best move"
        applied = answer(
            tara_apply.sync(client=client, body=TaraApplyRequest(state=state, move=move))
        )
        state, status = applied.state, applied.status
        plies += 1
        assert plies < MAX_PLIES, "Tara never ended"
    score = answer(tara_score.sync(client=client, body=TaraStateRequest(state=state))).score
    print(
        f"tara: {plies} plies, {status.reason}; red {score.red.kingdoms} kingdoms, "
        f"blue {score.blue.kingdoms} kingdoms"
    )


def play_hirth(client: Client, turns: int) -> None:
    """A single game (target 1), `turns` turns: each move the computer's best at the easy
    strength; a turn ends when the other seat is to act."""
    game = answer(
        hirth_new_game.sync(
            client=client, body=HirthNewGameRequest(options=HirthOptions(target=1))
        )
    )
    state, status = game.state, game.status
    played, plies = 0, 0
    while played < turns and isinstance(status, HirthStatusOngoing):
        seat = status.to_act
        analysis = answer(
            hirth_evaluate.sync(
                client=client,
                body=HirthEvaluateRequest(state=state, strength=StrengthName.EASY, seed=plies),
            )
        )
        move = analysis.best_move
        assert isinstance(move, str), "an ongoing game has a best move"
        applied = answer(
            hirth_apply.sync(client=client, body=HirthApplyRequest(state=state, move=move))
        )
        state, status = applied.state, applied.status
        plies += 1
        if not isinstance(status, HirthStatusOngoing) or status.to_act != seat:
            played += 1
        assert plies < MAX_PLIES, "a Hirþ turn never ended"
    print(f"hirth: {played} turns in {plies} moves, round {state.round_}")


def play_table(client: Client) -> None:
    """A Herfor size-3 table to its end: each seat, when the table awaits it, plays the first
    legal move with its own credential and the ply it saw, each with an Idempotency-Key so that a
    move whose answer is lost can be sent again (the first is, to show it made once)."""
    created = answer(
        create_table.sync(
            client=client,
            body=HerforCreateTableRequest(
                game="herfor", options=HerforOptions(size=3, pie=False), names=["Ana", "Bo"]
            ),
        )
    )
    table = created.table
    assert isinstance(table, HerforTableResponse), "a Herfor table"
    credentials = {seat.seat: seat.credential for seat in created.seats}
    plies = 0
    while table.status == TableStatus.ONGOING:
        assert isinstance(table.to_act, Seat), "an ongoing table awaits a seat"
        moves = answer(
            herfor_legal_moves.sync(client=client, body=HerforStateRequest(state=table.state))
        ).moves
        key = str(uuid.uuid4())
        sends = 2 if plies == 0 else 1
        for _ in range(sends):
            moved = answer(
                play_move.sync(
                    table.id,
                    client=client,
                    body=TableMoveRequest(move=moves[0], ply=table.ply),
                    authorization=f"Bearer {credentials[table.to_act]}",
                    idempotency_key=key,
                )
            )
            assert isinstance(moved, HerforTableResponse), "the same table"
            assert moved.ply == plies + 1, "sent twice with one key, the move is made once"
        table = moved
        plies += 1
        assert plies < MAX_PLIES, "the table never ended"
    again = answer(get_table.sync(table.id, client=client))
    assert isinstance(again, HerforTableResponse) and again.ply == plies
    winner = table.result.winner if table.result else None
    print(f"table: {plies} plies, won by the {winner.value if winner else 'nobody'} seat")


def feed_until_finished(client: Client, credential: str) -> list[PlayerFeedEvent]:
    """A player's feed from its first event to its `table_finished`, each event read into the
    generated type (a server-sent event stream, so read with the client's own httpx)."""
    events: list[PlayerFeedEvent] = []
    headers = {"Authorization": f"Bearer {credential}", "Last-Event-ID": "0"}
    with client.get_httpx_client().stream(
        "GET", "/api/v1/players/me/events", headers=headers
    ) as stream:
        for line in stream.iter_lines():
            if not line.startswith("data:"):
                continue
            event = PlayerFeedEvent.from_dict(json.loads(line[len("data:") :]))
            events.append(event)
            if event.type_ == PlayerEventType.TABLE_FINISHED:
                return events
    raise AssertionError("the feed ended before the table did")


def play_as_players(client: Client) -> None:
    """Two player keys at a Herfor size-3 table: before each move the player to act finds the
    table in its list with `to_act=me` (the other finds nothing there) and moves with its player
    credential. Then the finished table is in its `status=finished` list, and its feed holds
    every move once, in order, and one `your_turn` for each of its turns."""
    players = [
        answer(create_player.sync(client=client, body=CreatePlayerRequest(name=name)))
        for name in ("Cass", "Dara")
    ]
    credential = {Seat.FIRST: players[0].credential, Seat.SECOND: players[1].credential}
    created = answer(
        create_table.sync(
            client=client,
            body=HerforCreateTableRequest(
                game="herfor",
                options=HerforOptions(size=3, pie=False),
                days_per_move=3,
                player_credentials=[players[0].credential, players[1].credential],
            ),
        )
    )
    table = created.table
    assert isinstance(table, HerforTableResponse), "a Herfor table"
    turns = {Seat.FIRST: 0, Seat.SECOND: 0}
    while table.status == TableStatus.ONGOING:
        assert isinstance(table.to_act, Seat), "an ongoing table awaits a seat"
        waiting = Seat.SECOND if table.to_act == Seat.FIRST else Seat.FIRST
        mine = answer(
            my_tables.sync(
                client=client,
                to_act=MyTablesToAct.ME,
                authorization=f"Bearer {credential[table.to_act]}",
            )
        ).tables
        assert [(t.id, t.your_turn, t.ply) for t in mine] == [(table.id, True, table.ply)]
        assert mine[0].opponent_name == ("Dara" if table.to_act == Seat.FIRST else "Cass")
        theirs = answer(
            my_tables.sync(
                client=client,
                to_act=MyTablesToAct.ME,
                authorization=f"Bearer {credential[waiting]}",
            )
        ).tables
        assert theirs == [], "the waiting player has nothing to play"
        moves = answer(
            herfor_legal_moves.sync(client=client, body=HerforStateRequest(state=table.state))
        ).moves
        turns[table.to_act] += 1
        moved = answer(
            play_move.sync(
                table.id,
                client=client,
                body=TableMoveRequest(move=moves[0], ply=table.ply),
                authorization=f"Bearer {credential[table.to_act]}",
            )
        )
        assert isinstance(moved, HerforTableResponse), "the same table"
        table = moved
        assert table.ply < MAX_PLIES, "the table never ended"
    finished = answer(
        my_tables.sync(
            client=client,
            status=MyTablesStatus.FINISHED,
            authorization=f"Bearer {credential[Seat.FIRST]}",
        )
    ).tables
    assert [(t.id, t.ply) for t in finished] == [(table.id, table.ply)]
    assert finished[0].result is not None, "a finished table has its result"
    feed = feed_until_finished(client, credential[Seat.FIRST])
    assert [e.seq for e in feed] == list(range(1, len(feed) + 1)), "every event once, in order"
    moves_told = [e.ply for e in feed if e.type_ == PlayerEventType.MOVE]
    assert moves_told == list(range(1, table.ply + 1)), "every move, once"
    your_turns = sum(1 for e in feed if e.type_ == PlayerEventType.YOUR_TURN)
    assert your_turns == turns[Seat.FIRST], f"{your_turns} your_turn for {turns[Seat.FIRST]} turns"
    print(f"players: {table.ply} plies, {len(feed)} events in the first player's feed")
    play_again(client, table.id, credential)


def play_again(client: Client, finished: str, credential: dict[Seat, str]) -> None:
    """At the finished table the first player offers a rematch and the second accepts it: a
    new table between the same players, their seats swapped, linked to the old one both ways,
    found by each player in its list of ongoing tables."""
    offered = answer(
        offer_rematch.sync(
            finished, client=client, authorization=f"Bearer {credential[Seat.FIRST]}"
        )
    )
    assert offered.status == RematchStatus.OFFERED
    assert offered.table.rematch_offered_by == Seat.FIRST
    accepted = answer(
        offer_rematch.sync(
            finished, client=client, authorization=f"Bearer {credential[Seat.SECOND]}"
        )
    )
    assert accepted.status == RematchStatus.ACCEPTED
    rematch = accepted.rematch
    assert isinstance(rematch, HerforTableResponse), "a Herfor table again"
    assert accepted.table.rematched_by == rematch.id and rematch.rematch_of == finished
    for seat, sits in ((Seat.FIRST, Seat.SECOND), (Seat.SECOND, Seat.FIRST)):
        ongoing = answer(
            my_tables.sync(
                client=client,
                status=MyTablesStatus.ONGOING,
                authorization=f"Bearer {credential[seat]}",
            )
        ).tables
        assert [(t.id, t.seat) for t in ongoing] == [(rematch.id, sits)], "seats swapped"
    print(f"rematch: {rematch.id} of {finished}, seats swapped")
    take_back(client, rematch, credential[Seat.SECOND], credential[Seat.FIRST])


def take_back(client: Client, table: HerforTableResponse, first: str, second: str) -> None:
    """At a fresh table the first seat plays, asks to take its move back, and the second seat
    lets it: the table is back at its start, the first seat to move again."""
    moves = answer(
        herfor_legal_moves.sync(client=client, body=HerforStateRequest(state=table.state))
    ).moves
    answer(
        play_move.sync(
            table.id,
            client=client,
            body=TableMoveRequest(move=moves[0], ply=0),
            authorization=f"Bearer {first}",
        )
    )
    asked = answer(ask_takeback.sync(table.id, client=client, authorization=f"Bearer {first}"))
    assert asked.status == TakebackStatus.ASKED and asked.table.takeback_asked_by == Seat.FIRST
    accepted = answer(ask_takeback.sync(table.id, client=client, authorization=f"Bearer {second}"))
    assert accepted.status == TakebackStatus.TAKEN_BACK
    assert accepted.table.ply == 0 and accepted.table.to_act == Seat.FIRST, "back at the start"
    print(f"takeback: {moves[0]} taken back at {table.id}")


def meet_by_challenge(client: Client) -> None:
    """A player offers Herfor to anyone on a bank clock (Fischer: 72 h, 24 h more a move, at
    most 240 h), another finds it in the list filtered by game and accepts it without a player
    key (one is made for it): the table opens, both seated, on the clock offered."""
    eve = answer(create_player.sync(client=client, body=CreatePlayerRequest(name="Eve")))
    offered = answer(
        create_challenge.sync(
            client=client,
            body=HerforCreateChallengeRequest(
                game="herfor",
                options=HerforOptions(size=3, pie=False),
                seat=ChallengeSeat.FIRST,
                clock=TableClock(
                    kind=ClockKind.BANK, initial_hours=72, increment_hours=24, max_hours=240
                ),
            ),
            authorization=f"Bearer {eve.credential}",
        )
    )
    listed = answer(list_challenges.sync(client=client, game=ListChallengesGame.HERFOR))
    assert offered.id in [c.id for c in listed.challenges], "an open challenge is listed"
    accepted = answer(
        accept_challenge.sync(offered.id, client=client, body=AcceptChallengeRequest(name="Finn"))
    )
    table = accepted.table
    assert isinstance(table, HerforTableResponse), "a Herfor table"
    assert accepted.seat == Seat.SECOND and accepted.player.credential, "a player made for Finn"
    assert table.clock is not None and table.clock.kind == ClockKind.BANK, "the clock offered"
    print(f"challenge: {offered.id} accepted, table {table.id} on a {table.clock.initial_hours} h bank")


def main() -> None:
    base_url = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
    client = Client(base_url=base_url, raise_on_unexpected_status=True, timeout=60.0)
    play_herfor(client)
    play_tara(client)
    play_hirth(client, turns=6)
    play_table(client)
    play_as_players(client)
    meet_by_challenge(client)


if __name__ == "__main__":
    main()
