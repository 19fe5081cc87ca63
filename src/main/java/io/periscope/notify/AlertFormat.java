package io.periscope.notify;

import java.util.ArrayList;
import java.util.List;

/**
 * How an event alert reads, in every channel's markup: one layout (headline, summary, evidence,
 * condition), rendered as Telegram HTML, plain text, Slack mrkdwn or Discord markdown. A confirmed
 * alert opens with 🔔, a weak one with 🔸 and says it is unconfirmed, a test send's with 🧪; only
 * operational ones open with ⚠️ (a notice to a watch's owner, {@link Alert.Strength#NOTICE}, whose
 * summary's first line completes its headline).
 */
public final class AlertFormat {
  /** Discord refuses webhook messages whose content is longer. */
  public static final int DISCORD_MAX = 2000;

  private AlertFormat() {}

  /**
   * For Telegram's {@code parse_mode: HTML}; every line is balanced, so it may be split between
   * lines.
   */
  public static String telegramHtml(Alert alert) {
    return render(alert, HTML, true);
  }

  /** Headline and body as plain text (e-mail body). */
  public static String plainText(Alert alert) {
    return render(alert, PLAIN, true);
  }

  /** Everything but the headline, as plain text (ntfy, whose title carries the headline). */
  public static String plainBody(Alert alert) {
    return render(alert, PLAIN, false);
  }

  /** The headline alone on one line: e-mail subject, ntfy title. */
  public static String headline(Alert alert) {
    return headline(alert, PLAIN);
  }

  public static String slackMrkdwn(Alert alert) {
    return render(alert, SLACK, true);
  }

  /** Discord markdown, cut to {@link #DISCORD_MAX} characters. */
  public static String discordMarkdown(Alert alert) {
    return truncate(render(alert, DISCORD, true), DISCORD_MAX);
  }

  /** Telegram HTML escaping of user-supplied text. */
  public static String escapeHtml(String text) {
    StringBuilder out = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  /**
   * Collapses line breaks and runs of blanks, so user text cannot add lines to a headline or
   * header.
   */
  public static String oneLine(String text) {
    return text.replaceAll("\\s+", " ").trim();
  }

  /**
   * At most {@code max} UTF-16 units, ending in … when cut, never between the halves of a surrogate
   * pair.
   */
  public static String truncate(String text, int max) {
    if (text.length() <= max) return text;
    int cut = max - 1;
    if (Character.isHighSurrogate(text.charAt(cut - 1))) cut--;
    return text.substring(0, cut) + "…";
  }

  private static String render(Alert alert, Markup m, boolean withHeadline) {
    List<String> lines = new ArrayList<>();
    if (withHeadline) lines.add(headline(alert, m));
    String summary =
        alert.strength() == Alert.Strength.NOTICE ? body(alert.summary()) : alert.summary().strip();
    if (!summary.isBlank()) lines.add(m.escape(summary));
    if (!alert.evidence().isEmpty()) {
      lines.add("");
      for (Alert.Evidence e : alert.evidence()) lines.add("• " + m.evidence(e));
    }
    if (!alert.condition().isBlank()) {
      lines.add("");
      lines.add("Condition: " + m.escape(oneLine(alert.condition())));
    }
    while (!lines.isEmpty() && lines.get(0).isEmpty()) lines.remove(0);
    return String.join("\n", lines);
  }

  private static String headline(Alert alert, Markup m) {
    String name = m.bold(m.escape(oneLine(alert.watchName())));
    return switch (alert.strength()) {
      case CONFIRMED -> "🔔 " + name + " — condition met (" + alert.percent() + "%)";
      case WEAK -> "🔸 Possible match (unconfirmed, " + alert.percent() + "%) — " + name;
      case TEST -> "🧪 Test alert — " + name;
      case NOTICE -> ("⚠️ " + name + " " + m.escape(oneLine(firstLine(alert.summary())))).strip();
    };
  }

  private static String firstLine(String text) {
    int end = text.indexOf('\n');
    return end < 0 ? text : text.substring(0, end);
  }

  private static String body(String text) {
    int end = text.indexOf('\n');
    return end < 0 ? "" : text.substring(end + 1).strip();
  }

  /** The first cited page, as a notification's tap target (ntfy's Click, Gotify's, Pushover's). */
  public static java.util.Optional<String> firstLink(Alert alert) {
    return alert.evidence().stream()
        .map(e -> okhttp3.HttpUrl.parse(e.url()))
        .filter(u -> u != null)
        .findFirst()
        .map(u -> u.uri().toASCIIString());
  }

  private static boolean isWebUrl(String url) {
    return url.startsWith("https://") || url.startsWith("http://");
  }

  /** What differs between the channels' markups. */
  private interface Markup {
    String escape(String text);

    String bold(String escaped);

    /** One evidence line after its bullet. */
    String evidence(Alert.Evidence e);
  }

  private static final Markup HTML =
      new Markup() {
        public String escape(String text) {
          return escapeHtml(text);
        }

        public String bold(String escaped) {
          return "<b>" + escaped + "</b>";
        }

        public String evidence(Alert.Evidence e) {
          String title = escapeHtml(oneLine(e.title().isBlank() ? e.url() : e.title()));
          return isWebUrl(e.url())
              ? "<a href=\"" + escapeHtml(e.url()) + "\">" + title + "</a>"
              : title;
        }
      };

  private static final Markup PLAIN =
      new Markup() {
        public String escape(String text) {
          return text;
        }

        public String bold(String escaped) {
          return escaped;
        }

        public String evidence(Alert.Evidence e) {
          return joinTitleAndUrl(oneLine(e.title()), e.url());
        }
      };

  private static final Markup SLACK =
      new Markup() {
        public String escape(String text) {
          return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
        }

        public String bold(String escaped) {
          return "*" + escaped + "*";
        }

        public String evidence(Alert.Evidence e) {
          String title = escape(oneLine(e.title().isBlank() ? e.url() : e.title()));
          if (!isWebUrl(e.url())) return title;
          // Slack's link syntax <url|text> ends at '|' and '>': those must not occur in the URL.
          String url = escape(e.url()).replace("|", "%7C");
          return "<" + url + "|" + title + ">";
        }
      };

  private static final Markup DISCORD =
      new Markup() {
        public String escape(String text) {
          return text.replaceAll("([\\\\*_~`|>#\\[\\]])", "\\\\$1");
        }

        public String bold(String escaped) {
          return "**" + escaped + "**";
        }

        public String evidence(Alert.Evidence e) {
          // <url> keeps Discord from unfurling every cited page into an embed.
          String url = isWebUrl(e.url()) ? "<" + e.url() + ">" : escape(e.url());
          return joinTitleAndUrl(escape(oneLine(e.title())), url);
        }
      };

  private static String joinTitleAndUrl(String title, String url) {
    if (title.isBlank()) return url;
    return url.isBlank() ? title : title + " — " + url;
  }
}
