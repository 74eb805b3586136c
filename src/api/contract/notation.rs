//! Each game's move notation, for the descriptions of its operations: the strings `apply`
//! takes and `legal-moves` lists.

/// The move notation of the game `id`, in Markdown.
pub fn of(id: &str) -> &'static str {
    match id {
        "herfor" => HERFOR,
        "tara" => TARA,
        "hirth" => HIRTH,
        _ => "Moves are written in the game's notation, as `legal-moves` lists them.",
    }
}

const HERFOR: &str = "**Move notation (Herfor).** A move is one of:\n\
- a point name (F1): rows are letters from the bottom row `a` upwards (2n−1 rows), points are \
numbered from 1 at the left of each row: on size 3 `a1`…`a3`, the middle row `c1`…`c5`, the \
top `e1`…`e3`; on size 5 `a1`…`a5`, `e1`…`e9`, `i1`…`i5`. Example: `c3`;\n\
- `pass` (F4), only when no placement is legal;\n\
- `swap` (F5): the second player's answer to the first stone, with the pie rule on.\n\n\
Moves are read case-insensitively and written in lower case.";

const TARA: &str = "**Move notation (The High Kings of Tara, T13).** Hills are written \
column letter then row, `A2`…`G6` (the corners `A1`, `A7`, `G1`, `G7` are not hills). A move is \
one of:\n\
- a setup placement: the hill, `D4`;\n\
- a king's move to a vacant hill, or a backtrack: `D7-E5`;\n\
- a ringfort capture: `D7xE5` (`D7-E5` is accepted too: the position tells them apart);\n\
- a sacrifice (T11, level 2): `C5sB3`;\n\
- `pass`;\n\
- `next`: starts game 2 of a match (T12).";

const HIRTH: &str = "**Move notation (Hirþ, H12).** A turn is several moves: steps of the \
movement phase, then `end`, then any retreats. Pieces are `H` (Hirþ), `L` (the Lofðungr) and \
`K` (a Karve, `Kii` with two Hirþ aboard); spaces are `0`…`9` and `m` (Miðr), `e` is off the \
board (entering), `^` off the board (leaving). A move is one of:\n\
- enter: `He`, `Ke`; `He>0` (or `He>9`) attacks the own home space when the enemy holds it;\n\
- move: `L13` (the Lofðungr from 1 to 3), `H3m`, `Kii03` (a Karve with its crew); `L1>3` when \
the step attacks;\n\
- board: `H3i` (a Hirþ on 3 boards a Karve there); `H3i[Kii]` names the Karve by its crew \
(`[K]`…`[Kiiii]`, `*` if stopped: `[Ki*]`) when several differ;\n\
- disembark: `Hr3` (a Hirþ leaves the Karve on 3); `Hr3[Kii]` names the Karve;\n\
- end the movement phase: `end`, or `end >6Lm` / `end >0H^`: for each battle won, the attackers \
that stay where they attacked from (`^`: off the board); all others enter the space won;\n\
- the Penningr (H10): `offer`, then the other player's `accept` or `give-up`;\n\
- a retreat (H7): `retreat 8`, the space the beaten Lofðungr retreats to.\n\n\
`legal-moves` lists every move in this notation.";
