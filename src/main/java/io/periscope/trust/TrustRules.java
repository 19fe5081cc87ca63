package io.periscope.trust;

import io.periscope.source.Item;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import okhttp3.HttpUrl;

/**
 * An owner's trust rules as a run applies them. An item on a host some rule matches is trusted as
 * the most specific matching rule says, whatever the trust its source declares: the owner's rule
 * names that very domain, while a source's {@code trust} covers everything the source brings (a
 * search brings many domains). An item no rule matches keeps its source's trust.
 */
public final class TrustRules {
  public static final TrustRules NONE = new TrustRules(List.of());

  /** Reads an owner's rules; a run asks once, at its start. */
  @FunctionalInterface
  public interface Lookup {
    CompletionStage<TrustRules> of(String accountId);
  }

  private record Compiled(DomainPattern pattern, TrustTier tier) {}

  /** Most specific first, so the first match wins. */
  private final List<Compiled> rules;

  private TrustRules(List<Compiled> rules) {
    this.rules = rules;
  }

  /** Rules whose pattern or tier does not parse (none are stored so) are left out. */
  public static TrustRules of(List<TrustRule> rules) {
    return new TrustRules(
        rules.stream()
            .flatMap(
                r ->
                    DomainPattern.parse(r.pattern())
                        .flatMap(p -> TrustTier.fromWire(r.tier()).map(t -> new Compiled(p, t)))
                        .stream())
            .sorted(Comparator.comparingInt((Compiled c) -> c.pattern().specificity()).reversed())
            .toList());
  }

  /**
   * The tier of the most specific rule matching the URL's host; empty when none matches or it is no
   * http(s) URL.
   */
  public Optional<TrustTier> tierFor(String url) {
    if (rules.isEmpty()) return Optional.empty(); // most owners have none: no URL to read
    HttpUrl parsed = url == null ? null : HttpUrl.parse(url);
    if (parsed == null) return Optional.empty();
    return rules.stream()
        .filter(r -> r.pattern().matches(parsed.host()))
        .map(Compiled::tier)
        .findFirst();
  }

  /** The item with the trust a run uses: its rule's tier, else its source's. */
  public Item applyTo(Item item) {
    return tierFor(item.url()).map(tier -> item.withTrust(tier.wire())).orElse(item);
  }
}
