package io.periscope.trust;

import io.periscope.entity.JsonSerializable;

/**
 * One owner's rule: items whose URL's host matches {@code pattern} (a normalized {@link
 * DomainPattern}, the rule's id) are trusted as {@code tier} (a {@link
 * io.periscope.trust.TrustTier} wire name).
 */
public record TrustRule(String pattern, String tier) implements JsonSerializable {}
