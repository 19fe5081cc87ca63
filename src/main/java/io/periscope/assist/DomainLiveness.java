package io.periscope.assist;

import io.periscope.net.SafeHttp;
import java.net.IDN;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Whether domains are live, best effort: a domain is live when its name resolves to an address the
 * SSRF guard allows and something there answers an HTTPS request, with any status. Everything else
 * — malformed, unresolvable, private or loopback (unless private networks are allowed), refusing
 * connections, silent, a TLS failure, or not checked within the time bound — is reported not live.
 * Never an error.
 */
public final class DomainLiveness {
  /** Domains checked at once per request. */
  static final int CONCURRENCY = 25;

  /** One domain's DNS lookup, connection and first answer. */
  static final Duration PER_DOMAIN = Duration.ofSeconds(2);

  /**
   * A whole request: two rounds of {@link #CONCURRENCY} domains at {@link #PER_DOMAIN} each fit, so
   * 50 domains are answered within 5 s. A lookup the system resolver holds longer is given up on
   * (reported not live).
   */
  static final Duration TOTAL = Duration.ofMillis(4_500);

  // A host name by the letters-digits-hyphen rule, 1 to 63 characters a label (after IDN's ASCII
  // form).
  private static final Pattern HOST =
      Pattern.compile(
          "(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?"
              + "(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*");

  private final SafeHttp http;
  private final Function<String, String> urlOf;

  /** Through the SSRF guard, private networks reachable only when the operator allows them. */
  public DomainLiveness(boolean allowPrivateNetworks) {
    this(
        new SafeHttp(allowPrivateNetworks, PER_DOMAIN, PER_DOMAIN, PER_DOMAIN),
        host -> "https://" + host + "/");
  }

  /**
   * @param urlOf the URL asked for a checked host name (tests ask plain HTTP on a loopback port)
   */
  DomainLiveness(SafeHttp http, Function<String, String> urlOf) {
    this.http = http;
    this.urlOf = urlOf;
  }

  /** One boolean per distinct domain, keyed exactly as sent, within {@link #TOTAL}. */
  public CompletionStage<Map<String, Boolean>> check(List<String> domains) {
    List<String> distinct = domains.stream().distinct().toList();
    Map<String, CompletableFuture<Boolean>> results = new LinkedHashMap<>();
    distinct.forEach(
        d ->
            results.put(
                d,
                new CompletableFuture<Boolean>()
                    .completeOnTimeout(false, TOTAL.toMillis(), TimeUnit.MILLISECONDS)));
    AtomicInteger next = new AtomicInteger();
    for (int worker = 0; worker < Math.min(CONCURRENCY, distinct.size()); worker++) {
      checkNext(distinct, results, next);
    }
    return CompletableFuture.allOf(results.values().toArray(CompletableFuture[]::new))
        .thenApply(
            all -> {
              Map<String, Boolean> liveness = new LinkedHashMap<>();
              results.forEach((domain, live) -> liveness.put(domain, live.join()));
              return liveness;
            });
  }

  /** Checks the next unchecked domain, then the one after it: one of {@link #CONCURRENCY} lanes. */
  private void checkNext(
      List<String> domains, Map<String, CompletableFuture<Boolean>> results, AtomicInteger next) {
    int i = next.getAndIncrement();
    if (i >= domains.size()) return;
    String domain = domains.get(i);
    CompletableFuture<Boolean> result = results.get(domain);
    if (result.isDone()) { // past the time bound: nothing more is asked
      checkNext(domains, results, next);
      return;
    }
    live(domain)
        .whenComplete(
            (live, failure) -> {
              result.complete(failure == null && live);
              checkNext(domains, results, next);
            });
  }

  private CompletableFuture<Boolean> live(String domain) {
    Optional<String> host = hostName(domain);
    if (host.isEmpty()) return CompletableFuture.completedFuture(false);
    return http.firstAnswer(urlOf.apply(host.get()), PER_DOMAIN)
        .thenApply(status -> true)
        .exceptionally(unreachable -> false)
        .toCompletableFuture()
        // The resolver may hold a lookup past the call's deadline: the lane moves on regardless.
        .completeOnTimeout(false, PER_DOMAIN.toMillis() + 250, TimeUnit.MILLISECONDS);
  }

  /**
   * The domain as an ASCII host name (international names in their IDN form), empty when it is not
   * one.
   */
  static Optional<String> hostName(String domain) {
    String name = domain.strip();
    if (name.endsWith(".")) name = name.substring(0, name.length() - 1);
    try {
      name = IDN.toASCII(name, IDN.USE_STD3_ASCII_RULES).toLowerCase(Locale.ROOT);
    } catch (IllegalArgumentException malformed) {
      return Optional.empty();
    }
    return HOST.matcher(name).matches() ? Optional.of(name) : Optional.empty();
  }
}
