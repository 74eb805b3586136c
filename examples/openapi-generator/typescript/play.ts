// Plays a whole game of each of Moot's three games through a running server with the
// TypeScript client openapi-generator writes from openapi/openapi.json (typescript-fetch):
// every request and answer is one of its types (compiled with `tsc --strict`, no casts), and
// its models turn their camelCase members into the document's names on the way out.
//
//   openapi-generator-cli generate -i ../../../openapi/openapi.json -g typescript-fetch -o client
//   tsc -p . && node dist/play.js http://127.0.0.1:8080

import {
  Configuration,
  HerforApi,
  HerforState,
  HirthApi,
  HirthState,
  TaraApi,
  TaraState,
} from "./client";

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

/** One game's three calls, whatever the game: its state type and its API's methods. */
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
  const config = new Configuration({ basePath: process.argv[2] ?? "http://127.0.0.1:8080" });
  const herfor = new HerforApi(config);
  const tara = new TaraApi(config);
  const hirth = new HirthApi(config);
  const lines = [
    await play<HerforState>("herfor", {
      start: async () =>
        (await herfor.herforNewGame({ herforNewGameRequest: { options: { size: 5 } } })).state,
      legal: (state) => herfor.herforLegalMoves({ herforStateRequest: { state } }),
      apply: async (state, move) =>
        (await herfor.herforApply({ herforApplyRequest: { state, move } })).state,
    }),
    await play<TaraState>("tara", {
      start: async () => (await tara.taraNewGame({ taraNewGameRequest: {} })).state,
      legal: (state) => tara.taraLegalMoves({ taraStateRequest: { state } }),
      apply: async (state, move) =>
        (await tara.taraApply({ taraApplyRequest: { state, move } })).state,
    }),
    await play<HirthState>("hirth", {
      start: async () =>
        (await hirth.hirthNewGame({ hirthNewGameRequest: { options: { target: 1 } } })).state,
      legal: (state) => hirth.hirthLegalMoves({ hirthStateRequest: { state } }),
      apply: async (state, move) =>
        (await hirth.hirthApply({ hirthApplyRequest: { state, move } })).state,
    }),
  ];
  for (const line of lines) console.log(line);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
