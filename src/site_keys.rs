//! Site keys (`--site-keys FILE`): a site's backend relays all its players' requests from one
//! address, so the per-address shares (tables created, evaluations) would hold the whole site
//! to one player's budget. A backend that sends its key (`Moot-Site-Key: <secret>`) is counted
//! against its site's own budgets instead. The operator writes the file, one key a line:
//!
//! ```text
//! # name:secret[:create_burst:create_every_ms[:request_burst:request_every_ms]]
//! chess-club:3f9c…(at least 32 characters)…
//! big-site:8a1e…:5000:10:20000:1
//! ```
//!
//! Blank lines and lines starting with `#` are skipped. A name may have two lines (two secrets,
//! while a key is rotated) with the same budgets: both count against one share. Secrets are
//! kept only as SHA-256 digests and compared in constant time; they are never logged.

use std::fmt;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use crate::compute::shares::{Clients, Share};
use crate::digest;

/// The header a backend sends its site's key in (seat credentials use `Authorization`).
pub const HEADER: &str = "Moot-Site-Key";

/// The shortest secret taken: shorter ones could be guessed.
pub const MIN_SECRET_CHARS: usize = 32;

/// A site's budgets when its line names none: tables created in a burst, and one more every
/// this long (50 a second)…
pub const CREATE_BURST: u32 = 1_000;
/// See [`CREATE_BURST`].
pub const CREATE_EVERY: Duration = Duration::from_millis(20);
/// …and requests to the rate-limited computer routes in a burst, one more every this long
/// (1,000 a second).
pub const REQUEST_BURST: u32 = 10_000;
/// See [`REQUEST_BURST`].
pub const REQUEST_EVERY: Duration = Duration::from_millis(1);

/// What one site may ask, as its line says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budgets {
    /// Tables created in a burst, and one more every `create_every`.
    pub create_burst: u32,
    /// See `create_burst`.
    pub create_every: Duration,
    /// Evaluations in a burst, and one more every `request_every`.
    pub request_burst: u32,
    /// See `request_burst`.
    pub request_every: Duration,
}

impl Default for Budgets {
    fn default() -> Self {
        Budgets {
            create_burst: CREATE_BURST,
            create_every: CREATE_EVERY,
            request_burst: REQUEST_BURST,
            request_every: REQUEST_EVERY,
        }
    }
}

/// A site: its name and its own shares (one key: its whole traffic counts as one client).
pub struct Site {
    name: String,
    budgets: Budgets,
    /// Tables it creates.
    pub creations: Clients,
    /// Its evaluations: a rate; how many run at once is bounded by the server's permits.
    pub requests: Clients,
}

impl Site {
    fn new(name: String, budgets: Budgets) -> Self {
        let share = |burst, every| Share {
            burst,
            every,
            running: usize::MAX,
        };
        Site {
            creations: Clients::new(share(budgets.create_burst, budgets.create_every)),
            requests: Clients::new(share(budgets.request_burst, budgets.request_every)),
            name,
            budgets,
        }
    }

    /// The site's name, as its line gives it (safe to log: never the secret).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its budgets.
    pub fn budgets(&self) -> Budgets {
        self.budgets
    }
}

impl fmt::Debug for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Site")
            .field("name", &self.name)
            .field("budgets", &self.budgets)
            .finish()
    }
}

/// The server's site keys: each secret's digest and its site. Clones share them.
#[derive(Clone, Default)]
pub struct SiteKeys {
    keys: Arc<Vec<(String, Arc<Site>)>>,
}

impl fmt::Debug for SiteKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The digests stay out of any log too.
        f.debug_list()
            .entries(self.keys.iter().map(|(_, site)| site.name()))
            .finish()
    }
}

impl SiteKeys {
    /// The keys of the file at `path`, or what is wrong with it (naming the file and line).
    pub fn read(path: &std::path::Path) -> Result<SiteKeys, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("--site-keys {}: {e}", path.display()))?;
        SiteKeys::parse(&text).map_err(|e| format!("--site-keys {}: {e}", path.display()))
    }

    /// The keys written in `text`, or the first line at fault (`line 3: …`).
    pub fn parse(text: &str) -> Result<SiteKeys, String> {
        let mut keys: Vec<(String, Arc<Site>)> = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let number = index + 1;
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (name, key, budgets) =
                parse_line(line).map_err(|error| format!("line {number}: {error}"))?;
            let digest = digest::digest(key);
            if keys.iter().any(|(kept, _)| *kept == digest) {
                return Err(format!(
                    "line {number}: this secret is on an earlier line already; each key needs its own"
                ));
            }
            let site = match keys.iter().find(|(_, site)| site.name == name) {
                Some((_, site)) if site.budgets != budgets => {
                    return Err(format!(
                        "line {number}: site {name:?} is on an earlier line with other budgets; \
                         a site's lines (two while a key is rotated) must give the same"
                    ));
                }
                Some((_, site)) => site.clone(),
                None => Arc::new(Site::new(name.to_owned(), budgets)),
            };
            keys.push((digest, site));
        }
        Ok(SiteKeys {
            keys: Arc::new(keys),
        })
    }

    /// Whether no key is known.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The names of the sites, each once.
    pub fn names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.keys.iter().map(|(_, site)| site.name()).collect();
        names.dedup();
        names
    }

    /// The site whose key `presented` is: every digest compared in constant time.
    pub fn site_of(&self, presented: &str) -> Option<Arc<Site>> {
        let mut found = None;
        for (digest, site) in self.keys.iter() {
            if digest::matches(presented, digest) {
                found = Some(site.clone());
            }
        }
        found
    }
}

/// One line's name, secret and budgets.
fn parse_line(line: &str) -> Result<(&str, &str, Budgets), String> {
    let fields: Vec<&str> = line.split(':').map(str::trim).collect();
    let [name, key, budgets @ ..] = fields.as_slice() else {
        return Err(
            "write name:secret[:create_burst:create_every_ms[:request_burst:request_every_ms]]"
                .into(),
        );
    };
    if name.is_empty()
        || name.len() > 64
        || !name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
    {
        return Err(
            "the name must be 1 to 64 letters, digits, '-', '_' or '.' (then ':' and the secret)"
                .into(),
        );
    }
    if key.len() < MIN_SECRET_CHARS {
        return Err(format!(
            "site {name:?}: the secret must be at least {MIN_SECRET_CHARS} characters (e.g. `openssl rand -hex 32`)"
        ));
    }
    if !key.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(format!(
            "site {name:?}: the secret must be visible ASCII characters (it is sent in a header)"
        ));
    }
    let number = |text: &str, what: &str| -> Result<u64, String> {
        text.parse::<u64>()
            .map_err(|_| format!("site {name:?}: {what} must be a whole number, not {text:?}"))
    };
    let burst = |text: &str, what: &str| -> Result<u32, String> {
        match u32::try_from(number(text, what)?) {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(format!(
                "site {name:?}: {what} must be at least 1 (and at most {})",
                u32::MAX
            )),
        }
    };
    let mut parsed = Budgets::default();
    match *budgets {
        [] => {}
        [create_burst, create_every] | [create_burst, create_every, _, _] => {
            parsed.create_burst = burst(create_burst, "create_burst")?;
            parsed.create_every = Duration::from_millis(number(create_every, "create_every_ms")?);
        }
        _ => {
            return Err(format!(
                "site {name:?}: after the secret come two budgets (create_burst:create_every_ms) \
                 or four (and request_burst:request_every_ms), not {}",
                budgets.len()
            ));
        }
    }
    if let [_, _, request_burst, request_every] = *budgets {
        parsed.request_burst = burst(request_burst, "request_burst")?;
        parsed.request_every = Duration::from_millis(number(request_every, "request_every_ms")?);
    }
    Ok((name, key, parsed))
}

/// Who a request counts against: its address, or the site whose key it sent.
#[derive(Clone, Debug)]
pub enum Client {
    /// An address's share, as [`crate::client::client_of`] has it (none in some tests).
    Address(Option<IpAddr>),
    /// A site's own budgets.
    Site(Arc<Site>),
}

impl Client {
    /// The name of the site whose key the request sent, if it sent one: what a table or a
    /// player it makes belongs to (two keys of one name, while one is rotated, are one site).
    pub fn site_name(&self) -> Option<&str> {
        match self {
            Client::Address(_) => None,
            Client::Site(site) => Some(site.name()),
        }
    }

    /// How the client is named where its requests are kept apart (an idempotency scope).
    pub fn scope(&self) -> String {
        match self {
            Client::Address(address) => address.map_or_else(String::new, |a| a.to_string()),
            Client::Site(site) => format!("site {}", site.name()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "0123456789abcdef0123456789abcdef";
    const OTHER: &str = "fedcba9876543210fedcba9876543210";

    #[test]
    fn a_file_gives_each_key_its_site_and_budgets() {
        let text = format!(
            "# the sites\n\nsmall:{SECRET}:3:1000\n big : {OTHER}:5:10:7:2 \nplain:{SECRET}x\n"
        );
        let keys = SiteKeys::parse(&text).expect("a good file");
        assert_eq!(keys.names(), ["small", "big", "plain"]);
        let small = keys.site_of(SECRET).expect("small's key");
        assert_eq!(small.name(), "small");
        assert_eq!(
            small.budgets(),
            Budgets {
                create_burst: 3,
                create_every: Duration::from_secs(1),
                ..Budgets::default()
            }
        );
        let big = keys.site_of(OTHER).expect("big's key");
        assert_eq!(
            big.budgets(),
            Budgets {
                create_burst: 5,
                create_every: Duration::from_millis(10),
                request_burst: 7,
                request_every: Duration::from_millis(2),
            }
        );
        let plain = keys.site_of(&format!("{SECRET}x")).expect("plain's key");
        assert_eq!(plain.budgets(), Budgets::default());
        assert!(keys.site_of("0123456789abcdef0123456789abcdeX").is_none());
        assert!(keys.site_of("").is_none());
        assert!(!format!("{keys:?}").contains(SECRET), "never the secret");
    }

    #[test]
    fn a_rotated_key_is_two_lines_of_one_site_sharing_its_budget() {
        let text = format!("club:{SECRET}:1:60000\nclub:{OTHER}:1:60000\n");
        let keys = SiteKeys::parse(&text).expect("two keys of one site");
        assert_eq!(keys.names(), ["club"]);
        let (old, new) = (keys.site_of(SECRET).unwrap(), keys.site_of(OTHER).unwrap());
        assert!(Arc::ptr_eq(&old, &new));
        assert!(old.creations.check_rate(None).is_ok());
        assert!(new.creations.check_rate(None).is_err(), "one share");
    }

    #[test]
    fn a_bad_file_is_refused_naming_its_line() {
        for (text, says) in [
            ("club".to_owned(), "line 1: write name:secret"),
            (
                "\n# x\nclub:short".to_owned(),
                "line 3: site \"club\": the secret must be at least 32",
            ),
            (format!(":{SECRET}"), "line 1: the name must be"),
            (format!("a b:{SECRET}"), "line 1: the name must be"),
            (
                format!("club:{SECRET}:3"),
                "line 1: site \"club\": after the secret come two budgets",
            ),
            (
                format!("club:{SECRET}:x:10"),
                "create_burst must be a whole number",
            ),
            (
                format!("club:{SECRET}:0:10"),
                "create_burst must be at least 1",
            ),
            (format!("club:{SECRET}:1:10:5"), "not 3"),
            (
                format!("club:{SECRET}:1:10:5:-1"),
                "request_every_ms must be a whole number",
            ),
            (
                format!("a:{SECRET}\nb:{SECRET}"),
                "line 2: this secret is on an earlier line",
            ),
            (
                format!("a:{SECRET}\na:{OTHER}:1:1"),
                "line 2: site \"a\" is on an earlier line with other budgets",
            ),
        ] {
            let error = SiteKeys::parse(&text).expect_err(&text);
            assert!(error.contains(says), "{text:?}: {error}");
            assert!(!error.contains(SECRET), "never the secret: {error}");
        }
    }

    #[test]
    fn an_empty_file_knows_no_site() {
        let keys = SiteKeys::parse("# none yet\n").unwrap();
        assert!(keys.is_empty());
        assert!(keys.site_of(SECRET).is_none());
    }
}
