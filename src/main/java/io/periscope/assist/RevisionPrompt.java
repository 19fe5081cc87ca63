package io.periscope.assist;

import static io.periscope.assist.Schemas.array;
import static io.periscope.assist.Schemas.bool;
import static io.periscope.assist.Schemas.nullable;
import static io.periscope.assist.Schemas.number;
import static io.periscope.assist.Schemas.oneOf;
import static io.periscope.assist.Schemas.string;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.model.StructuredPrompt;
import io.periscope.watch.Watch;
import java.util.Map;

/**
 * The model call of POST /watches/:id/revise: the watch as it should be after the person's instruction, with a
 * reason per change. The model proposes the whole watch and the service computes the diff ({@link Revision}), so
 * an unchanged field can never be proposed as a change. docs/model-protocol.md quotes {@link #SYSTEM}, the user
 * template and {@link #schema()}.
 */
public final class RevisionPrompt {
  public static final String SCHEMA_NAME = "revision";
  static final int MAX_ANSWER_TOKENS = 3_000;

  public static final String SYSTEM = "You revise a watch " + WatchText.SERVICE + """


      You receive the watch as it is now and the person's instruction. Answer with:
      - reasons: one entry for each field you change, naming the field and saying why in one sentence for the \
      person;
      - the whole watch as it should be after the instruction: change only what the instruction asks for or \
      clearly requires, and copy every other field exactly as it is.

      The watch's fields:
      - name: a short display name, at most 200 characters;
      - condition: what must happen for the person to be alerted, in plain English;
      - sources: 1 to 20, each a web search (type "search", value: the query text) or an RSS or Atom feed (type \
      "rss", value: the feed's http(s) URL); trust: official, established, community, unverified or null; \
      recencyDays: for a search, how many days back to look (1 to 3650), else null;
      - schedule: a five-field cron expression (minute hour day-of-month month day-of-week) in UTC;
      - threshold: how sure the judging model must be, from 0 to 1, before the person is alerted;
      - weakThreshold: a lower confidence, below threshold, from which a weaker, unconfirmed alert is sent; null \
      for none;
      - enabled: whether the watch runs on its schedule.""";

  private static final JsonNode SCHEMA = Schemas.object(
      Map.entry("reasons", array(Schemas.object(
          Map.entry("field", oneOf(Revision.FIELDS, "The field you change.")),
          Map.entry("why", string("Why, in one sentence for the person."))),
          "One entry per field you change.")),
      Schemas.name(),
      Schemas.condition(),
      Map.entry("sources", array(Schemas.source(), "1 to 20 places to look.")),
      Schemas.schedule(),
      Schemas.threshold(),
      Map.entry("weakThreshold", nullable(number(
          "Confidence from 0 to 1, below threshold, from which a weaker alert is sent; null for none."))),
      Map.entry("enabled", bool("Whether the watch runs on its schedule.")));

  private RevisionPrompt() {}

  /** A copy of the revision's schema, as sent. */
  public static JsonNode schema() {
    return SCHEMA.deepCopy();
  }

  /**
   * The prompt for revising {@code base}. What else the model should know about the watch (a later issue adds the
   * owner's feedback on past runs) goes between the watch and the instruction, as one more titled section.
   */
  public static StructuredPrompt of(Watch base, String instruction) {
    String user = "Watch now:\n" + WatchText.fields(base) + "\n\nInstruction: " + instruction;
    return new StructuredPrompt(SYSTEM, user, SCHEMA_NAME, schema(), MAX_ANSWER_TOKENS);
  }
}
