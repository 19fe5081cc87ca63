package io.periscope.http;

import io.periscope.net.AddressGuard;
import io.periscope.net.AddressRange;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.pekko.http.javadsl.model.AttributeKeys;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.RemoteAddress;

/**
 * Who sent a request, for rate limits and logs. The connection's peer, unless the peer is one of
 * {@code TRUSTED_PROXIES}: then the forwarded chain of the one header {@code TRUSTED_PROXY_HEADER}
 * names ({@code X-Forwarded-For} by default, or {@code Forwarded} with its {@code for=} values) is
 * read from the right, past every trusted hop, to the first address that is not a trusted proxy.
 * Every other forwarding header is ignored, whoever sent it: proxies pass through what clients
 * wrote in headers they do not set themselves. Without trusted proxies, no forwarding header is
 * read.
 */
public final class ClientAddresses {
  /** TRUSTED_PROXY_HEADER's default: the header nginx, Caddy, Traefik and ingress-nginx append. */
  public static final String DEFAULT_HEADER = "X-Forwarded-For";

  private final List<AddressRange> trustedProxies;
  private final String header;

  private ClientAddresses(List<AddressRange> trustedProxies, String header) {
    this.trustedProxies = List.copyOf(trustedProxies);
    this.header = header.toLowerCase(Locale.ROOT);
  }

  /**
   * The proxies named by {@code TRUSTED_PROXIES}, CIDR blocks or single addresses, and the header
   * they write the client's address in.
   *
   * @throws IllegalArgumentException naming the first entry that is neither, or a header that is
   *     not a header name
   */
  public static ClientAddresses trusting(List<String> written, String header) {
    if (!header.matches("[A-Za-z0-9!#$%&'*+.^_`|~-]+"))
      throw new IllegalArgumentException(
          "TRUSTED_PROXY_HEADER: '" + header + "' is not a header name");
    List<AddressRange> ranges = new ArrayList<>();
    for (String entry : written) {
      ranges.add(
          AddressRange.parse(entry)
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "TRUSTED_PROXIES: '" + entry + "' is not an address or CIDR block")));
    }
    return new ClientAddresses(ranges, header);
  }

  /** The client's address as text, or {@code unknown} when the connection has none. */
  public String of(HttpRequest request) {
    Optional<InetAddress> peer =
        request.getAttribute(AttributeKeys.remoteAddress).flatMap(RemoteAddress::getAddress);
    if (peer.isEmpty()) return "unknown";
    InetAddress client = peer.get();
    if (!trusted(client)) return client.getHostAddress();
    List<String> hops = forwardedChain(request);
    for (int i = hops.size() - 1; i >= 0 && trusted(client); i--) {
      Optional<InetAddress> hop = literal(hops.get(i));
      if (hop.isEmpty())
        break; // an obfuscated or broken hop: the proxy that wrote it is the client
      client = hop.get();
    }
    return client.getHostAddress();
  }

  /**
   * What a per-client rate limit counts by: the address itself, or for IPv6 its /64, which one
   * subscriber usually holds whole (so a client cannot step around its limit within its own
   * network).
   */
  public static String rateKey(String address) {
    Optional<InetAddress> parsed = AddressGuard.parseLiteral(address);
    if (parsed.isEmpty() || !(parsed.get() instanceof Inet6Address)) return address;
    return prefix(parsed.get(), 64);
  }

  /**
   * The client network of an address, as sign-in backoff counts it: its IPv4 /24 or IPv6 /64 (an
   * address that is neither stands for itself).
   */
  public static String network(String address) {
    Optional<InetAddress> parsed = AddressGuard.parseLiteral(address);
    if (parsed.isEmpty()) return address;
    return prefix(parsed.get(), parsed.get() instanceof Inet6Address ? 64 : 24);
  }

  /** {@code address}'s first {@code bits} (a multiple of 8) as a CIDR block. */
  private static String prefix(InetAddress address, int bits) {
    byte[] bytes = address.getAddress();
    Arrays.fill(bytes, bits / 8, bytes.length, (byte) 0);
    try {
      return InetAddress.getByAddress(bytes).getHostAddress() + "/" + bits;
    } catch (java.net.UnknownHostException impossible) {
      throw new IllegalStateException(impossible);
    }
  }

  /**
   * Whether a connection's peer is one of the trusted proxies (which the per-address connection cap
   * leaves alone: every client behind them shares their address).
   */
  public boolean trusted(InetAddress address) {
    return trustedProxies.stream().anyMatch(range -> range.contains(address));
  }

  /**
   * The hops of the configured header, leftmost (the original client, as far as anyone claims)
   * first; repeated headers are one list.
   */
  private List<String> forwardedChain(HttpRequest request) {
    boolean forwarded = header.equals("forwarded");
    List<String> hops = new ArrayList<>();
    for (HttpHeader h : request.getHeaders()) {
      if (!h.is(header)) continue;
      for (String element : h.value().split(",")) {
        if (!forwarded) {
          hops.add(element.strip());
          continue;
        }
        for (String pair : element.split(";")) {
          String[] nameValue = pair.strip().split("=", 2);
          if (nameValue.length == 2 && nameValue[0].strip().equalsIgnoreCase("for"))
            hops.add(nameValue[1].strip());
        }
      }
    }
    return hops;
  }

  /**
   * A hop as written: {@code 192.0.2.60}, {@code "[2001:db8::1]:4711"}, {@code 192.0.2.60:443};
   * never a host name (no DNS is asked).
   */
  private static Optional<InetAddress> literal(String hop) {
    String text = hop.strip();
    if (text.length() >= 2 && text.startsWith("\"") && text.endsWith("\""))
      text = text.substring(1, text.length() - 1);
    if (text.startsWith("[")) {
      int close = text.indexOf(']');
      if (close < 0) return Optional.empty();
      text = text.substring(1, close);
    } else if (text.indexOf(':') >= 0 && text.indexOf(':') == text.lastIndexOf(':')) {
      text = text.substring(0, text.indexOf(':')); // IPv4 with a port
    }
    return AddressGuard.parseLiteral(text);
  }
}
