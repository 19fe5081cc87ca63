package io.periscope.watches;

import static org.junit.Assert.assertEquals;

import io.periscope.config.Settings;
import io.periscope.watch.WatchSource;
import io.periscope.watches.WatchWarnings.Warning;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.Test;

public class WatchWarningsTest {
  static final WatchSource SEARCH = new WatchSource("search", "acme launch", null, 7);
  static final WatchSource FEED = new WatchSource("rss", "https://example.org/feed", null, null);

  static WatchWarnings on(boolean search, boolean mail, boolean telegram) {
    return new WatchWarnings(
        new Settings.Integrations(telegram, false, mail),
        () -> CompletableFuture.completedFuture(search),
        (owner, channels) ->
            CompletableFuture.completedFuture(
                channels.contains("email:someone@example.org")
                    ? Map.of("email:someone@example.org", "not confirmed by its mailbox")
                    : Map.of()));
  }

  static List<Warning> of(WatchWarnings w, List<WatchSource> sources, List<String> channels) {
    return w.of("alice", sources, channels).toCompletableFuture().join();
  }

  @Test
  public void namesWhatThisInstanceCannotServeByItsIndex() {
    List<Warning> found =
        of(
            on(false, false, false),
            List.of(FEED, SEARCH),
            List.of("webhook:https://example.org/hook", "email:me@example.org", "telegram"));
    assertEquals(
        List.of(
            new Warning(WatchWarnings.NO_SEARCH_KEY, found.get(0).message(), 1, null),
            new Warning(WatchWarnings.NO_MAIL, found.get(1).message(), null, 1),
            new Warning(WatchWarnings.NO_TELEGRAM, found.get(2).message(), null, 2)),
        found);
  }

  @Test
  public void warnsOfAWatchThatNotifiesNobodyAndOfAChannelNotAllowedYet() {
    assertEquals(
        List.of(
            new Warning(
                WatchWarnings.NO_CHANNELS, "this watch will not notify anyone", null, null)),
        of(on(true, true, true), List.of(SEARCH), List.of()));
    assertEquals(
        List.of(
            new Warning(WatchWarnings.NEEDS_PERMISSION, "not confirmed by its mailbox", null, 0)),
        of(on(true, true, true), List.of(FEED), List.of("email:someone@example.org")));
  }

  @Test
  public void saysNothingWhenEverythingCanWorkOrChannelsAreNotJudged() {
    assertEquals(
        List.of(), of(on(true, true, true), List.of(SEARCH, FEED), List.of("email:a@b.org")));
    assertEquals(List.of(), of(on(true, false, false), List.of(SEARCH), null));
  }
}
