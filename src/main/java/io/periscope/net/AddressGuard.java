package io.periscope.net;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which addresses a user-supplied URL may reach (the SSRF rules of docs/security.md): nothing on
 * this host, the local networks, the cloud metadata service, multicast or the reserved ranges, and
 * no IPv6 form that smuggles such an IPv4 address inside it.
 */
public final class AddressGuard {
  private record Range(AddressRange block, String reason) {
    boolean contains(byte[] address) {
      return block.contains(address);
    }
  }

  private static final List<Range> IPV4_REFUSED =
      List.of(
          v4("0.0.0.0", 8, "any-local"),
          v4("10.0.0.0", 8, "private"),
          v4("100.64.0.0", 10, "carrier-grade NAT"),
          v4("127.0.0.0", 8, "loopback"),
          v4("169.254.0.0", 16, "link-local or metadata"),
          v4("172.16.0.0", 12, "private"),
          v4("192.0.0.0", 24, "IETF protocol assignments"),
          v4("192.168.0.0", 16, "private"),
          v4("198.18.0.0", 15, "benchmarking"),
          v4("224.0.0.0", 4, "multicast"),
          v4("240.0.0.0", 4, "reserved or broadcast"));

  // Checked before the embedded-IPv4 forms below, so their reasons win.
  private static final List<Range> IPV6_REFUSED =
      List.of(
          v6("::", 128, "any-local"),
          v6("::1", 128, "loopback"),
          v6("::ffff:0:0", 96, "IPv4-mapped"),
          // Deprecated IPv4-compatible form: nothing legitimate uses it any more.
          v6("::", 96, "IPv4-compatible"),
          v6("64:ff9b:1::", 48, "local-use NAT64"),
          // Teredo hides the client address obfuscated; refusing the tunnel is simpler than
          // unmasking it.
          v6("2001::", 32, "Teredo"),
          v6("fc00::", 7, "unique-local"),
          v6("fe80::", 10, "link-local"),
          v6("fec0::", 10, "site-local"),
          v6("ff00::", 8, "multicast"));

  private static final Range NAT64 = v6("64:ff9b::", 96, "NAT64");
  private static final Range SIX_TO_FOUR = v6("2002::", 16, "6to4");

  private static final Pattern CANONICAL_IPV4 =
      Pattern.compile("(0|[1-9]\\d{0,2})(\\.(0|[1-9]\\d{0,2})){3}");

  private AddressGuard() {}

  /** Why {@code address} must not be reached, or empty when it may. */
  public static Optional<String> refusal(InetAddress address) {
    byte[] bytes = address.getAddress();
    if (address instanceof Inet4Address) return refusalV4(bytes);
    if (address instanceof Inet6Address) return refusalV6(bytes);
    return Optional.of("unknown address family");
  }

  /**
   * Why an IP literal written in a URL must not be reached. Java (and OkHttp) quietly turn an
   * IPv4-mapped literal such as {@code ::ffff:8.8.8.8} into plain IPv4, so the mapped form is
   * refused here, from the text. IPv4 is accepted only as four dotted decimals: Java would read
   * {@code 127.1} or {@code 2130706433} as loopback, and would send a malformed "literal" such as
   * {@code 999.1.1.1} to DNS, past any guard.
   */
  public static Optional<String> refusalOfLiteral(String literal) {
    Optional<InetAddress> address = parseLiteral(literal);
    if (address.isEmpty()) return Optional.of("not a canonical IP address");
    if (literal.contains(":") && address.get() instanceof Inet4Address)
      return Optional.of("IPv4-mapped");
    return refusal(address.get());
  }

  /**
   * The address an IP literal (IPv6 optionally in brackets) stands for, parsed without ever asking
   * DNS.
   */
  public static Optional<InetAddress> parseLiteral(String literal) {
    String text =
        literal.startsWith("[") && literal.endsWith("]")
            ? literal.substring(1, literal.length() - 1)
            : literal;
    try {
      if (text.contains(":"))
        return Optional.of(InetAddress.getByName(text)); // a colon: IPv6, never looked up
      if (!CANONICAL_IPV4.matcher(text).matches()) return Optional.empty();
      String[] parts = text.split("\\.");
      byte[] bytes = new byte[4];
      for (int i = 0; i < 4; i++) {
        int value = Integer.parseInt(parts[i]);
        if (value > 255) return Optional.empty();
        bytes[i] = (byte) value;
      }
      return Optional.of(InetAddress.getByAddress(bytes));
    } catch (UnknownHostException e) {
      return Optional.empty();
    }
  }

  private static Optional<String> refusalV4(byte[] bytes) {
    return IPV4_REFUSED.stream().filter(r -> r.contains(bytes)).map(Range::reason).findFirst();
  }

  private static Optional<String> refusalV6(byte[] bytes) {
    Optional<String> direct =
        IPV6_REFUSED.stream().filter(r -> r.contains(bytes)).map(Range::reason).findFirst();
    if (direct.isPresent()) return direct;
    if (NAT64.contains(bytes)) return embedded(Arrays.copyOfRange(bytes, 12, 16), NAT64.reason());
    if (SIX_TO_FOUR.contains(bytes))
      return embedded(Arrays.copyOfRange(bytes, 2, 6), SIX_TO_FOUR.reason());
    return Optional.empty();
  }

  private static Optional<String> embedded(byte[] v4, String form) {
    return refusalV4(v4).map(reason -> reason + " behind " + form);
  }

  private static Range v4(String network, int bits, String reason) {
    return new Range(new AddressRange(parse(network), bits), reason);
  }

  private static Range v6(String network, int bits, String reason) {
    // Built from raw bytes: InetAddress.getByName would turn ::ffff:0:0 into IPv4.
    return new Range(new AddressRange(ipv6Bytes(network), bits), reason);
  }

  private static byte[] parse(String literal) {
    try {
      return InetAddress.getByName(literal).getAddress();
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException(literal, e);
    }
  }

  private static byte[] ipv6Bytes(String literal) {
    String[] halves = literal.split("::", -1);
    int[] head = groups(halves[0]);
    int[] tail = halves.length > 1 ? groups(halves[1]) : new int[0];
    byte[] bytes = new byte[16];
    for (int i = 0; i < head.length; i++) putGroup(bytes, i, head[i]);
    for (int i = 0; i < tail.length; i++) putGroup(bytes, 8 - tail.length + i, tail[i]);
    return bytes;
  }

  private static int[] groups(String part) {
    return part.isEmpty()
        ? new int[0]
        : Arrays.stream(part.split(":")).mapToInt(g -> Integer.parseInt(g, 16)).toArray();
  }

  private static void putGroup(byte[] bytes, int group, int value) {
    bytes[group * 2] = (byte) (value >> 8);
    bytes[group * 2 + 1] = (byte) value;
  }
}
