package io.periscope.net;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.net.InetAddress;
import org.junit.Test;

public class AddressRangeTest {
  private static boolean contains(String range, String address) throws Exception {
    return AddressRange.parse(range).orElseThrow().contains(InetAddress.getByName(address));
  }

  @Test
  public void blocksAndSingleAddresses() throws Exception {
    assertTrue(contains("10.0.0.0/8", "10.255.1.2"));
    assertFalse(contains("10.0.0.0/8", "11.0.0.1"));
    assertTrue(contains("172.16.0.0/12", "172.31.0.1"));
    assertFalse(contains("172.16.0.0/12", "172.32.0.1"));
    assertTrue(contains("192.0.2.1", "192.0.2.1"));
    assertFalse(contains("192.0.2.1", "192.0.2.2"));
    assertTrue(contains("fd00::/8", "fd12::1"));
    assertFalse(contains("fd00::/8", "10.0.0.1"));
    assertTrue(contains("0.0.0.0/0", "8.8.8.8"));
  }

  @Test
  public void whatIsNotCidrIsRefused() {
    for (String bad :
        new String[] {"10.0.0.0/33", "10.0.0/8", "host.example", "10.0.0.0/x", "::/129", ""})
      assertTrue(bad, AddressRange.parse(bad).isEmpty());
  }
}
