package io.periscope.trust;

import java.net.IDN;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The domain part of a trust rule. {@code example.org} matches that host and every subdomain of it
 * ({@code news.example.org}); {@code *.example.org} matches the subdomains only. No other wildcard,
 * no regular expression, no IP address. Case-insensitive; internationalized names are kept in their
 * ASCII (punycode) form.
 *
 * @param domain the domain name the host must be or end in, lowercase ASCII, without the {@code *.}
 * @param subdomainsOnly whether the pattern was written {@code *.domain}
 */
public record DomainPattern(String domain, boolean subdomainsOnly) {
  public static final int MAX_LENGTH = 253;
  static final String RULE =
      "must be a domain name such as example.org (the domain and its subdomains) or *.example.org"
          + " (its subdomains only): letters, digits and hyphens in dot-separated labels, no IP"
          + " address, at most "
          + MAX_LENGTH
          + " characters";
  private static final Pattern LABEL = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");
  private static final Pattern DIGITS = Pattern.compile("[0-9]+");

  /**
   * The pattern as written by its owner, normalized; empty when it is not a valid pattern ({@link
   * #RULE}).
   */
  public static Optional<DomainPattern> parse(String text) {
    if (text == null || text.isEmpty() || text.length() > MAX_LENGTH + 2) return Optional.empty();
    boolean wildcard = text.startsWith("*.");
    String name = wildcard ? text.substring(2) : text;
    String ascii;
    try {
      ascii = IDN.toASCII(name, IDN.USE_STD3_ASCII_RULES).toLowerCase(Locale.ROOT);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    if (ascii.isEmpty() || ascii.length() > MAX_LENGTH) return Optional.empty();
    String[] labels = ascii.split("\\.", -1);
    for (String label : labels) {
      if (!LABEL.matcher(label).matches()) return Optional.empty();
    }
    // A top-level domain is never numeric: this keeps IPv4 addresses out.
    if (DIGITS.matcher(labels[labels.length - 1]).matches()) return Optional.empty();
    return Optional.of(new DomainPattern(ascii, wildcard));
  }

  /** The normalized pattern: the rule's id. */
  public String text() {
    return subdomainsOnly ? "*." + domain : domain;
  }

  /**
   * @param host a URL's host, as OkHttp gives it (lowercase, punycode)
   */
  public boolean matches(String host) {
    String h =
        (host.endsWith(".") ? host.substring(0, host.length() - 1) : host).toLowerCase(Locale.ROOT);
    return h.endsWith("." + domain) || (!subdomainsOnly && h.equals(domain));
  }

  /** Longer domains are more specific; for the same domain, the subdomains-only form is. */
  int specificity() {
    return domain.split("\\.").length * 2 + (subdomainsOnly ? 1 : 0);
  }
}
