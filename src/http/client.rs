//! Who a request comes from: the [`Client`] key that fairness and rate limits count by.
//!
//! The key is the connection's peer address, unless the peer is a configured trusted proxy
//! (the balancer in front of the service); then it is the first address in `X-Forwarded-For`,
//! read from the right, that is not itself a trusted proxy: the client as the balancer saw
//! it. Addresses from untrusted peers are never believed, so a client cannot pick its key.

use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr};

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::HeaderMap;
use ipnet::IpNet;

/// The client a request is counted for. Requests that did not come through the service's
/// own connection loop (in-process tests, fuzzing) share the unspecified address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Client(pub IpAddr);

impl Default for Client {
    fn default() -> Self {
        Client(IpAddr::V4(Ipv4Addr::UNSPECIFIED))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Client {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Client, Infallible> {
        Ok(parts
            .extensions
            .get::<Client>()
            .copied()
            .unwrap_or_default())
    }
}

/// The proxies whose `X-Forwarded-For` is believed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpNet>);

impl TrustedProxies {
    /// Parses addresses and networks (`10.0.0.0/8`, `127.0.0.1`), comma-separated; blanks
    /// are ignored.
    pub fn parse(list: &[String]) -> Result<TrustedProxies, String> {
        list.iter()
            .map(|item| item.trim())
            .filter(|item| !item.is_empty())
            .map(|item| {
                item.parse::<IpNet>()
                    .or_else(|_| item.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| format!("{item:?} is not an IP address or network"))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(TrustedProxies)
    }

    fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|net| net.contains(&ip))
    }

    /// The client of a request that came from `peer` with `headers` (see the module docs).
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> Client {
        if !self.trusts(peer) {
            return Client(peer);
        }
        let forwarded = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .collect::<Vec<_>>();
        forwarded
            .iter()
            .rev()
            .map(|hop| hop.parse::<IpAddr>())
            // A hop that is not an address ends the chain of trust: the proxy wrote it, so
            // the proxy's own peer is the best answer left.
            .map_while(Result::ok)
            .find(|&ip| !self.trusts(ip))
            .map_or(Client(peer), Client)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn forwarded(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn untrusted_peers_are_their_own_client() {
        let none = TrustedProxies::default();
        let spoofed = forwarded("1.2.3.4");
        assert_eq!(none.client(ip("9.9.9.9"), &spoofed), Client(ip("9.9.9.9")));
    }

    #[test]
    fn a_trusted_proxy_passes_on_its_client_and_nobody_else_can() {
        let proxies =
            TrustedProxies::parse(&["10.0.0.0/8".to_string(), " 127.0.0.1".to_string()]).unwrap();
        // The client put a fake address first; the proxy appended the real one.
        let headers = forwarded("6.6.6.6, 203.0.113.7");
        assert_eq!(
            proxies.client(ip("10.1.2.3"), &headers),
            Client(ip("203.0.113.7"))
        );
        // Through two proxies: the rightmost untrusted hop.
        let headers = forwarded("203.0.113.7, 10.9.9.9");
        assert_eq!(
            proxies.client(ip("127.0.0.1"), &headers),
            Client(ip("203.0.113.7"))
        );
        // No header: the proxy itself.
        assert_eq!(
            proxies.client(ip("10.1.2.3"), &HeaderMap::new()),
            Client(ip("10.1.2.3"))
        );
        // Garbage where an address should be stops the walk.
        let headers = forwarded("203.0.113.7, not-an-ip");
        assert_eq!(
            proxies.client(ip("10.1.2.3"), &headers),
            Client(ip("10.1.2.3"))
        );
    }

    #[test]
    fn bad_proxy_lists_are_refused() {
        let err = TrustedProxies::parse(&["10.0.0.0/33".to_string()]).unwrap_err();
        assert!(err.contains("10.0.0.0/33"), "{err}");
        assert_eq!(
            TrustedProxies::parse(&[String::new()]),
            Ok(TrustedProxies::default())
        );
    }
}
