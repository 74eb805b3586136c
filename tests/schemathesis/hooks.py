"""Moot's check of requests the schema allows (replacing schemathesis's positive_data_acceptance).

The document states everything JSON Schema can say about a request: types, ranges, enums, the
move and point notations of Herfor and Tara as patterns, which members go together. What it
cannot say is the game: whether a move is legal in the position, whether a state could arise
(stones on both colours of one point, Tara kings on the board and captured that make more than
a colour has, Hirþ results whose points do not add up), whether a record's lines are a game. The API answers those with 422 and
a problem naming what broke (docs/errors.md). So a schema-valid request may be refused only:

- with status 422,
- for one of those reasons (`ALLOWED` below, by game), and
- naming where: the member at fault (`field`) or the rule (`rule`).

Any other refusal of a schema-valid request (400, 413, 414, a 422 `invalid_options` or
`invalid_request`, an `unreadable_move` where the schema has the notation's pattern…) is a gap
between the document and the server, and fails the run.
"""

import schemathesis

# Refusals of the game's rules, which no schema states, in every game.
RULES = {"illegal_move", "game_over", "invalid_state", "invalid_record"}
# Hirþ's step notation is described, not patterned (its readers check more than a pattern
# could), so a schema-valid Hirþ move may also not read.
ALLOWED = {
    "herfor": RULES,
    "tara": RULES,
    "hirth": RULES | {"unreadable_move"},
}
# The tables' routes refuse what depends on the tables the server keeps, which no schema states:
# whether a table has this id, whose credential this is, whose turn, which ply, whether it is
# over; and what depends on the game the body names (its options, its moves' notation).
TABLES = {
    "unknown_table", "unauthorized", "not_your_turn", "not_waiting", "stale_ply",
    "claim_too_early", "table_finished", "invalid_options", "invalid_request",
    "unreadable_move", "illegal_move", "unknown_player_key", "seat_taken",
}
# The players' routes refuse what depends on the players the server keeps: whether a credential
# is a player's, whether a list's place (`after`) is one it gave, a name's hidden characters.
PLAYERS = {"unknown_player_key", "invalid_query", "invalid_request"}
# The challenges' routes refuse what depends on the challenges and players the server keeps:
# whether a challenge has this id and is still open, whose credential this is, whom it invites,
# how many a player keeps open; and what depends on the game the body names (its options).
CHALLENGES = {
    "unknown_challenge", "challenge_taken", "challenge_closed", "too_many_challenges",
    "own_challenge", "not_invited", "not_your_challenge", "unknown_player_key",
    "invalid_options", "invalid_request", "invalid_query",
}
# A site's key (`Moot-Site-Key`) is a secret of the server's `--site-keys` file, which no schema
# states: any key the schema allows may be no site's.
SECRETS = {"unknown_site_key"}
# Answers that are no refusal of the request's content: the server's share of the machine.
NOT_A_REFUSAL = {429, 503}


def game_of(case):
    parts = case.operation.path.split("/")
    return parts[4] if len(parts) > 4 else None


@schemathesis.check
def refused_only_for_a_games_rule(ctx, response, case):
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return None
    status = response.status_code
    if status < 400 or status >= 500 or status in NOT_A_REFUSAL:
        return None
    if status == 401 and response.json().get("code") in SECRETS:
        return None
    if case.operation.path.startswith("/api/v1/players"):
        code = response.json().get("code")
        if status in (400, 401, 422) and code in PLAYERS:
            return None
        raise AssertionError(f"a schema-valid player request was refused with {status} `{code}`")
    if case.operation.path.startswith("/api/v1/challenges"):
        code = response.json().get("code")
        if status in (400, 401, 403, 404, 409, 422) and code in CHALLENGES:
            return None
        raise AssertionError(f"a schema-valid challenge request was refused with {status} `{code}`")
    if case.operation.path.startswith("/api/v1/tables"):
        code = response.json().get("code")
        if status in (401, 403, 404, 409, 410, 422) and code in TABLES:
            return None
        raise AssertionError(f"a schema-valid table request was refused with {status} `{code}`")
    game = game_of(case)
    allowed = ALLOWED.get(game, set())
    try:
        problem = response.json()
    except ValueError:
        raise AssertionError(f"a schema-valid request was refused with {status} and no problem body")
    code = problem.get("code")
    detail = problem.get("detail")
    if status != 422 or code not in allowed:
        raise AssertionError(
            f"a schema-valid request was refused with {status} `{code}`: only 422 "
            f"{sorted(allowed)} may refuse what the schema allows ({detail})"
        )
    if not (problem.get("field") or problem.get("rule")):
        raise AssertionError(f"the refusal `{code}` names neither the member nor the rule ({detail})")
    return None
