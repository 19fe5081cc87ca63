package io.periscope.channels;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Json;
import io.periscope.json.ValidationException;
import io.periscope.keys.KeyCipher;
import io.periscope.notify.ChannelMask;
import io.periscope.testing.TestWatches;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** Channel credentials: masked for showing, sealed for storing, matched back when sent masked. */
public class SealedChannelsTest {
  private static final String SECRET = "a-service-secret-of-at-least-32-bytes!";
  private final SealedChannels sealed =
      new SealedChannels(KeyCipher.keyring(List.of("first-encryption-key-of-32-bytes-x"), SECRET));

  private static final String NTFY = "ntfy:https://alice:hunter2-pass@ntfy.example.org/alerts";
  private static final String PUSHOVER =
      "pushover:uQiRzpo4DXghDmr9QzzfQu27cmVRsG@azGDORePK8gMaC0QOYAMyEEuzJnyUi";

  @Test
  public void masksEverySecretPartAndNothingElse() {
    assertEquals("ntfy:https://alice:••••@ntfy.example.org/alerts", ChannelMask.mask(NTFY));
    assertEquals(
        "ntfy:https://••••@ntfy.example.org/alerts",
        ChannelMask.mask("ntfy:https://tk_abcdefghijklmnop@ntfy.example.org/alerts"));
    assertEquals(
        "gotify:https://••••@push.example.org",
        ChannelMask.mask("gotify:https://AbCdEf123@push.example.org"));
    assertEquals(
        "matrix:https://••••@matrix.example.org/!room:example.org",
        ChannelMask.mask("matrix:https://syt_token@matrix.example.org/!room:example.org"));
    assertEquals(
        "slack:https://hooks.slack.com/services/T0001/B0001/••••",
        ChannelMask.mask("slack:https://hooks.slack.com/services/T0001/B0001/XXXXsecretXXXX"));
    assertEquals(
        "discord:https://discord.com/api/webhooks/123/••••",
        ChannelMask.mask("discord:https://discord.com/api/webhooks/123/tok-en"));
    assertEquals(
        "webhook:https://hooks.example.org/in?••••",
        ChannelMask.mask("webhook:https://hooks.example.org/in?token=abc"));
    assertEquals("pushover:uQiR••••@••••", ChannelMask.mask(PUSHOVER));
    for (String open :
        List.of(
            "telegram",
            "telegram:-100123",
            "email:a@example.org",
            "push",
            "webhook:https://x.org/h"))
      assertEquals("no secret, nothing masked", open, ChannelMask.mask(open));
  }

  @Test
  public void aSealedChannelShowsItsMaskAndOpensToTheCredential() {
    String stored = sealed.seal(NTFY);
    assertFalse("the credential is not in what is stored", stored.contains("hunter2"));
    assertTrue(stored.startsWith("ntfy:https://alice:••••@ntfy.example.org/alerts#sealed="));
    assertEquals("ntfy:https://alice:••••@ntfy.example.org/alerts", ChannelMask.mask(stored));
    assertEquals(NTFY, sealed.open(stored));
    assertEquals("sealing twice changes nothing", stored, sealed.seal(stored));
    assertEquals("telegram", sealed.seal("telegram"));
    assertEquals(PUSHOVER, sealed.open(sealed.seal(PUSHOVER)));
  }

  @Test
  public void anotherKeyringCannotOpenItNorCanItBeMovedUnderAnotherName() {
    String stored = sealed.seal(NTFY);
    SealedChannels other =
        new SealedChannels(
            KeyCipher.keyring(List.of("another-encryption-key-of-32-bytes"), SECRET));
    assertThrows(IllegalStateException.class, () -> other.open(stored));
    String moved =
        "ntfy:https://alice:••••@evil.example.org/alerts"
            + stored.substring(stored.indexOf("#sealed="));
    assertThrows(IllegalStateException.class, () -> sealed.open(moved));
  }

  @Test
  public void aMaskedChannelSentBackIsTheStoredOneAndAnUnknownMaskIsRefused() {
    String stored = sealed.seal(NTFY);
    JsonNode body =
        Json.MAPPER.valueToTree(
            Map.of(
                "channels",
                List.of("telegram", "ntfy:https://alice:••••@ntfy.example.org/alerts")));
    SealedChannels.Opened opened = sealed.open(body, List.of("telegram", stored));
    assertEquals(
        List.of("telegram", NTFY),
        Json.MAPPER.convertValue(opened.body().get("channels"), List.class));
    ObjectNode written = TestWatches.body("w").tree();
    written.set("channels", opened.body().get("channels"));
    var watch =
        io.periscope.watch.WatchValidator.validate(
            written, null, "alice", java.time.ZoneOffset.UTC);
    assertEquals(
        "kept as stored, not sealed anew",
        List.of("telegram", stored),
        opened.store(watch).channels());

    ValidationException refused =
        assertThrows(
            ValidationException.class,
            () ->
                sealed.open(
                    Json.MAPPER.valueToTree(
                        Map.of(
                            "channels", List.of("ntfy:https://bob:••••@ntfy.example.org/alerts"))),
                    List.of(stored)));
    assertEquals(List.of("channels", 0), refused.issues().get(0).path());
  }

  @Test
  public void aNewCredentialIsSealedWhenStored() {
    SealedChannels.Opened opened =
        sealed.open(Json.MAPPER.valueToTree(Map.of("channels", List.of(NTFY))), List.of());
    var plain =
        new io.periscope.watch.Watch(
            "w", "alice", "w", List.of(), "0 * * * *", "c", List.of(NTFY), 0.5, null, true, null);
    String stored = opened.store(plain).channels().get(0);
    assertNotEquals(NTFY, stored);
    assertEquals(NTFY, sealed.open(stored));
  }
}
