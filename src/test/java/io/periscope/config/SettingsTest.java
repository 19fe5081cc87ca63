package io.periscope.config;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.time.ZoneId;
import java.util.List;
import org.junit.Test;

/** What the operator's environment may hold, checked before anything starts. */
public class SettingsTest {
  private static Settings withEnvironment(java.util.Map<String, String> env) {
    // at the root, where a ${?VAR} substitution looks before the process environment
    return Settings.from(
        Profiles.load("embedded", com.typesafe.config.ConfigFactory.parseMap(env)));
  }

  @Test
  public void aRunsDeadlineIsThreeMinutesUnlessSetWithinItsBounds() {
    assertEquals(
        java.time.Duration.ofMinutes(3), withEnvironment(java.util.Map.of()).runDeadline());
    assertEquals(
        java.time.Duration.ofSeconds(90),
        withEnvironment(java.util.Map.of("RUN_DEADLINE", "90s")).runDeadline());
    for (String bad : List.of("500ms", "5m")) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> withEnvironment(java.util.Map.of("RUN_DEADLINE", bad)));
      assertEquals("RUN_DEADLINE must be between 1s and 4m", e.getMessage());
    }
  }

  @Test
  public void adminChannelsAreAListInTheChannelGrammarAndABadOneStopsTheStart() {
    assertEquals(
        List.of(),
        Settings.adminChannels(
            Profiles.load(
                "embedded", com.typesafe.config.ConfigFactory.parseMap(java.util.Map.of()))));
    assertEquals(
        List.of(
            "webhook:https://ops.example.org/hook",
            "ntfy:https://ntfy.example.org/ops",
            "telegram"),
        Settings.adminChannels(
            Profiles.load(
                "embedded",
                com.typesafe.config.ConfigFactory.parseMap(
                    java.util.Map.of(
                        "ADMIN_CHANNELS",
                        " webhook:https://ops.example.org/hook,ntfy:https://ntfy.example.org/ops"
                            + "  telegram, telegram")))));
    for (String bad :
        List.of(
            "webhook:ftp://ops.example.org",
            "push",
            "telegram, gotify:https://x.org/?token=s3cret")) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> withEnvironment(java.util.Map.of("ADMIN_CHANNELS", bad)));
      assertTrue(e.getMessage(), e.getMessage().startsWith("ADMIN_CHANNELS: entry "));
      assertFalse("no part of a value in the message", e.getMessage().contains("s3cret"));
    }
  }

  @Test
  public void seededKeysAreTrimmedAndEmptyOnesDropped() {
    assertEquals(
        List.of("sk-one", "sk-two"), Settings.seededKeys("MODEL_API_KEYS", " sk-one, ,sk-two "));
  }

  @Test
  public void aSeededKeyAHeaderCannotCarryIsRefusedWithoutBeingQuoted() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Settings.seededKeys("SEARCH_API_KEYS", "good-key,bad key é"));
    assertEquals(
        "SEARCH_API_KEYS: key 2 of 2 is not printable ASCII without spaces", e.getMessage());
    assertFalse(e.getMessage().contains("bad"));
  }

  @Test
  public void aScheduleTimeZoneThatIsNoIanaNameStopsTheStart() {
    assertEquals(ZoneId.of("Europe/Berlin"), Settings.scheduleTimeZone("Europe/Berlin"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Settings.scheduleTimeZone("CET+1"));
    assertTrue(e.getMessage(), e.getMessage().startsWith("SCHEDULE_TIME_ZONE must be"));
  }

  @Test
  public void webOriginsAreOriginsLowerCasedWithoutDefaultPorts() {
    assertEquals(
        List.of("https://app.example", "http://localhost:5173"),
        Settings.webOrigins(" HTTPS://App.Example:443 , http://localhost:5173"));
  }

  @Test
  public void aMalformedWebOriginStopsTheStart() {
    for (String bad :
        List.of(
            "app.example",
            "http://app.example/",
            "https://app.example/app",
            "ftp://app.example",
            "*",
            "http://user@app.example",
            "http://app.example?x=1",
            "http://")) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> Settings.webOrigins(bad));
      assertTrue(bad + ": " + e.getMessage(), e.getMessage().startsWith("WEB_ORIGIN: "));
    }
  }
}
