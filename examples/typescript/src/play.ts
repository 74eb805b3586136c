// Plays Moot's three games through a running server with a client generated from
// openapi/openapi.json (openapi-typescript types, openapi-fetch requests): a whole Herfor game on
// the size-3 board, a whole game of The High Kings of Tara, several turns of Hirþ, and a whole
// Herfor game at a table Moot keeps, each seat playing with its own credential.
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
await playTable();
