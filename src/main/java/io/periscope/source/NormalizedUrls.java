package io.periscope.source;

import java.util.Locale;
import java.util.Set;
import okhttp3.HttpUrl;

/**
 * An item's URL as its identity and as it is shown (docs/feeds.md, "Identity"). Tracking parameters
 * are dropped from both; for identity the URL is also canonical (scheme and host lower case, no
 * default port, one percent-encoding), so one article reached through differently written links is
 * one item. Other fragments are kept: feeds such as scripting.com's give each post an anchor of one
 * day's page, and comment feeds an anchor per comment, so a fragment can be all that tells two
 * items apart.
 */
public final class NormalizedUrls {
  /**
   * Query (or fragment) parameters that only say where a click came from; with every {@code utm_*}.
   * A curated list, as Miniflux keeps one: a parameter a site reads for content (GitHub's {@code
   * ref}, say) must never be on it.
   */
  static final Set<String> TRACKING =
      Set.of(
          "fbclid",
          "gclid",
          "gclsrc",
          "dclid",
          "gbraid",
          "wbraid",
          "msclkid",
          "yclid",
          "twclid",
          "ttclid",
          "igshid",
          "mc_cid",
          "mc_eid",
          "_hsenc",
          "_hsmi",
          "mkt_tok",
          "oly_anon_id",
          "oly_enc_id",
          "vero_id",
          "vero_conv",
          "wickedid",
          "rb_clickid",
          "s_cid",
          "ref_src",
          "ref_url",
          "xtor",
          "_openstat",
          "__s");

  private NormalizedUrls() {}

  /**
   * The form two links of one article share: canonical and without tracking. A link that is not
   * http(s), or not a URL at all, is itself, stripped.
   */
  public static String forIdentity(String url) {
    if (url == null) return null;
    HttpUrl parsed = HttpUrl.parse(url.strip());
    return parsed == null ? url.strip() : withoutTracking(parsed).toString();
  }

  /**
   * The link as the source wrote it, unless tracking was dropped from it (then in canonical form):
   * what a run fetches, shows the model and cites in alerts.
   */
  public static String forDisplay(String url) {
    if (url == null) return null;
    HttpUrl parsed = HttpUrl.parse(url.strip());
    if (parsed == null) return url;
    HttpUrl clean = withoutTracking(parsed);
    return clean.equals(parsed) ? url : clean.toString();
  }

  private static HttpUrl withoutTracking(HttpUrl url) {
    HttpUrl.Builder clean = url.newBuilder();
    boolean changed = false;
    for (String name : url.queryParameterNames()) {
      if (isTracking(name)) {
        clean.removeAllQueryParameters(name);
        changed = true;
      }
    }
    String fragment = url.fragment();
    if (fragment != null && (fragment.isEmpty() || isTrackingFragment(fragment))) {
      clean.fragment(null);
      changed = true;
    }
    return changed ? clean.build() : url;
  }

  private static boolean isTracking(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return n.startsWith("utm_") || TRACKING.contains(n);
  }

  /**
   * A text directive ({@code #:~:text=…}, added by search engines to highlight a passage) or
   * parameters that are all tracking ({@code #xtor=RSS-3}, {@code #utm_source=feed}).
   */
  private static boolean isTrackingFragment(String fragment) {
    if (fragment.startsWith(":~:")) return true;
    for (String pair : fragment.split("&")) {
      int eq = pair.indexOf('=');
      if (eq <= 0 || !isTracking(pair.substring(0, eq))) return false;
    }
    return true;
  }
}
