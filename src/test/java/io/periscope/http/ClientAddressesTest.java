package io.periscope.http;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.http.javadsl.model.AttributeKeys;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.http.scaladsl.model.RemoteAddress;
import org.junit.Test;

public class ClientAddressesTest {
  private final ClientAddresses behindProxies =
      ClientAddresses.trusting(List.of("10.0.0.0/8", "fd00::/8", "192.0.2.1"), "X-Forwarded-For");

  private static HttpRequest from(String peer, String... headers) {
    HttpRequest request =
        HttpRequest.create("/auth/login")
            .addAttribute(
                AttributeKeys.remoteAddress,
                RemoteAddress.apply(new InetSocketAddress(peer, 40000)));
    List<HttpHeader> inOrder = new ArrayList<>();
    for (int i = 0; i < headers.length; i += 2)
      inOrder.add(RawHeader.create(headers[i], headers[i + 1]));
    return request.withHeaders(inOrder);
  }

  @Test
  public void withoutTrustedProxiesForwardedHeadersAreIgnored() {
    ClientAddresses direct = ClientAddresses.trusting(List.of(), "X-Forwarded-For");
    assertEquals("10.0.0.5", direct.of(from("10.0.0.5", "X-Forwarded-For", "203.0.113.7")));
    assertEquals(
        "203.0.113.9", behindProxies.of(from("203.0.113.9", "X-Forwarded-For", "198.51.100.1")));
  }

  @Test
  public void theRightmostHopThatIsNotATrustedProxyIsTheClient() {
    assertEquals(
        "203.0.113.7", behindProxies.of(from("10.0.0.5", "X-Forwarded-For", "203.0.113.7")));
    assertEquals(
        "a client's own forged hops on the left are ignored",
        "203.0.113.7",
        behindProxies.of(from("10.0.0.5", "X-Forwarded-For", "1.2.3.4, 203.0.113.7, 10.9.9.9")));
    assertEquals(
        "headers repeated are one list",
        "198.51.100.2",
        behindProxies.of(
            from(
                "10.0.0.5", "X-Forwarded-For", "1.2.3.4", "X-Forwarded-For", "198.51.100.2:5555")));
    assertEquals(
        "only proxies: the leftmost",
        "10.1.1.1",
        behindProxies.of(from("192.0.2.1", "X-Forwarded-For", "10.1.1.1, 10.2.2.2")));
  }

  @Test
  public void onlyTheConfiguredHeaderIsReadTheOtherIsAClientsToWrite() {
    assertEquals(
        "behind a proxy that appends X-Forwarded-For, a client's Forwarded is ignored",
        "203.0.113.8",
        behindProxies.of(
            from("10.0.0.5", "Forwarded", "for=198.51.100.66", "X-Forwarded-For", "203.0.113.8")));
    ClientAddresses forwarded =
        ClientAddresses.trusting(List.of("10.0.0.0/8", "fd00::/8"), "Forwarded");
    assertEquals(
        "2001:db8:0:0:0:0:0:1",
        forwarded.of(
            from(
                "10.0.0.5",
                "Forwarded",
                "for=\"[2001:db8::1]:4711\";proto=https, for=10.3.3.3",
                "X-Forwarded-For",
                "203.0.113.8")));
    assertEquals(
        "with Forwarded configured, X-Forwarded-For is the client's to write",
        "10.0.0.5",
        forwarded.of(from("10.0.0.5", "X-Forwarded-For", "203.0.113.8")));
    assertEquals(
        "an obfuscated hop leaves the proxy that wrote it as the client",
        "10.0.0.5",
        forwarded.of(from("10.0.0.5", "Forwarded", "for=_hidden")));
  }

  @Test
  public void ipv6ClientsAreLimitedByTheirSlash64() {
    assertEquals(
        "2001:db8:1:2:0:0:0:0/64", ClientAddresses.rateKey("2001:db8:1:2:aaaa:bbbb:cccc:dddd"));
    assertEquals(
        ClientAddresses.rateKey("2001:db8:1:2::1"),
        ClientAddresses.rateKey("2001:db8:1:2:ffff::9"));
    assertEquals("203.0.113.7", ClientAddresses.rateKey("203.0.113.7"));
    assertEquals("unknown", ClientAddresses.rateKey("unknown"));
  }

  @Test
  public void aClientsNetworkIsItsSlash24OrSlash64() {
    assertEquals("203.0.113.0/24", ClientAddresses.network("203.0.113.77"));
    assertEquals(
        "2001:db8:1:2:0:0:0:0/64", ClientAddresses.network("2001:db8:1:2:aaaa:bbbb:cccc:dddd"));
    assertEquals("unknown", ClientAddresses.network("unknown"));
  }

  @Test
  public void aTrustedProxyThatIsNotAnAddressStopsTheStart() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ClientAddresses.trusting(List.of("10.0.0.0/33"), "X-Forwarded-For"));
    assertEquals("TRUSTED_PROXIES: '10.0.0.0/33' is not an address or CIDR block", e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> ClientAddresses.trusting(List.of("proxy.internal"), "X-Forwarded-For"));
    assertEquals(
        "TRUSTED_PROXY_HEADER: 'X-Forwarded-For: 1' is not a header name",
        assertThrows(
                IllegalArgumentException.class,
                () -> ClientAddresses.trusting(List.of(), "X-Forwarded-For: 1"))
            .getMessage());
  }
}
