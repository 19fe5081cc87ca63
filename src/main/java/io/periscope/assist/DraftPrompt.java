package io.periscope.assist;

import static io.periscope.assist.Schemas.array;
import static io.periscope.assist.Schemas.string;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.assist.AssistRequests.DraftRequest;
import io.periscope.llm.StructuredPrompt;
import java.time.ZoneId;
import java.util.Map;

/**
 * The model call of POST /watches/draft: a description becomes a draft, or a previous draft and an
 * instruction become the next one. docs/model-protocol.md quotes {@link #SYSTEM}, the user
 * templates and {@link #schema()}.
 */
public final class DraftPrompt {
  public static final String SCHEMA_NAME = "draft";

  /** A watch with up to 20 sources, their rationales and the notes. */
  static final int MAX_ANSWER_TOKENS = 3_000;

  public static final String SYSTEM =
      "You draft a watch "
          + WatchText.SERVICE
          + """


          Answer with a complete watch:
          - name: a short display name, at most 200 characters;
          - condition: one plain-English statement of what must happen for the person to be \
          alerted, specific enough to judge from news items;
          - sources: 1 to 20 places to look, each a web search (type "search", value: the query \
          text), an RSS or Atom feed (type "rss", value: the feed's http(s) URL; only a feed \
          whose URL you know) or a web page watched for changes (type "page", value: the page's \
          http(s) URL; only where the request names a page, such as a pricing or changelog \
          page); trust: how far the source is believed (official, established, \
          community or unverified; null when unknown); recencyDays: for a search, how many days \
          back to look (1 to 3650), null for a feed or page; rationale: one sentence for the person on \
          why this source helps;
          - schedule: when to check, a five-field cron expression (minute hour day-of-month month \
          day-of-week) in the person's time zone (given after the request), for example \
          "0 */6 * * *" for every six hours; no more often than the subject changes;
          - threshold: how sure the judging model must be, from 0 to 1, before the person is \
          alerted; 0.8 suits most watches, lower alerts sooner but more often wrongly;
          - notes: a few sentences for the person: what you assumed and what they may want to \
          adjust.

          When you receive a previous draft and an instruction, answer with the whole next draft: \
          the previous one changed as the instruction asks, everything else kept as it was.\
          """;

  private static final JsonNode SCHEMA =
      Schemas.object(
          Schemas.name(),
          Schemas.condition(),
          Map.entry(
              "sources",
              array(
                  Schemas.source(
                      Map.entry(
                          "rationale",
                          string("One sentence for the person on why this source helps."))),
                  "1 to 20 places to look.")),
          Schemas.schedule(),
          Schemas.threshold(),
          Map.entry("notes", string("What you assumed and what the person may want to adjust.")));

  private DraftPrompt() {}

  /** A copy of the draft's schema, as sent. */
  public static JsonNode schema() {
    return SCHEMA.deepCopy();
  }

  /** {@code zone} is the time zone the drafted schedule is read in (SCHEDULE_TIME_ZONE). */
  public static StructuredPrompt of(DraftRequest request, ZoneId zone) {
    StringBuilder user = new StringBuilder();
    if (!request.description().isEmpty())
      user.append("Description: ").append(request.description());
    if (request.refining()) {
      if (user.length() > 0) user.append("\n\n");
      user.append("Previous draft:\n")
          .append(WatchText.pretty(request.previousDraft()))
          .append("\n\nInstruction: ")
          .append(request.instruction());
    }
    user.append("\n\nTime zone: ").append(zone.getId());
    return new StructuredPrompt(SYSTEM, user.toString(), SCHEMA_NAME, schema(), MAX_ANSWER_TOKENS);
  }
}
