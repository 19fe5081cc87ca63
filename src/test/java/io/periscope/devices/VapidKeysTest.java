package io.periscope.devices;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.periscope.config.Settings;
import io.periscope.testing.TestJournals;
import java.util.Map;
import org.junit.Test;

/** Configured VAPID keys are checked at start-up, and no message quotes a key. */
public class VapidKeysTest {

  @Test
  public void aGeneratedPairParsesBackWithOrWithoutPadding() {
    VapidKeys keys = VapidKeys.generate();
    assertEquals(87, keys.publicKey().length());
    assertEquals(43, keys.privateKey().length());
    assertEquals(keys, VapidKeys.parse(keys.publicKey(), keys.privateKey()));
    assertEquals(keys, VapidKeys.parse(keys.publicKey() + "=", " " + keys.privateKey() + "=\n"));
    assertFalse(keys.toString().contains(keys.privateKey()));
  }

  @Test
  public void badOrMismatchedKeysAreRefusedWithoutQuotingThem() {
    VapidKeys a = VapidKeys.generate();
    VapidKeys b = VapidKeys.generate();
    IllegalArgumentException mismatch =
        assertThrows(
            IllegalArgumentException.class, () -> VapidKeys.parse(a.publicKey(), b.privateKey()));
    assertEquals(
        "VAPID_PRIVATE_KEY is not the private key of VAPID_PUBLIC_KEY", mismatch.getMessage());
    assertTrue(
        assertThrows(
                IllegalArgumentException.class, () -> VapidKeys.parse("not-a-key", a.privateKey()))
            .getMessage()
            .startsWith("VAPID_PUBLIC_KEY must be"));
    String shortKey = a.privateKey().substring(0, 20);
    IllegalArgumentException bad =
        assertThrows(
            IllegalArgumentException.class, () -> VapidKeys.parse(a.publicKey(), shortKey));
    assertTrue(bad.getMessage().startsWith("VAPID_PRIVATE_KEY must be"));
    assertFalse(bad.getMessage().contains(shortKey));
  }

  @Test
  public void theConfigurationNeedsBothKeysOrNeitherAndAContactSubject() {
    VapidKeys keys = VapidKeys.generate();
    assertTrue(
        settings(
                Map.of(
                    "periscope.push.vapid-public-key",
                    keys.publicKey(),
                    "periscope.push.vapid-private-key",
                    keys.privateKey()))
            .push()
            .keysConfigured());
    assertFalse(settings(Map.of()).push().keysConfigured());
    assertThrows(
        IllegalArgumentException.class,
        () -> settings(Map.of("periscope.push.vapid-public-key", keys.publicKey())));
    assertThrows(
        IllegalArgumentException.class,
        () -> settings(Map.of("periscope.push.vapid-subject", "ops@example.org")));
    assertEquals(
        "mailto:ops@example.org",
        settings(Map.of("periscope.push.vapid-subject", "mailto:ops@example.org"))
            .push()
            .vapidSubject());
    assertFalse(
        settings(
                Map.of(
                    "periscope.push.vapid-public-key",
                    keys.publicKey(),
                    "periscope.push.vapid-private-key",
                    keys.privateKey()))
            .toString()
            .contains(keys.privateKey()));
  }

  private static Settings settings(Map<String, String> values) {
    return Settings.from(ConfigFactory.parseMap(values).withFallback(TestJournals.h2()));
  }
}
