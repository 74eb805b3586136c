//! The attack patterns: what each sends, prepared against one server.

pub mod animation;
pub mod bodies;
pub mod computer;
pub mod forwarded;
pub mod methods;
pub mod replay;

use std::net::SocketAddr;

use crate::attackers::Attempt;

/// A pattern, by its name on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Pattern {
    /// A 129-ply Herfor size-7 game's animation at 800 px (over the cost bound), looped.
    Animation,
    /// 32 clients looping 1 MiB bodies of 149,000 tiny objects to `legal-moves`.
    Bodies,
    /// 32 clients looping requests with random 1,000-character methods.
    Methods,
    /// 4 addresses looping the longest `evaluate`; a well-behaved client evaluates now and then.
    ComputerApi,
    /// 4 addresses looping strong computer turns on play pages; a player asks now and then.
    ComputerPages,
    /// 32 clients looping the `replay` of one long Hirþ game (up to 5,000 moves).
    Replay,
    /// Forged `X-Forwarded-Proto` and `-Host` on an embed page, forwarded headers not trusted.
    Forwarded,
}

impl Pattern {
    /// Every pattern, in the order the suite runs them.
    pub const ALL: [Pattern; 7] = [
        Pattern::Animation,
        Pattern::Bodies,
        Pattern::Methods,
        Pattern::ComputerApi,
        Pattern::ComputerPages,
        Pattern::Replay,
        Pattern::Forwarded,
    ];

    /// The name on the command line and in the table.
    pub fn name(self) -> &'static str {
        match self {
            Pattern::Animation => "animation",
            Pattern::Bodies => "bodies",
            Pattern::Methods => "methods",
            Pattern::ComputerApi => "computer-api",
            Pattern::ComputerPages => "computer-pages",
            Pattern::Replay => "replay",
            Pattern::Forwarded => "forwarded",
        }
    }

    /// Whether the server believes forwarded headers: the computer patterns' attackers are
    /// addresses of their own through them; the forwarded pattern checks a server that does not.
    pub fn trusts_forwarded(self) -> bool {
        self != Pattern::Forwarded
    }

    /// Prepares the pattern's load against the server at `addr`; `None` for the forwarded
    /// pattern, which is a check, not a load.
    pub fn load(self, addr: SocketAddr) -> Option<Result<Load, String>> {
        match self {
            Pattern::Animation => Some(animation::load(addr)),
            Pattern::Bodies => Some(Ok(bodies::load(addr))),
            Pattern::Methods => Some(Ok(methods::load(addr))),
            Pattern::ComputerApi => Some(computer::api_load(addr)),
            Pattern::ComputerPages => Some(computer::pages_load(addr)),
            Pattern::Replay => Some(replay::load(addr)),
            Pattern::Forwarded => None,
        }
    }
}

/// A pattern's load, ready to run against one server.
pub struct Load {
    /// What the preparation did, a line each.
    pub notes: Vec<String>,
    /// Requests sent once as the attack starts, before the attackers loop; they give lines for
    /// the output.
    pub once: Option<Box<dyn FnOnce(SocketAddr) -> Vec<String>>>,
    /// Attackers looping [`Load::attempt`].
    pub clients: usize,
    /// One attacker's request.
    pub attempt: Attempt,
    /// The well-behaved client of the computer patterns: one request, given its round; whether
    /// it was served.
    pub regular: Option<Regular>,
}

/// One request of a well-behaved client, given its round (from 0): whether it was served.
pub type Regular = Box<dyn Fn(u64) -> bool + Send>;
