//! Moot's research tools, apart from the server: matches between computer agents (`arena`),
//! their Elo ratings (`ladder`), and perfect play on small Herfor boards (`solve`, and the
//! opening book the server embeds: `solve --book`). See docs/computer-player.md.

mod arena;
mod ladder;

use clap::{Args, Parser, Subcommand};
use moot_ai::{Agent, Budget, Strategy};
use moot_games::with_game;

use crate::arena::Matchup;

/// Research tools for Moot's computer player.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Plays two agents against each other, alternating seats, and prints the first agent's
    /// win rate with its 95% interval.
    Arena(ArenaArgs),
    /// Plays a round robin among agents, seats alternating, and prints their Elo ratings with
    /// 95% intervals (the first agent anchored at 0) and every pair's results.
    Ladder(LadderArgs),
    /// Solves Herfor on a small board: who wins with perfect play, and the winning first moves.
    Solve(SolveArgs),
}

#[derive(Debug, Args)]
struct ArenaArgs {
    /// The game: hirth, tara or herfor.
    #[arg(long)]
    game: String,
    /// The agent measured: random, greedy or mcts.
    #[arg(long)]
    first: Agent,
    /// Its opponent.
    #[arg(long)]
    second: Agent,
    /// Games to play; the agents swap seats every game.
    #[arg(long, default_value_t = 200)]
    games: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Playouts per MCTS move (default: the normal strength's budget). At least 1: with none
    /// the search would only play its first move untried.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    budget: Option<u32>,
    /// Milliseconds per MCTS move instead of playouts (not reproducible). At least 1.
    #[arg(long, conflicts_with = "budget", value_parser = clap::value_parser!(u64).range(1..))]
    millis: Option<u64>,
    /// The game's options as JSON (default: the game's defaults).
    #[arg(long)]
    options: Option<String>,
    #[arg(long, default_value_t = 2)]
    threads: usize,
}

#[derive(Debug, Args)]
struct LadderArgs {
    /// The game: hirth, tara or herfor.
    #[arg(long)]
    game: String,
    /// The agents, separated by commas; the first is rated 0. Each is random, greedy, easy,
    /// normal, strong, mcts:N (N playouts) or mcts:Nms (N milliseconds, not reproducible).
    #[arg(long, default_value = "random,greedy,easy,normal,strong")]
    agents: String,
    /// Games between each pair; the agents swap seats every game.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The game's options as JSON (default: the game's defaults).
    #[arg(long)]
    options: Option<String>,
    /// Threads playing games at once (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
}

#[derive(Debug, Args)]
struct SolveArgs {
    /// Points per side (3 solves in seconds; 4 may not fit in time and memory).
    #[arg(long, default_value_t = 3)]
    size: u8,
    /// With the pie rule (F5).
    #[arg(long)]
    pie: bool,
    /// The simple variant (F6).
    #[arg(long)]
    simple: bool,
    /// Give up after searching this many positions (bounds the table's memory).
    #[arg(long)]
    max_positions: Option<u64>,
    /// Give up after this many seconds.
    #[arg(long)]
    max_seconds: Option<u64>,
    /// Instead, write the opening book of every position within `--book-plies` plies of each
    /// set of rules' start (size 3: ai/src/herfor3.book), then check that a request's bounded
    /// proof, with the book, settles every position up to one ply past it.
    #[arg(long)]
    book: Option<std::path::PathBuf>,
    /// The plies the book covers.
    #[arg(long, default_value_t = moot_ai::book::BOOK_PLIES)]
    book_plies: usize,
    /// Positions of each ply the book's check tries (a seeded sample where there are more).
    #[arg(long, default_value_t = 100)]
    book_check: usize,
}

fn main() {
    let (tool, outcome) = match Cli::parse().command {
        Command::Arena(args) => ("arena", arena_command(&args)),
        Command::Ladder(args) => ("ladder", ladder_command(&args)),
        Command::Solve(args) => ("solve", solve_command(&args)),
    };
    if let Err(e) = outcome {
        eprintln!("moot-lab {tool}: {e}");
        std::process::exit(2);
    }
}

fn arena_command(args: &ArenaArgs) -> Result<(), String> {
    let budget = match (args.budget, args.millis) {
        (Some(n), _) => Some(Budget::Playouts(n)),
        (_, Some(ms)) => Some(Budget::Millis(ms)),
        _ => None,
    };
    let with_budget = |agent: Agent| match (agent, budget) {
        (Agent::Mcts(_) | Agent::Strength(_), Some(budget)) => Agent::Mcts(budget),
        _ => agent,
    };
    let agents = [with_budget(args.first), with_budget(args.second)];
    with_game!(args.game.as_str(), G => arena_for::<G>(args, agents),
        else Err(format!("no game has the id {:?}; the games are: {}", args.game, moot_games::GAME_IDS.join(", "))))
}

fn arena_for<G: Strategy>(args: &ArenaArgs, agents: [Agent; 2]) -> Result<(), String> {
    let options: G::Options = match &args.options {
        None => G::Options::default(),
        Some(json) => serde_json::from_str(json).map_err(|e| format!("--options: {e}"))?,
    };
    let matchup = Matchup {
        options,
        agents,
        games: args.games,
        seed: args.seed,
        threads: args.threads,
    };
    let (tally, elapsed) = arena::run::<G>(&matchup)?;
    let (low, high) = tally.interval();
    println!(
        "{} {} vs {}: {} games, {} wins, {} draws, {} losses{}: score {:.1}% (95% CI {:.1}–{:.1}%) in {:.1} s",
        G::ID,
        agents[0],
        agents[1],
        tally.games(),
        tally.wins,
        tally.draws,
        tally.losses,
        if tally.unfinished > 0 {
            format!(" ({} unfinished)", tally.unfinished)
        } else {
            String::new()
        },
        100.0 * tally.score(),
        100.0 * low,
        100.0 * high,
        elapsed.as_secs_f64()
    );
    Ok(())
}

fn ladder_command(args: &LadderArgs) -> Result<(), String> {
    let names: Vec<&str> = args.agents.split(',').map(str::trim).collect();
    if names.len() < 2 {
        return Err("--agents: a ladder needs at least two agents".into());
    }
    if let Some(twice) = names
        .iter()
        .enumerate()
        .find_map(|(i, n)| names[..i].contains(n).then_some(n))
    {
        return Err(format!("--agents: {twice:?} is listed twice"));
    }
    let agents = names
        .iter()
        .map(|name| name.parse::<Agent>().map_err(|e| format!("--agents: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    with_game!(args.game.as_str(), G => ladder_for::<G>(args, &names, &agents),
        else Err(format!("no game has the id {:?}; the games are: {}", args.game, moot_games::GAME_IDS.join(", "))))
}

fn ladder_for<G: Strategy>(
    args: &LadderArgs,
    names: &[&str],
    agents: &[Agent],
) -> Result<(), String> {
    let options: G::Options = match &args.options {
        None => G::Options::default(),
        Some(json) => serde_json::from_str(json).map_err(|e| format!("--options: {e}"))?,
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let started = std::time::Instant::now();
    let pairings = ladder::play::<G>(&options, agents, args.games, args.seed, threads)?;
    let fitted = ladder::fit(agents.len(), &pairings);
    let ratings = &fitted.ratings;
    println!(
        "{} ladder: {} games a pair, seed {}, {} threads, {:.1} min",
        G::ID,
        args.games,
        args.seed,
        threads,
        started.elapsed().as_secs_f64() / 60.0
    );
    println!();
    println!("| agent | Elo | 95% interval | score | games |");
    println!("|---|---:|---:|---:|---:|");
    let mut order: Vec<usize> = (0..agents.len()).collect();
    order.sort_by(|&a, &b| ratings[b].elo.total_cmp(&ratings[a].elo));
    for i in order {
        let (points, games) = pairings.iter().fold((0.0, 0u32), |(p, g), pairing| {
            let t = pairing.tally;
            let draws = 0.5 * f64::from(t.draws);
            match i {
                _ if pairing.first == i => (p + f64::from(t.wins) + draws, g + t.games()),
                _ if pairing.second == i => (p + f64::from(t.losses) + draws, g + t.games()),
                _ => (p, g),
            }
        });
        let r = ratings[i];
        let interval = if i == 0 {
            "anchor".to_string()
        } else {
            format!("{:.0} to {:.0}", r.low, r.high)
        };
        println!(
            "| {} | {:.0} | {interval} | {:.1}% | {games} |",
            names[i],
            r.elo,
            100.0 * points / f64::from(games.max(1))
        );
    }
    println!();
    println!("| step | difference | 95% interval |");
    println!("|---|---:|---:|");
    for (above, below) in fitted.neighbours() {
        if let Some((below, d)) = below {
            println!(
                "| {} over {} | {:.0} | {:.0} to {:.0} |",
                names[above], names[below], d.elo, d.low, d.high
            );
        }
    }
    println!();
    println!("| pair | wins | draws | losses |");
    println!("|---|---:|---:|---:|");
    for pairing in &pairings {
        let t = pairing.tally;
        println!(
            "| {} vs {} | {} | {} | {} |",
            names[pairing.first], names[pairing.second], t.wins, t.draws, t.losses
        );
    }
    Ok(())
}

fn solve_command(args: &SolveArgs) -> Result<(), String> {
    use moot_ai::solver::{MAX_SIZE, Solver};
    use moot_games::Game;
    use moot_games::herfor::{Herfor, HerforOptions};
    if args.size > MAX_SIZE {
        return Err(format!("the solver takes boards up to size {MAX_SIZE}"));
    }
    let options = HerforOptions {
        size: args.size,
        pie: args.pie,
        simple: args.simple,
    };
    if let Some(path) = &args.book {
        return book_command(args, path);
    }
    let start = Herfor::new_game(&options).map_err(|e| e.to_string())?;
    let started = std::time::Instant::now();
    let deadline = args
        .max_seconds
        .map(|s| started + std::time::Duration::from_secs(s));
    let mut solver = Solver::bounded(args.max_positions.unwrap_or(u64::MAX), deadline);
    let outcome = solver.try_solve(&start);
    let rules = format!(
        "herfor size {}, pie {}, simple {}",
        args.size,
        if args.pie { "on" } else { "off" },
        if args.simple { "on" } else { "off" },
    );
    let measures = format!(
        "{} positions settled ({} searched) in {:.1} s",
        solver.settled(),
        solver.nodes,
        started.elapsed().as_secs_f64()
    );
    let Ok(solution) = outcome else {
        println!("{rules}: not solved within the limits; {measures}");
        return Ok(());
    };
    let solution = solution.ok_or("the game is over at the start")?;
    let best: Vec<String> = solution
        .best
        .iter()
        .map(|mv| Herfor::format_move(&start, mv))
        .collect();
    println!(
        "{rules}: the {} player wins with perfect play; {} first moves: {}",
        if solution.wins { "first" } else { "second" },
        if solution.wins { "winning" } else { "all" },
        best.join(" ")
    );
    println!("{measures}");
    Ok(())
}

fn book_command(args: &SolveArgs, path: &std::path::Path) -> Result<(), String> {
    use moot_ai::book;
    use moot_ai::perfect::MAX_NODES;
    use moot_ai::solver::Solver;
    use rand::SeedableRng;
    use rand::seq::IndexedRandom;
    let (size, plies) = (args.size, args.book_plies);
    let started = std::time::Instant::now();
    let bytes = book::build(size, plies)?;
    std::fs::write(path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    println!(
        "herfor size {size}: {} positions within {plies} plies, {} bytes, in {:.1} s",
        bytes.len() / 16,
        bytes.len(),
        started.elapsed().as_secs_f64()
    );
    // The check: each position up to one ply past the book proven as a request would, with
    // the book and at most MAX_NODES positions.
    let book: &'static [u8] = Box::leak(bytes.into_boxed_slice());
    let levels = book::positions_by_ply(size, plies + 1)?;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
    for (ply, level) in levels.iter().enumerate() {
        let started = std::time::Instant::now();
        let (mut most, mut unfinished) = (0, 0);
        let sample: Vec<_> = level.choose_multiple(&mut rng, args.book_check).collect();
        for state in &sample {
            let mut solver = Solver::bounded(MAX_NODES, None).with_book(book);
            if solver.try_solve(state).is_err() {
                unfinished += 1;
            }
            most = most.max(solver.nodes);
        }
        println!(
            "ply {ply}: {} positions, {} tried: a bounded proof searched at most {most} \
             positions, {unfinished} unfinished, in {:.1} s",
            level.len(),
            sample.len(),
            started.elapsed().as_secs_f64()
        );
        if unfinished > 0 {
            return Err(format!(
                "{unfinished} positions at ply {ply} need more plies in the book"
            ));
        }
    }
    Ok(())
}
