package io.periscope.channels;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Issue;
import io.periscope.json.Json;
import io.periscope.json.ValidationException;
import io.periscope.keys.KeyCipher;
import io.periscope.notify.ChannelMask;
import io.periscope.watch.Watch;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The credentials inside channel identifiers, sealed with the keyring at rest and masked wherever
 * they are shown (docs/channels.md, "Credentials in channels").
 *
 * <p>A channel's secret parts are a URL's user part (an ntfy token or password, a Gotify or Matrix
 * token) and query, the last path segment of a Slack or Discord webhook URL (its token), and both
 * keys of a Pushover channel ({@link ChannelMask}). The <em>sealed</em> form, the one stored, is
 * the masked form, {@code #sealed=} and the whole identifier encrypted with the keyring
 * (base64url): the journal, cluster messages and run records carry no credential, and the masked
 * form is read off without a key. A channel with no secret part is stored as it is.
 */
public final class SealedChannels {
  private final KeyCipher cipher;

  public SealedChannels(KeyCipher cipher) {
    this.cipher = cipher;
  }

  /** The identifier to store: sealed when it has a secret part; a sealed one as it is. */
  public String seal(String id) {
    if (ChannelMask.sealed(id)) return id;
    String masked = ChannelMask.mask(id);
    if (masked.equals(id)) return id;
    return masked
        + ChannelMask.MARK
        + Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(cipher.encrypt(id).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The identifier in plain text, to send to; a plain one as it is.
   *
   * @throws IllegalStateException when no key of the keyring sealed it, or it was pieced together
   */
  public String open(String id) {
    int mark = id.lastIndexOf(ChannelMask.MARK);
    if (mark < 0) return id;
    String plain;
    try {
      plain =
          cipher.decrypt(
              new String(
                  Base64.getUrlDecoder().decode(id.substring(mark + ChannelMask.MARK.length())),
                  StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("not a sealed channel", e);
    }
    // the shown part must be the sealed identifier's own mask: a sealed credential is never
    // moved under another channel's name
    if (!ChannelMask.mask(plain).equals(id.substring(0, mark)))
      throw new IllegalStateException("not a sealed channel");
    return plain;
  }

  /**
   * Whether re-encrypting would change nothing: it has no secret part, or the newest key sealed it.
   */
  public boolean current(String id) {
    int mark = id.lastIndexOf(ChannelMask.MARK);
    if (mark < 0) return ChannelMask.mask(id).equals(id);
    try {
      return cipher.current(
          new String(
              Base64.getUrlDecoder().decode(id.substring(mark + ChannelMask.MARK.length())),
              StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** The watch as answers show it: its channels masked. */
  public static Watch mask(Watch watch) {
    return watch.withChannels(watch.channels().stream().map(ChannelMask::mask).toList());
  }

  /** The watch as stored: its channels sealed. */
  public Watch seal(Watch watch) {
    return watch.withChannels(watch.channels().stream().map(this::seal).toList());
  }

  /**
   * A watch body as a client sent it, its channels made plain for validation and the permission
   * checks: a sealed one (an export's) opened, a masked one (what an answer showed) replaced by the
   * stored channel it masks, in order. {@link Opened#store} then gives what to store: the stored or
   * sent sealed identifier where there was one, so saving a watch unchanged keeps its ciphertexts.
   *
   * @param stored the watch's channels as stored now; none for a new watch
   * @throws ValidationException at {@code ["channels", i]} for a masked channel the watch does not
   *     have or a sealed one this keyring cannot open
   */
  public Opened open(JsonNode body, List<String> stored) {
    JsonNode channels = body == null ? null : body.get("channels");
    if (channels == null || !channels.isArray()) return new Opened(body, Map.of());
    List<String> unmatched = new ArrayList<>(stored);
    Map<String, String> kept = new HashMap<>();
    List<Issue> issues = new ArrayList<>();
    ArrayNode plain = Json.MAPPER.createArrayNode();
    for (int i = 0; i < channels.size(); i++) {
      JsonNode c = channels.get(i);
      String id = c.isTextual() ? c.asText() : null;
      Optional<String> keep = Optional.empty();
      if (ChannelMask.sealed(id)) {
        keep = Optional.of(id);
      } else if (ChannelMask.masked(id)) {
        keep = unmatched.stream().filter(s -> ChannelMask.mask(s).equals(id)).findFirst();
        keep.ifPresent(unmatched::remove);
        if (keep.isEmpty())
          issues.add(
              Issue.at(
                  "hides its credential ("
                      + ChannelMask.MASK
                      + ") and is not one of this watch's channels: write it in full",
                  "channels",
                  i));
      }
      if (keep.isEmpty()) {
        plain.add(c);
        continue;
      }
      try {
        String opened = open(keep.get());
        // one stored in plain text (by an earlier version) is sealed now
        kept.put(opened, seal(keep.get()));
        plain.add(opened);
      } catch (IllegalStateException e) {
        issues.add(
            Issue.at(
                "is sealed with a key this instance's ENCRYPTION_KEY does not have",
                "channels",
                i));
      }
    }
    if (!issues.isEmpty()) throw new ValidationException(issues);
    ObjectNode copy = ((ObjectNode) body).deepCopy();
    copy.set("channels", plain);
    return new Opened(copy, kept);
  }

  /** A body with plain channels, and the sealed identifier each came from. */
  public final class Opened {
    private final JsonNode body;
    private final Map<String, String> kept;

    private Opened(JsonNode body, Map<String, String> kept) {
      this.body = body;
      this.kept = kept;
    }

    public JsonNode body() {
      return body;
    }

    /** The validated watch as it is stored: each channel sealed, as it was when it came sealed. */
    public Watch store(Watch plain) {
      return plain.withChannels(
          plain.channels().stream().map(c -> kept.containsKey(c) ? kept.get(c) : seal(c)).toList());
    }
  }
}
