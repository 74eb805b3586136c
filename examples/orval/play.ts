// Plays a whole game of each of Moot's three games through a running server with the fetch
// client orval writes from openapi/openapi.json: every request and answer is one of its types
// (compiled with `tsc --strict`, no casts), each answer narrowed by its status.
//
//   ../typescript/node_modules/.bin/orval -i ../../openapi/openapi.json -o client/moot.ts --client fetch
//   ../typescript/node_modules/.bin/tsc -p . && node dist/play.js http://127.0.0.1:8080

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
} from "./client/moot";
import type { HerforState, HirthState, TaraState } from "./client/moot";

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

/** A refused request: its status and the server's problem. */
function refused(answer: { status: number; data: unknown }): Error {
  return new Error(`${answer.status}: ${JSON.stringify(answer.data)}`);
}

/** One game's three calls, whatever the game: its state type and its client's functions. */
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
  // orval's client asks for paths; a program outside a browser says where they are.
  const base = process.argv[2] ?? "http://127.0.0.1:8080";
  const fetchAt = globalThis.fetch;
  globalThis.fetch = (input, init) => fetchAt(new URL(String(input), base), init);
  const lines = [
    await play<HerforState>("herfor", {
      start: async () => {
        const answer = await herforNewGame({ options: { size: 5 } });
        if (answer.status !== 200) throw refused(answer);
        return answer.data.state;
      },
      legal: async (state) => {
        const answer = await herforLegalMoves({ state });
        if (answer.status !== 200) throw refused(answer);
        return answer.data;
      },
      apply: async (state, move) => {
        const answer = await herforApply({ state, move });
        if (answer.status !== 200) throw refused(answer);
        return answer.data.state;
      },
    }),
    await play<TaraState>("tara", {
      start: async () => {
        const answer = await taraNewGame({});
        if (answer.status !== 200) throw refused(answer);
        return answer.data.state;
      },
      legal: async (state) => {
        const answer = await taraLegalMoves({ state });
        if (answer.status !== 200) throw refused(answer);
        return answer.data;
      },
      apply: async (state, move) => {
        const answer = await taraApply({ state, move });
        if (answer.status !== 200) throw refused(answer);
        return answer.data.state;
      },
    }),
    await play<HirthState>("hirth", {
      start: async () => {
        const answer = await hirthNewGame({ options: { target: 1 } });
        if (answer.status !== 200) throw refused(answer);
        return answer.data.state;
      },
      legal: async (state) => {
        const answer = await hirthLegalMoves({ state });
        if (answer.status !== 200) throw refused(answer);
        return answer.data;
      },
      apply: async (state, move) => {
        const answer = await hirthApply({ state, move });
        if (answer.status !== 200) throw refused(answer);
        return answer.data.state;
      },
    }),
  ];
  for (const line of lines) console.log(line);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
