package io.periscope.http;

import io.periscope.net.AddressGuard;
import io.periscope.net.AddressRange;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.pekko.http.javadsl.model.AttributeKeys;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.RemoteAddress;

/**
 * Who sent a request, for rate limits and logs. The connection's peer, unless the peer is one of
 * {@code TRUSTED_PROXIES}: then the forwarded chain ({@code Forwarded}'s {@code for=} when the
 * request has one, else {@code X-Forwarded-For}) is read from the right, past every trusted hop, to
 * the first address that is not a trusted proxy. Without trusted proxies, forwarded headers are
 * ignored: anyone can write them.
 */
public final class ClientAddresses {
  private final List<AddressRange> trustedProxies;

  public ClientAddresses(List<AddressRange> trustedProxies) {
    this.trustedProxies = List.copyOf(trustedProxies);
  }

  /**
   * The proxies named by {@code TRUSTED_PROXIES}, CIDR blocks or single addresses.
   *
   * @throws IllegalArgumentException naming the first entry that is neither
   */
  public static ClientAddresses trusting(List<String> written) {
    List<AddressRange> ranges = new ArrayList<>();
    for (String entry : written) {
      ranges.add(
          AddressRange.parse(entry)
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "TRUSTED_PROXIES: '" + entry + "' is not an address or CIDR block")));
    }
    return new ClientAddresses(ranges);
  }

  /** The client's address as text, or {@code unknown} when the connection has none. */
  public String of(HttpRequest request) {
    Optional<InetAddress> peer =
        request.getAttribute(AttributeKeys.remoteAddress).flatMap(RemoteAddress::getAddress);
    if (peer.isEmpty()) return "unknown";
    InetAddress client = peer.get();
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
    if (parsed.isEmpty() || !(parsed.get() instanceof Inet6Address v6)) return address;
    byte[] prefix = Arrays.copyOf(v6.getAddress(), 16);
    Arrays.fill(prefix, 8, 16, (byte) 0);
    try {
      return InetAddress.getByAddress(prefix).getHostAddress() + "/64";
    } catch (java.net.UnknownHostException impossible) {
      throw new IllegalStateException(impossible);
    }
  }

  private boolean trusted(InetAddress address) {
    return trustedProxies.stream().anyMatch(range -> range.contains(address));
  }

  /** The forwarded hops, leftmost (the original client, as far as anyone claims) first. */
  private static List<String> forwardedChain(HttpRequest request) {
    List<String> forwarded = new ArrayList<>();
    List<String> xForwardedFor = new ArrayList<>();
    for (HttpHeader header : request.getHeaders()) {
      if (header.is("forwarded")) {
        for (String element : header.value().split(",")) {
          for (String pair : element.split(";")) {
            String[] nameValue = pair.strip().split("=", 2);
            if (nameValue.length == 2 && nameValue[0].strip().equalsIgnoreCase("for"))
              forwarded.add(nameValue[1].strip());
          }
        }
      } else if (header.is("x-forwarded-for")) {
        for (String hop : header.value().split(",")) xForwardedFor.add(hop.strip());
      }
    }
    return forwarded.isEmpty() ? xForwardedFor : forwarded;
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
