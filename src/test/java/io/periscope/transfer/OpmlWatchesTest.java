package io.periscope.transfer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.source.Opml;
import io.periscope.watch.WatchValidator;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

/** An OPML file as watches: one per folder, split at the source limit, each a valid watch. */
public class OpmlWatchesTest {
  @Test
  public void eachFolderIsAWatchAndABigOneIsSplitAtTheSourceLimit() {
    List<Opml.Feed> feeds = new ArrayList<>();
    for (int i = 0; i < 45; i++)
      feeds.add(new Opml.Feed("f" + i, "https://big.example/" + i, "Big"));
    feeds.add(new Opml.Feed("Small", "https://small.example/", "Space / Small"));
    feeds.add(new Opml.Feed("Loose", "https://loose.example/", null));
    JsonNode account =
        OpmlWatches.account("alice", new Opml.Listed("My reader", feeds, List.of(), false));

    assertEquals("alice", account.get("id").asText());
    List<String> names = new ArrayList<>();
    account.get("watches").forEach(w -> names.add(w.get("name").asText()));
    assertEquals(List.of("Big (1)", "Big (2)", "Big (3)", "Space / Small", "My reader"), names);
    JsonNode first = account.get("watches").get(0);
    assertEquals(WatchValidator.MAX_SOURCES, first.get("sources").size());
    assertEquals(5, account.get("watches").get(2).get("sources").size());
    assertFalse(first.get("enabled").asBoolean());
    assertEquals("opml-space-small", account.get("watches").get(3).get("id").asText());
    // each is a watch the schema accepts
    account.get("watches").forEach(w -> WatchValidator.validate(w, null, "alice", ZoneOffset.UTC));
  }
}
