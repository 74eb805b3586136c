// Plays a whole game of each of Moot's three games through a running server with the
// TypeScript client openapi-generator writes from openapi/openapi.json (typescript-fetch):
// every request and answer is one of its types (compiled with `tsc --strict`, no casts), and
// its models turn their camelCase members into the document's names on the way out.
//
//   openapi-generator-cli generate -i ../../../openapi/openapi.json -g typescript-fetch -o client
//   tsc -p . && node dist/openapi-generator/typescript/play.js http://127.0.0.1:8080

import {
  Configuration,
  HerforApi,
  HerforState,
  HirthApi,
  HirthState,
  TaraApi,
  TaraState,
} from "./client";
import { play } from "../../whole-game";

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
