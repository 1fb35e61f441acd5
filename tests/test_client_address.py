from ipaddress import ip_network

from app.platform.client_address import UNKNOWN_BEHIND_A_PROXY, client_address

PROXIES = [ip_network("10.0.0.5"), ip_network("10.1.0.0/16"), ip_network("::1")]


def test_a_peer_that_is_no_trusted_proxy_is_the_client_whatever_it_forwards():
    assert client_address("203.0.113.7", ["198.51.100.1"], PROXIES) == "203.0.113.7"
    assert client_address("203.0.113.7", [], []) == "203.0.113.7"


def test_a_peer_among_its_own_forwarded_addresses_was_replaced_by_a_server_in_front():
    """uvicorn's defaults put the forged 198.51.100.1 where the peer 127.0.0.1 was."""
    assert client_address("198.51.100.1", ["198.51.100.1"], []) == UNKNOWN_BEHIND_A_PROXY
    assert client_address("198.51.100.1", ["8.8.8.8", " 198.51.100.1:443"], []) == UNKNOWN_BEHIND_A_PROXY


def test_a_trusted_proxy_names_the_nearest_address_that_is_not_a_proxy_of_ours():
    """The client may forge the entries left of it; the proxies append on the right."""
    assert client_address("10.0.0.5", ["6.6.6.6", "198.51.100.1", "10.1.2.3"], PROXIES) == "198.51.100.1"
    assert client_address("10.0.0.5", ["[2001:db8::7]:5000"], PROXIES) == "2001:db8::7"
    assert client_address("::1", ["10.1.0.1"], PROXIES) == "::1", "only proxies of ours: the peer"
