package io.periscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.channels.SealedChannels;
import io.periscope.history.DefinitionChanges;
import io.periscope.json.Json;
import io.periscope.watch.Actor;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchVersions;
import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * How {@code history --changes} prints a change of a watch's definition: a text line, a JSON line
 * or object, or a CSV row. Definitions are shown with their channels masked, as the interface
 * answers them: no credential leaves the journal.
 */
final class ChangeOutput {
  private ChangeOutput() {}

  /** What a JSON line or the {@code --json} document holds of a change. */
  record ChangeLine(
      String owner,
      String watchId,
      Integer version,
      Instant at,
      Actor actor,
      String change,
      List<String> changed,
      Integer restoredFrom,
      List<WatchVersions.Difference> differences,
      String cursor) {}

  static final String CSV_HEADER =
      "cursor,at,owner,watchId,version,change,actor,account,changed,differences";

  static ChangeLine of(DefinitionChanges.Change c, String cursor) {
    Watch before = c.before() == null ? null : SealedChannels.mask(c.before());
    Watch after = c.version().watch() == null ? null : SealedChannels.mask(c.version().watch());
    return new ChangeLine(
        c.accountId(),
        c.watchId(),
        c.numbered() ? c.version().version() : null,
        c.version().at(),
        c.version().actor(),
        c.version().change(),
        c.version().changed(),
        c.version().restoredFrom(),
        WatchVersions.differences(before, after).stream()
            .filter(d -> c.version().changed().contains(d.field()))
            .toList(),
        cursor);
  }

  /**
   * {@code <at> <owner>/<watchId> v<N> <change> by=<kind>:<account>[ from=vN] <field>: <before> ->
   * <after>; ...}: values as JSON, so a text's line breaks and quotes stay on the line.
   */
  static String text(ChangeLine c, ZoneId zone) {
    List<String> parts = new ArrayList<>();
    for (WatchVersions.Difference d : c.differences())
      parts.add(d.field() + ": " + shown(d.before()) + " -> " + shown(d.after()));
    return time(c.at(), zone)
        + " "
        + c.owner()
        + "/"
        + c.watchId()
        + " v"
        + (c.version() == null ? "?" : c.version())
        + " "
        + c.change()
        + " by="
        + (c.actor() == null ? "unrecorded" : c.actor().kind() + ":" + c.actor().account())
        + (c.restoredFrom() == null ? "" : " from=v" + c.restoredFrom())
        + (parts.isEmpty() ? "" : " " + String.join("; ", parts));
  }

  static String csv(ChangeLine c, ZoneId zone) {
    return String.join(
        ",",
        c.cursor(),
        time(c.at(), zone),
        CsvCell.of(c.owner()),
        CsvCell.of(c.watchId()),
        c.version() == null ? "" : c.version().toString(),
        c.change(),
        c.actor() == null ? "" : CsvCell.of(c.actor().kind()),
        c.actor() == null ? "" : CsvCell.of(c.actor().account()),
        CsvCell.of(c.changed().stream().collect(Collectors.joining(";"))),
        CsvCell.of(Json.text(c.differences())));
  }

  static void json(PrintStream out, ChangeLine c) {
    out.println(Json.text(c));
  }

  private static String shown(JsonNode value) {
    return value == null || value.isMissingNode() ? "null" : value.toString();
  }

  private static String time(Instant at, ZoneId zone) {
    return zone.equals(ZoneOffset.UTC)
        ? at.toString()
        : java.time.format.DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(at.atZone(zone));
  }
}
