// Plays a whole game of each of Moot's three games through a running server with the SDK
// @hey-api/openapi-ts writes from openapi/openapi.json: every request and answer is one of its
// types (compiled with `tsc --strict`, no casts).
//
//   ../typescript/node_modules/.bin/openapi-ts -i ../../openapi/openapi.json -o client
//   ../typescript/node_modules/.bin/tsc -p . && node dist/hey-api/play.js http://127.0.0.1:8080

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
import { play } from "../whole-game";

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
