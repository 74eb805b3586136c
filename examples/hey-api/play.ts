// Plays a whole game of each of Moot's three games through a running server with the SDK
// @hey-api/openapi-ts writes from openapi/openapi.json: every request and answer is one of its
// types (compiled with `tsc --strict`, no casts).
//
//   ../typescript/node_modules/.bin/openapi-ts -i ../../openapi/openapi.json -o client
//   ../typescript/node_modules/.bin/tsc -p . && node dist/play.js http://127.0.0.1:8080

import { client } from "./client/client.gen";
import {
  herforApply,
  herforLegalMoves,
  herforNewGame,
  hirthApply,
  hirthLegalMoves,
  hirthNewGame,
  taraApply,
  taraLegalMoves,
  taraNewGame,
} from "./client";
import type { HerforState, HirthState, TaraState } from "./client";

/** A game longer than this is a bug in the server or here. */
const MAX_PLIES = 3000;
/** Plies before a game that wanders (random Hirþ can) is ended by an offer and giving up. */
const CALM = 400;

/** A seeded choice (a linear congruential generator), so that a run can be repeated. */
let seed = 1;
function choose<T>(items: T[]): T {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return items[seed % items.length];
}

/** The move to play: a random quiet one, or an offer or giving up once the game wanders. */
function pick(moves: string[], plies: number): string {
  const calm = moves.filter((m) => m !== "offer" && m !== "give-up");
  const ending = moves.filter((m) => m === "give-up" || m === "offer");
  return (plies >= CALM || calm.length === 0) && ending.length > 0 ? ending[0] : choose(calm);
}

/** One game's three calls, whatever the game: its state type and its SDK's functions. */
interface Rules<S> {
  start(): Promise<S>;
  legal(state: S): Promise<{ moves: string[]; status: { phase: string } }>;
  apply(state: S, move: string): Promise<S>;
}

async function play<S>(game: string, rules: Rules<S>): Promise<string> {
  let state = await rules.start();
  let plies = 0;
  for (;;) {
    const legal = await rules.legal(state);
    if (legal.moves.length === 0) {
      return `${game}: ${plies} plies, ended: ${legal.status.phase}`;
    }
    state = await rules.apply(state, pick(legal.moves, plies));
    plies += 1;
    if (plies >= MAX_PLIES) throw new Error(`${game}: the game did not end`);
  }
}

async function main(): Promise<void> {
  client.setConfig({ baseUrl: process.argv[2] ?? "http://127.0.0.1:8080" });
  // Every call throws the server's problem rather than returning it.
  const strict = { throwOnError: true } as const;
  const lines = [
    await play<HerforState>("herfor", {
      start: async () =>
        (await herforNewGame({ ...strict, body: { options: { size: 5 } } })).data.state,
      legal: async (state) => (await herforLegalMoves({ ...strict, body: { state } })).data,
      apply: async (state, move) =>
        (await herforApply({ ...strict, body: { state, move } })).data.state,
    }),
    await play<TaraState>("tara", {
      start: async () => (await taraNewGame({ ...strict, body: {} })).data.state,
      legal: async (state) => (await taraLegalMoves({ ...strict, body: { state } })).data,
      apply: async (state, move) =>
        (await taraApply({ ...strict, body: { state, move } })).data.state,
    }),
    await play<HirthState>("hirth", {
      start: async () =>
        (await hirthNewGame({ ...strict, body: { options: { target: 1 } } })).data.state,
      legal: async (state) => (await hirthLegalMoves({ ...strict, body: { state } })).data,
      apply: async (state, move) =>
        (await hirthApply({ ...strict, body: { state, move } })).data.state,
    }),
  ];
  for (const line of lines) console.log(line);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
