// Plays Moot's three games through a running server with a client generated from
// openapi/openapi.json (openapi-typescript types, openapi-fetch requests): a whole Herfor game on
// the size-3 board, a whole game of The High Kings of Tara, several turns of Hirþ, and a whole
// Herfor game at a table Moot keeps, each seat playing with its own credential, and one more
// played by two player keys that find their turn in their lists of tables and read it back from
// their feeds, then play again: one offers a rematch, the other accepts it.
//
//   npm run generate && npm run build && node dist/play.js http://127.0.0.1:8080
//
// Every request and answer is typed from the document; no casts. A problem stops the program.

import createClient from "openapi-fetch";
import type { components, paths } from "./moot.js";

type Schemas = components["schemas"];
type Problem = Schemas["Problem"];

/** A game longer than this is a bug in the server or here. */
const MAX_PLIES = 2000;

const baseUrl = process.argv[2] ?? "http://127.0.0.1:8080";
const client = createClient<paths>({ baseUrl });

/** The answer's data, or the program stops with the problem the server reported. */
function answer<T>(result: { data?: T; error?: Problem | undefined }): T {
  if (result.error !== undefined) {
    throw new Error(`${result.error.status} ${result.error.code}: ${result.error.detail}`);
  }
  if (result.data === undefined) {
    throw new Error("no answer the document declares");
  }
  return result.data;
}

/** A whole Herfor game on the size-3 board: each player takes the first legal move. */
async function playHerfor(): Promise<void> {
  const game = answer(
    await client.POST("/api/v1/games/herfor/new", {
      body: { options: { size: 3, pie: false } },
    }),
  );
  let state: Schemas["HerforState"] = game.state;
  let status: Schemas["HerforStatus"] = game.status;
  let plies = 0;
  while (status.phase === "ongoing") {
    const { moves } = answer(
      await client.POST("/api/v1/games/herfor/legal-moves", { body: { state } }),
    );
    const move = moves[0];
    if (move === undefined) throw new Error("an ongoing game has a legal move");
    const applied = answer(
      await client.POST("/api/v1/games/herfor/apply", { body: { state, move } }),
    );
    state = applied.state;
    status = applied.status;
    plies += 1;
    if (plies >= MAX_PLIES) throw new Error("Herfor never ended");
  }
  const { score } = answer(
    await client.POST("/api/v1/games/herfor/score", { body: { state } }),
  );
  console.log(
    `herfor: ${plies} plies, ${status.reason}; black ${score.black_total}, white ${score.white_total}`,
  );
}

/** A whole Tara game: each player plays the computer's best move at the easy strength. */
async function playTara(): Promise<void> {
  const game = answer(await client.POST("/api/v1/games/tara/new", { body: {} }));
  let state: Schemas["TaraState"] = game.state;
  let status: Schemas["TaraStatus"] = game.status;
  let plies = 0;
  while (status.phase === "ongoing") {
    const analysis = answer(
      await client.POST("/api/v1/games/tara/evaluate", {
        body: { state, strength: "easy", seed: plies },
      }),
    );
    const move = analysis.best_move;
    if (typeof move !== "string") throw new Error("an ongoing game has a best move");
    const applied = answer(
      await client.POST("/api/v1/games/tara/apply", { body: { state, move } }),
    );
    state = applied.state;
    status = applied.status;
    plies += 1;
    if (plies >= MAX_PLIES) throw new Error("Tara never ended");
  }
  const { score } = answer(await client.POST("/api/v1/games/tara/score", { body: { state } }));
  console.log(
    `tara: ${plies} plies, ${status.reason}; red ${score.red.kingdoms} kingdoms, blue ${score.blue.kingdoms} kingdoms`,
  );
}

/** `turns` turns of a single Hirþ game: each move the computer's best at the easy strength. */
async function playHirth(turns: number): Promise<void> {
  const game = answer(
    await client.POST("/api/v1/games/hirth/new", { body: { options: { target: 1 } } }),
  );
  let state: Schemas["HirthState"] = game.state;
  let status: Schemas["HirthStatus"] = game.status;
  let played = 0;
  let plies = 0;
  while (played < turns && status.phase === "ongoing") {
    const seat: Schemas["Seat"] = status.to_act;
    const analysis = answer(
      await client.POST("/api/v1/games/hirth/evaluate", {
        body: { state, strength: "easy", seed: plies },
      }),
    );
    const move = analysis.best_move;
    if (typeof move !== "string") throw new Error("an ongoing game has a best move");
    const applied = answer(
      await client.POST("/api/v1/games/hirth/apply", { body: { state, move } }),
    );
    state = applied.state;
    status = applied.status;
    plies += 1;
    if (status.phase !== "ongoing" || status.to_act !== seat) played += 1;
    if (plies >= MAX_PLIES) throw new Error("a Hirþ turn never ended");
  }
  console.log(`hirth: ${played} turns in ${plies} moves, round ${state.round}`);
}

/** The table, known to be a Herfor table. */
function herforTable(table: Schemas["TableResponse"]): Schemas["HerforTableResponse"] {
  if (table.game !== "herfor") throw new Error("a Herfor table");
  return table;
}

/** A Herfor size-3 table to its end: each seat, when the table awaits it, plays the first legal
 * move with its own credential and the ply it saw. */
async function playTable(): Promise<void> {
  const created = answer(
    await client.POST("/api/v1/tables", {
      body: { game: "herfor", options: { size: 3, pie: false }, names: ["Ana", "Bo"] },
    }),
  );
  let table = herforTable(created.table);
  const credentials = new Map(created.seats.map((seat) => [seat.seat, seat.credential]));
  let plies = 0;
  while (table.status === "ongoing") {
    const seat = table.to_act;
    const credential = seat === undefined || seat === null ? undefined : credentials.get(seat);
    if (credential === undefined) throw new Error("an ongoing table awaits a seat");
    const { moves } = answer(
      await client.POST("/api/v1/games/herfor/legal-moves", { body: { state: table.state } }),
    );
    const move = moves[0];
    if (move === undefined) throw new Error("an ongoing game has a legal move");
    table = herforTable(
      answer(
        await client.POST("/api/v1/tables/{id}/moves", {
          params: {
            path: { id: table.id },
            // A key of its own for each move (the table and its ply): a move whose answer was
            // lost is sent again with it and made once.
            header: {
              Authorization: `Bearer ${credential}`,
              "Idempotency-Key": `${table.id}-${table.ply}`,
            },
          },
          body: { move, ply: table.ply },
        }),
      ),
    );
    plies += 1;
    if (plies >= MAX_PLIES) throw new Error("the table never ended");
  }
  const again = answer(
    await client.GET("/api/v1/tables/{id}", { params: { path: { id: table.id } } }),
  );
  if (again.ply !== plies) throw new Error("the table kept every move");
  console.log(`table: ${plies} plies, won by the ${table.result?.winner ?? "nobody"} seat`);
}

await playHerfor();
await playTara();
await playHirth(6);
/** A player's feed from its first event to its `table_finished`: a server-sent event stream,
 * read with fetch, each `data` typed by the document. */
async function feedUntilFinished(credential: string): Promise<Schemas["PlayerFeedEvent"][]> {
  const response = await fetch(`${baseUrl}/api/v1/players/me/events`, {
    headers: { Authorization: `Bearer ${credential}`, "Last-Event-ID": "0" },
  });
  if (response.body === null) throw new Error("the feed has no body");
  const events: Schemas["PlayerFeedEvent"][] = [];
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of response.body) {
    pending += decoder.decode(chunk, { stream: true });
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      if (!line.startsWith("data:")) continue;
      const event: Schemas["PlayerFeedEvent"] = JSON.parse(line.slice("data:".length));
      events.push(event);
      // Leaving the loop cancels the stream.
      if (event.type === "table_finished") return events;
    }
  }
  throw new Error("the feed ended before the table did");
}

/** The tables of the player with `credential`, filtered as `query` says. */
async function myTables(
  credential: string,
  query: { to_act?: "me"; status?: "ongoing" | "finished" },
): Promise<Schemas["PlayerTableEntry"][]> {
  const listed = answer(
    await client.GET("/api/v1/players/me/tables", {
      params: { query, header: { Authorization: `Bearer ${credential}` } },
    }),
  );
  return listed.tables;
}

/** Two player keys at a Herfor size-3 table: before each move the player to act finds the table
 * in its list with `to_act=me` (the other finds nothing there) and moves with its player
 * credential. Then the finished table is in its `status=finished` list, and its feed holds every
 * move once, in order, and one `your_turn` for each of its turns. */
async function playAsPlayers(): Promise<void> {
  const [cass, dara] = [
    answer(await client.POST("/api/v1/players", { body: { name: "Cass" } })),
    answer(await client.POST("/api/v1/players", { body: { name: "Dara" } })),
  ];
  const credentials = new Map<Schemas["Seat"], string>([
    ["first", cass.credential],
    ["second", dara.credential],
  ]);
  const created = answer(
    await client.POST("/api/v1/tables", {
      body: {
        game: "herfor",
        options: { size: 3, pie: false },
        days_per_move: 3,
        player_credentials: [cass.credential, dara.credential],
      },
    }),
  );
  let table = herforTable(created.table);
  let firstTurns = 0;
  while (table.status === "ongoing") {
    const seat = table.to_act;
    if (seat === undefined || seat === null) throw new Error("an ongoing table awaits a seat");
    const waiting = seat === "first" ? "second" : "first";
    const credential = credentials.get(seat) ?? "";
    const mine = await myTables(credential, { to_act: "me" });
    if (mine.length !== 1 || mine[0]?.id !== table.id || mine[0]?.your_turn !== true) {
      throw new Error(`the player to act does not find its table: ${JSON.stringify(mine)}`);
    }
    if (mine[0]?.opponent_name !== (seat === "first" ? "Dara" : "Cass")) {
      throw new Error("the list names the opponent");
    }
    if ((await myTables(credentials.get(waiting) ?? "", { to_act: "me" })).length !== 0) {
      throw new Error("the waiting player has nothing to play");
    }
    const { moves } = answer(
      await client.POST("/api/v1/games/herfor/legal-moves", { body: { state: table.state } }),
    );
    const move = moves[0];
    if (move === undefined) throw new Error("an ongoing game has a legal move");
    if (seat === "first") firstTurns += 1;
    table = herforTable(
      answer(
        await client.POST("/api/v1/tables/{id}/moves", {
          params: { path: { id: table.id }, header: { Authorization: `Bearer ${credential}` } },
          body: { move, ply: table.ply },
        }),
      ),
    );
    if (table.ply >= MAX_PLIES) throw new Error("the table never ended");
  }
  const finished = await myTables(cass.credential, { status: "finished" });
  if (finished.length !== 1 || finished[0]?.id !== table.id || !finished[0]?.result) {
    throw new Error("the finished table, with its result, in the finished list");
  }
  const feed = await feedUntilFinished(cass.credential);
  if (feed.some((event, i) => event.seq !== i + 1)) throw new Error("every event once, in order");
  const moved = feed.filter((event) => event.type === "move").map((event) => event.ply);
  if (moved.length !== table.ply || moved.some((ply, i) => ply !== i + 1)) {
    throw new Error(`every move once: ${JSON.stringify(moved)}`);
  }
  const yourTurns = feed.filter((event) => event.type === "your_turn").length;
  if (yourTurns !== firstTurns) throw new Error(`${yourTurns} your_turn for ${firstTurns} turns`);
  console.log(`players: ${table.ply} plies, ${feed.length} events in the first player's feed`);
  await playAgain(table.id, cass.credential, dara.credential);
}

/** At the finished table the first player offers a rematch and the second accepts it: a new
 * table between the same players, their seats swapped, linked to the old one both ways, found
 * by each player in its list of ongoing tables. */
async function playAgain(finished: string, first: string, second: string): Promise<void> {
  const rematch = async (credential: string) =>
    answer(
      await client.POST("/api/v1/tables/{id}/rematch", {
        params: { path: { id: finished }, header: { Authorization: `Bearer ${credential}` } },
      }),
    );
  const offered = await rematch(first);
  if (offered.status !== "offered" || offered.table.rematch_offered_by !== "first") {
    throw new Error(`the first seat's offer stands: ${JSON.stringify(offered.table)}`);
  }
  const accepted = await rematch(second);
  if (accepted.status !== "accepted" || accepted.rematch === undefined || accepted.rematch === null) {
    throw new Error("the second seat's acceptance opens the rematch");
  }
  const opened = herforTable(accepted.rematch);
  if (accepted.table.rematched_by !== opened.id || opened.rematch_of !== finished) {
    throw new Error("the two tables link to each other");
  }
  for (const [credential, sits] of [
    [first, "second"],
    [second, "first"],
  ] as const) {
    const ongoing = await myTables(credential, { status: "ongoing" });
    if (ongoing.length !== 1 || ongoing[0]?.id !== opened.id || ongoing[0]?.seat !== sits) {
      throw new Error(`seats swapped: ${JSON.stringify(ongoing)}`);
    }
  }
  console.log(`rematch: ${opened.id} of ${finished}, seats swapped`);
  await takeBack(opened, second, first);
}

/** At a fresh table the first seat plays, asks to take its move back, and the second seat
 * lets it: the table is back at its start, the first seat to move again. */
async function takeBack(
  table: Schemas["HerforTableResponse"],
  first: string,
  second: string,
): Promise<void> {
  const { moves } = answer(
    await client.POST("/api/v1/games/herfor/legal-moves", { body: { state: table.state } }),
  );
  const move = moves[0];
  if (move === undefined) throw new Error("a fresh game has a legal move");
  answer(
    await client.POST("/api/v1/tables/{id}/moves", {
      params: { path: { id: table.id }, header: { Authorization: `Bearer ${first}` } },
      body: { move, ply: 0 },
    }),
  );
  const takeback = async (credential: string) =>
    answer(
      await client.POST("/api/v1/tables/{id}/takeback", {
        params: { path: { id: table.id }, header: { Authorization: `Bearer ${credential}` } },
      }),
    );
  const asked = await takeback(first);
  if (asked.status !== "asked" || asked.table.takeback_asked_by !== "first") {
    throw new Error(`the first seat's request stands: ${JSON.stringify(asked.table)}`);
  }
  const taken = await takeback(second);
  if (taken.status !== "taken_back" || taken.table.ply !== 0 || taken.table.to_act !== "first") {
    throw new Error(`the move is taken back: ${JSON.stringify(taken.table)}`);
  }
  console.log(`takeback: ${move} taken back at ${table.id}`);
}

/** A player offers Herfor to anyone on a bank clock (Fischer: 72 h, 24 h more a move, at most
 * 240 h), another finds it in the list filtered by game and accepts it without a player key (one
 * is made for it): the table opens, both seated, on the clock offered. */
async function meetByChallenge(): Promise<void> {
  const eve = answer(await client.POST("/api/v1/players", { body: { name: "Eve" } }));
  const offered = answer(
    await client.POST("/api/v1/challenges", {
      params: { header: { Authorization: `Bearer ${eve.credential}` } },
      body: {
        game: "herfor",
        options: { size: 3, pie: false },
        seat: "first",
        clock: { kind: "bank", initial_hours: 72, increment_hours: 24, max_hours: 240 },
      },
    }),
  );
  const listed = answer(
    await client.GET("/api/v1/challenges", { params: { query: { game: "herfor" } } }),
  );
  if (!listed.challenges.some((c) => c.id === offered.id)) {
    throw new Error("an open challenge is listed");
  }
  const accepted = answer(
    await client.POST("/api/v1/challenges/{id}/accept", {
      params: { path: { id: offered.id } },
      body: { name: "Finn" },
    }),
  );
  const table = herforTable(accepted.table);
  if (accepted.seat !== "second" || !accepted.player.credential) {
    throw new Error(`a player made for Finn, in the second seat: ${JSON.stringify(accepted.player)}`);
  }
  if (table.clock?.kind !== "bank") throw new Error(`the clock offered: ${JSON.stringify(table.clock)}`);
  console.log(`challenge: ${offered.id} accepted, table ${table.id} on a ${table.clock.initial_hours} h bank`);
}

await playTable();
await playAsPlayers();
await meetByChallenge();
