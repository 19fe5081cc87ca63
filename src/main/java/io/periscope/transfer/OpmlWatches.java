package io.periscope.transfer;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Json;
import io.periscope.source.Opml;
import io.periscope.watch.WatchValidator;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * An OPML file as an account of an export document (docs/export-import.md): one watch per folder
 * (the feeds outside any folder make one named after the file), a folder of more than {@link
 * WatchValidator#MAX_SOURCES} feeds split into numbered watches. The watches are disabled and their
 * condition says they are imported: their owner writes what to watch for before enabling them.
 */
public final class OpmlWatches {
  static final String CONDITION = "Imported from OPML: write the condition before enabling";
  static final String SCHEDULE = "0 8 * * *";
  static final double THRESHOLD = 0.8;

  private OpmlWatches() {}

  /** The account {@code accountId} of an export document, holding the watches of {@code listed}. */
  public static ObjectNode account(String accountId, Opml.Listed listed) {
    String unfiled = listed.title() != null ? listed.title() : "Imported feeds";
    Map<String, List<Opml.Feed>> byFolder = new LinkedHashMap<>();
    for (Opml.Feed feed : listed.feeds())
      byFolder
          .computeIfAbsent(feed.folder() != null ? feed.folder() : unfiled, f -> new ArrayList<>())
          .add(feed);
    ArrayNode watches = Json.MAPPER.createArrayNode();
    Set<String> ids = new HashSet<>();
    byFolder.forEach(
        (folder, feeds) -> {
          int parts = (feeds.size() + WatchValidator.MAX_SOURCES - 1) / WatchValidator.MAX_SOURCES;
          for (int part = 0; part < parts; part++) {
            List<Opml.Feed> some =
                feeds.subList(
                    part * WatchValidator.MAX_SOURCES,
                    Math.min(feeds.size(), (part + 1) * WatchValidator.MAX_SOURCES));
            String name = parts == 1 ? folder : folder + " (" + (part + 1) + ")";
            watches.add(watch(uniqueId(name, ids), name, some));
          }
        });
    ObjectNode account = Json.MAPPER.createObjectNode();
    account.put("id", accountId);
    account.set("watches", watches);
    return account;
  }

  private static ObjectNode watch(String id, String name, List<Opml.Feed> feeds) {
    ObjectNode watch = Json.MAPPER.createObjectNode();
    watch.put("id", id);
    watch.put("name", name);
    watch.put("condition", CONDITION);
    ArrayNode sources = watch.putArray("sources");
    for (Opml.Feed feed : feeds) sources.addObject().put("type", "rss").put("value", feed.url());
    watch.put("schedule", SCHEDULE);
    watch.put("threshold", THRESHOLD);
    watch.put("enabled", false);
    return watch;
  }

  /** An id a watch may have, from {@code name}: lower case, dashes, at most 64 characters. */
  static String uniqueId(String name, Set<String> taken) {
    String base = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]+", "-");
    base = base.replaceAll("^-+|-+$", "");
    if (base.isEmpty()) base = "feeds";
    base = "opml-" + (base.length() > 50 ? base.substring(0, 50) : base);
    String id = base;
    for (int n = 2; !taken.add(id); n++) id = base + "-" + n;
    return id;
  }
}
