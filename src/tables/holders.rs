//! Whose share an event stream counts against, and how many streams each holds. A stream is
//! held by the address it comes from (an IPv6 address's /64), or, when it sends a site's key,
//! by that site: a site's backend relays many players' streams from one address, and would
//! otherwise be held to one household's share. Shares keep any one client from holding every
//! place of the server; the server's own cap stays the last word.

use std::net::IpAddr;

use dashmap::DashMap;

use crate::site_keys::Client;

/// Whose share a stream counts against.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Holder {
    /// An address, as [`crate::client::share_key`] has it.
    Address(IpAddr),
    /// A site, by its name in the keys file: a site's two keys (while one is rotated) share
    /// its places.
    Site(String),
}

impl Holder {
    /// The holder of a request from `client`; `None` when its address is not known (a test's
    /// request without a peer).
    pub fn of(client: &Client) -> Option<Holder> {
        match client {
            Client::Address(address) => address.map(Holder::Address),
            Client::Site(site) => Some(Holder::Site(site.name().to_owned())),
        }
    }

    /// Of an address's share and a site's, the one this holder has.
    pub fn share(&self, per_address: usize, per_site: usize) -> usize {
        match self {
            Holder::Address(_) => per_address,
            Holder::Site(_) => per_site,
        }
    }
}

/// How many streams each holder has open: a holder holding none is forgotten, so the map
/// grows with the streams open, not with every address ever seen.
#[derive(Debug, Default)]
pub struct Holdings(DashMap<Holder, usize>);

impl Holdings {
    /// Takes one more place for `holder` if it holds fewer than `share`; else answers how
    /// many it holds.
    pub fn take(&self, holder: &Holder, share: usize) -> Result<(), usize> {
        let mut held = self.0.entry(holder.clone()).or_insert(0);
        if *held < share {
            *held += 1;
            return Ok(());
        }
        let refused = *held;
        drop(held);
        // Made for this refusal alone when the share is 0.
        self.0.remove_if(holder, |_, held| *held == 0);
        Err(refused)
    }

    /// Gives back one of `holder`'s places.
    pub fn give_back(&self, holder: &Holder) {
        if let Some(mut held) = self.0.get_mut(holder) {
            *held = held.saturating_sub(1);
        }
        // Under the map's lock, where a place is taken: a holder taking one meanwhile stays.
        self.0.remove_if(holder, |_, held| *held == 0);
    }

    /// The places `holder` holds.
    pub fn held(&self, holder: &Holder) -> usize {
        self.0.get(holder).map_or(0, |held| *held)
    }

    /// How many holders hold a place.
    pub fn holders(&self) -> usize {
        self.0.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_holder_takes_up_to_its_share_and_is_forgotten_when_it_holds_none() {
        let holdings = Holdings::default();
        let here = Holder::Address("192.0.2.1".parse().unwrap());
        let site = Holder::Site("club".into());
        assert_eq!(holdings.take(&here, 2), Ok(()));
        assert_eq!(holdings.take(&here, 2), Ok(()));
        assert_eq!(holdings.take(&here, 2), Err(2));
        assert_eq!(holdings.take(&site, 2), Ok(()), "each holder its own");
        holdings.give_back(&here);
        assert_eq!(holdings.take(&here, 2), Ok(()), "a place given back");
        assert_eq!(holdings.take(&site, 0), Err(1));
        holdings.give_back(&site);
        assert_eq!(holdings.held(&site), 0);
        assert_eq!(holdings.take(&site, 0), Err(0));
        assert_eq!(holdings.holders(), 1, "only the address holds places");
    }

    #[test]
    fn a_share_is_an_addresss_or_a_sites() {
        let address = Holder::Address("2001:db8::".parse().unwrap());
        assert_eq!(address.share(64, 1000), 64);
        assert_eq!(Holder::Site("club".into()).share(64, 1000), 1000);
    }
}
