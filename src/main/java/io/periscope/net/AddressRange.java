package io.periscope.net;

import java.net.InetAddress;
import java.util.Optional;

/**
 * A block of IP addresses written as CIDR, {@code 10.0.0.0/8} or {@code fd00::/8} (a bare address
 * is its own block). Hand-written: the SSRF guard and the trusted proxies need only containment,
 * and parsing goes through {@link AddressGuard#parseLiteral}, which never asks DNS.
 */
public record AddressRange(byte[] network, int prefixBits) {
  public boolean contains(byte[] address) {
    if (address.length != network.length) return false;
    int fullBytes = prefixBits / 8;
    for (int i = 0; i < fullBytes; i++) {
      if (address[i] != network[i]) return false;
    }
    int restBits = prefixBits % 8;
    if (restBits == 0) return true;
    int mask = (0xFF << (8 - restBits)) & 0xFF;
    return (address[fullBytes] & mask) == (network[fullBytes] & mask);
  }

  public boolean contains(InetAddress address) {
    return contains(address.getAddress());
  }

  /** The block {@code written} names, or empty when it is not CIDR. */
  public static Optional<AddressRange> parse(String written) {
    String text = written.strip();
    int slash = text.indexOf('/');
    String literal = slash < 0 ? text : text.substring(0, slash);
    Optional<InetAddress> address = AddressGuard.parseLiteral(literal);
    if (address.isEmpty()) return Optional.empty();
    int width = address.get().getAddress().length * 8;
    int bits;
    try {
      bits = slash < 0 ? width : Integer.parseInt(text.substring(slash + 1));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    if (bits < 0 || bits > width) return Optional.empty();
    return Optional.of(new AddressRange(address.get().getAddress(), bits));
  }
}
