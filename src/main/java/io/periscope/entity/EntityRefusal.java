package io.periscope.entity;

/**
 * An entity answered with an error (absent, duplicate…). The caller knows which status that means
 * for its command: a refused create is a conflict, a refused get is not found.
 */
public final class EntityRefusal extends RuntimeException {
  public EntityRefusal(String message) {
    super(message, null, false, false);
  }
}
