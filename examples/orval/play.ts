// Plays a whole game of each of Moot's three games through a running server with the fetch
// client orval writes from openapi/openapi.json: every request and answer is one of its types
// (compiled with `tsc --strict`, no casts), each answer narrowed by its status.
//
//   ../typescript/node_modules/.bin/orval -i ../../openapi/openapi.json -o client/moot.ts --client fetch
//   ../typescript/node_modules/.bin/tsc -p . && node dist/orval/play.js http://127.0.0.1:8080

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
import { play } from "../whole-game";

/** A refused request: its status and the server's problem. */
function refused(answer: { status: number; data: unknown }): Error {
  return new Error(`${answer.status}: ${JSON.stringify(answer.data)}`);
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
