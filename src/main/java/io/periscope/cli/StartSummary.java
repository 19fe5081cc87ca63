package io.periscope.cli;

import io.periscope.config.Settings;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a person reads when the service starts: its version and address, where its data is, its
 * profile, what is not configured and what that disables, and, on an instance without an account,
 * how to make the first administrator.
 */
record StartSummary(
    String version,
    String profile,
    String address,
    Settings settings,
    boolean model,
    boolean search,
    Optional<String> setupLink) {

  List<String> lines() {
    List<String> lines = new ArrayList<>();
    lines.add("Periscope " + version + " is serving " + address + " (profile " + profile + ")");
    Settings.Database db = settings.database();
    lines.add(
        db.configured()
            ? "Data: PostgreSQL at " + db.url()
            : "Data: " + settings.dataDir().toAbsolutePath().normalize() + " (embedded journal)");
    List<String> missing = new ArrayList<>();
    if (!model) missing.add("a model key: no verdicts, no drafting with AI (MODEL_API_KEYS)");
    if (!search) missing.add("a search key: search sources fail, no previews (SEARCH_API_KEYS)");
    if (!settings.integrations().email())
      missing.add("SMTP: no e-mail channels, no password-reset or verification mail (SMTP_HOST)");
    if (!settings.integrations().telegram())
      missing.add("Telegram: no telegram channels (TELEGRAM_BOT_TOKEN)");
    if (!missing.isEmpty()) {
      lines.add("Not configured:");
      missing.forEach(m -> lines.add("  - " + m));
    }
    setupLink.ifPresent(
        link -> {
          lines.add("No account yet. Make the first administrator in a browser: " + link);
          lines.add(
              "  (valid until used or the service restarts), or on the command line: java -jar"
                  + " periscope.jar users create --id ID --email EMAIL --role admin");
        });
    return lines;
  }
}
