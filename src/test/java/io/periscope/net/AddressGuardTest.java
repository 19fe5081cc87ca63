package io.periscope.net;

import static org.junit.Assert.assertEquals;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Optional;
import org.junit.Test;

public class AddressGuardTest {
  private static Optional<String> refusal(String literal) throws Exception {
    return AddressGuard.refusal(InetAddress.getByName(literal));
  }

  private static void assertRefused(String literal, String reason) throws Exception {
    assertEquals(literal, Optional.of(reason), refusal(literal));
  }

  private static void assertAllowed(String literal) throws Exception {
    assertEquals(literal, Optional.empty(), refusal(literal));
  }

  @Test
  public void refusesIpv4LocalAndReservedRanges() throws Exception {
    assertRefused("127.0.0.1", "loopback");
    assertRefused("127.255.255.254", "loopback");
    assertRefused("0.0.0.0", "any-local");
    assertRefused("0.1.2.3", "any-local");
    assertRefused("10.0.0.1", "private");
    assertRefused("10.255.255.255", "private");
    assertRefused("172.16.0.1", "private");
    assertRefused("172.31.255.255", "private");
    assertRefused("192.168.1.1", "private");
    assertRefused("169.254.169.254", "link-local or metadata");
    assertRefused("169.254.0.1", "link-local or metadata");
    assertRefused("100.64.0.1", "carrier-grade NAT");
    assertRefused("100.127.255.255", "carrier-grade NAT");
    assertRefused("224.0.0.1", "multicast");
    assertRefused("239.255.255.250", "multicast");
    assertRefused("255.255.255.255", "reserved or broadcast");
  }

  @Test
  public void allowsPublicIpv4IncludingTheNeighboursOfRefusedRanges() throws Exception {
    assertAllowed("93.184.216.34");
    assertAllowed("8.8.8.8");
    assertAllowed("172.15.255.255");
    assertAllowed("172.32.0.1");
    assertAllowed("100.63.255.255");
    assertAllowed("100.128.0.1");
    assertAllowed("11.0.0.1");
    assertAllowed("169.253.255.255");
  }

  @Test
  public void refusesIpv6LocalRanges() throws Exception {
    assertRefused("::1", "loopback");
    assertRefused("::", "any-local");
    assertRefused("fe80::1", "link-local");
    assertRefused("febf::1", "link-local");
    assertRefused("fc00::1", "unique-local");
    assertRefused("fd12:3456:789a::1", "unique-local");
    assertRefused("ff02::1", "multicast");
    assertRefused("fec0::1", "site-local");
  }

  @Test
  public void allowsPublicIpv6() throws Exception {
    assertAllowed("2606:4700::1111");
    assertAllowed("2001:4860:4860::8888");
  }

  @Test
  public void refusesIpv4MappedOutrightEvenForAPublicAddress() throws Exception {
    byte[] mappedPublic = {
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 93, (byte) 184, (byte) 216, 34
    };
    // Inet6Address.getByAddress keeps the IPv6 form (InetAddress.getByName would unwrap it to
    // IPv4).
    assertEquals(
        Optional.of("IPv4-mapped"),
        AddressGuard.refusal(Inet6Address.getByAddress(null, mappedPublic, -1)));
  }

  @Test
  public void refusesIpv4MappedLiteralsWrittenInText() {
    assertEquals(Optional.of("IPv4-mapped"), AddressGuard.refusalOfLiteral("[::ffff:127.0.0.1]"));
    assertEquals(Optional.of("IPv4-mapped"), AddressGuard.refusalOfLiteral("::ffff:93.184.216.34"));
    assertEquals(Optional.of("IPv4-mapped"), AddressGuard.refusalOfLiteral("::ffff:a9fe:a9fe"));
    assertEquals(Optional.of("loopback"), AddressGuard.refusalOfLiteral("127.0.0.1"));
    assertEquals(Optional.empty(), AddressGuard.refusalOfLiteral("[2606:4700::1111]"));
    assertEquals(Optional.empty(), AddressGuard.refusalOfLiteral("93.184.216.34"));
  }

  @Test
  public void refusesIpv6FormsThatEmbedAPrivateIpv4() throws Exception {
    assertRefused("::127.0.0.1", "IPv4-compatible");
    assertRefused("::93.184.216.34", "IPv4-compatible");
    assertRefused("64:ff9b::a9fe:a9fe", "link-local or metadata behind NAT64"); // 169.254.169.254
    assertRefused("64:ff9b::10.0.0.1", "private behind NAT64");
    assertRefused("2002:7f00:1::", "loopback behind 6to4"); // 127.0.0.1
    assertRefused("2002:c0a8:101::1", "private behind 6to4"); // 192.168.1.1
    assertRefused("64:ff9b:1::1", "local-use NAT64");
    assertRefused("2001:0:4136:e378::1", "Teredo");
  }

  @Test
  public void allowsIpv6FormsThatEmbedAPublicIpv4() throws Exception {
    assertAllowed("64:ff9b::5db8:d822"); // 93.184.216.34
    assertAllowed("2002:5db8:d822::1");
  }

  @Test
  public void refusesIpv4LiteralsThatAreNotFourDottedDecimals() {
    assertEquals(
        Optional.of("not a canonical IP address"), AddressGuard.refusalOfLiteral("999.1.1.1"));
    assertEquals(Optional.of("not a canonical IP address"), AddressGuard.refusalOfLiteral("127.1"));
    assertEquals(
        Optional.of("not a canonical IP address"), AddressGuard.refusalOfLiteral("2130706433"));
    assertEquals(
        Optional.of("not a canonical IP address"), AddressGuard.refusalOfLiteral("010.0.0.1"));
    assertEquals(
        Optional.of("not a canonical IP address"),
        AddressGuard.refusalOfLiteral("[1:2:3:4:5:6:7:8:9]"));
  }
}
