package io.periscope.trust;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * How far a source is believed, strongest first. A run's corroborating tier is the strongest among
 * its evidence.
 */
public enum TrustTier {
  OFFICIAL("official"),
  ESTABLISHED("established"),
  COMMUNITY("community"),
  UNVERIFIED("unverified");

  private final String wire;

  TrustTier(String wire) {
    this.wire = wire;
  }

  public String wire() {
    return wire;
  }

  public static Optional<TrustTier> fromWire(String value) {
    return Arrays.stream(values()).filter(t -> t.wire.equals(value)).findFirst();
  }

  public static List<String> names() {
    return Arrays.stream(values()).map(TrustTier::wire).toList();
  }
}
