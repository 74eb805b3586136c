// The game loop the TypeScript examples share (hey-api/, orval/, openapi-generator/typescript/):
// each states its client's three calls per game, this plays a whole game with them.

/** A game longer than this is a bug in the server or in the client. */
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

/** One game's three calls, whatever the game: its state type and its client's functions. */
export interface Rules<S> {
  start(): Promise<S>;
  legal(state: S): Promise<{ moves: string[]; status: { phase: string } }>;
  apply(state: S, move: string): Promise<S>;
}

/** Plays a whole game of `game` with random legal moves: its length and how it ended. */
export async function play<S>(game: string, rules: Rules<S>): Promise<string> {
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
