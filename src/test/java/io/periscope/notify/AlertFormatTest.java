package io.periscope.notify;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.Test;

public class AlertFormatTest {

  @Test
  public void aConfirmedAlertLeadsWithTheWatchAndEscapesUserText() {
    String html = AlertFormat.telegramHtml(Alerts.confirmed());
    assertEquals(
        "🔔 <b>Acme launch</b> — condition met (92%)\n"
            + "Acme set the launch date for &lt;May 3&gt; &amp; said so.\n"
            + "\n"
            + "• <a href=\"https://news.example.com/acme?id=1&amp;ref=feed\">Acme sets launch"
            + " date</a>\n"
            + "\n"
            + "Condition: Acme announces a launch date",
        html);
  }

  @Test
  public void aNoticeOpensWithAWarningSignItsSummarysFirstLineCompletingTheHeadline() {
    Alert notice =
        new Alert(
            "alice",
            "acme",
            "Acme <launch>",
            Alert.Strength.NOTICE,
            1,
            "keeps failing: every source failed\n3 runs in a row failed.",
            List.of(),
            "",
            java.time.Instant.parse("2026-11-25T12:00:00Z"),
            "r1/failing");
    assertTrue(notice.operational());
    assertEquals(
        "⚠️ <b>Acme &lt;launch&gt;</b> keeps failing: every source failed\n3 runs in a row failed.",
        AlertFormat.telegramHtml(notice));
    assertEquals(
        "⚠️ Acme <launch> keeps failing: every source failed", AlertFormat.headline(notice));
    assertEquals("3 runs in a row failed.", AlertFormat.plainBody(notice));
    assertFalse(Alerts.confirmed().operational());
  }

  @Test
  public void aWeakAlertSaysItIsUnconfirmedInEveryFormat() {
    Alert weak = Alerts.weak();
    for (String text :
        List.of(
            AlertFormat.telegramHtml(weak),
            AlertFormat.plainText(weak),
            AlertFormat.headline(weak),
            AlertFormat.slackMrkdwn(weak),
            AlertFormat.discordMarkdown(weak))) {
      assertTrue(text, text.startsWith("🔸 Possible match (unconfirmed, 61%) — "));
    }
  }

  @Test
  public void noEventAlertLooksLikeAnOperationalAlert() {
    for (Alert alert : List.of(Alerts.confirmed(), Alerts.weak())) {
      for (String text :
          List.of(
              AlertFormat.telegramHtml(alert),
              AlertFormat.plainText(alert),
              AlertFormat.slackMrkdwn(alert),
              AlertFormat.discordMarkdown(alert))) {
        assertFalse(text, text.substring(0, 3).contains("\u26a0"));
      }
    }
  }

  @Test
  public void aNameWithLineBreaksStaysOnTheHeadline() {
    Alert alert =
        new Alert(
            "a",
            "w",
            "Two\r\nlines",
            Alert.Strength.CONFIRMED,
            1,
            "",
            List.of(),
            "",
            Alerts.AT,
            "run-1");
    assertEquals("🔔 Two lines — condition met (100%)", AlertFormat.headline(alert));
  }

  @Test
  public void slackAndDiscordLinkTheEvidenceInTheirOwnSyntax() {
    assertTrue(
        AlertFormat.slackMrkdwn(Alerts.confirmed())
            .contains("• <https://news.example.com/acme?id=1&amp;ref=feed|Acme sets launch date>"));
    assertTrue(
        AlertFormat.slackMrkdwn(Alerts.confirmed())
            .startsWith("🔔 *Acme launch* — condition met (92%)"));
    assertTrue(
        AlertFormat.discordMarkdown(Alerts.confirmed())
            .contains("• Acme sets launch date — <https://news.example.com/acme?id=1&ref=feed>"));
  }

  @Test
  public void discordContentIsCutToItsLimit() {
    String content = AlertFormat.discordMarkdown(Alerts.withEvidence(100));
    assertEquals(AlertFormat.DISCORD_MAX, content.length());
    assertTrue(content.endsWith("…"));
  }

  @Test
  public void longHtmlIsSplitBetweenLines() {
    String html = AlertFormat.telegramHtml(Alerts.withEvidence(80));
    List<String> parts = TelegramChunks.split(html, TelegramChunks.LIMIT);
    assertTrue(parts.size() > 1);
    for (String part : parts) assertTrue(part.length() <= TelegramChunks.LIMIT);
    assertEquals(html, String.join("\n", parts));
  }

  @Test
  public void anOverlongLineIsCutAtSpacesWithItsTagsClosedAndReopened() {
    String line =
        "<b>bold words &amp; more words</b> then <a href=\"https://x.example/?a=1&amp;b=2\">a link"
            + " text</a> end";
    List<String> parts = TelegramChunks.split(line, 60);
    assertTrue(parts.size() > 1);
    StringBuilder text = new StringBuilder();
    for (String part : parts) {
      assertTrue(part, part.length() <= 60);
      assertBalanced(part);
      text.append(part.replaceAll("<[^>]*>", ""));
    }
    // Tags aside, the pieces are the line, in order, with every entity whole.
    assertEquals(line.replaceAll("<[^>]*>", ""), text.toString());
  }

  private static void assertBalanced(String html) {
    Deque<String> open = new ArrayDeque<>();
    Matcher tag = Pattern.compile("<(/?)([a-z]+)[^>]*>").matcher(html);
    while (tag.find()) {
      if (tag.group(1).isEmpty()) open.push(tag.group(2));
      else assertEquals(html, open.pop(), tag.group(2));
    }
    assertTrue(html, open.isEmpty());
    assertFalse(html, html.matches("(?s).*&[a-z]*$") || html.matches("(?s).*<[^>]*$"));
  }
}
