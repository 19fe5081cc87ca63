package io.periscope.entity;

import io.periscope.json.Issue;
import io.periscope.json.ValidationException;
import java.util.List;

/**
 * What may be an entity id. Pekko makes a persistence id {@code <type>|<entity id>}: an id with the
 * separator cannot become one, and the journal's column holds 255 characters. Such an id, asked for
 * anyway, fails its own request with a 400 before any shard sees it, instead of crashing the shard
 * and leaving the caller to wait out the ask.
 */
public final class EntityIds {
  public static final int MAX_LENGTH = 200;

  private EntityIds() {}

  public static boolean valid(String id) {
    return id != null && !id.isEmpty() && id.length() <= MAX_LENGTH && id.indexOf('|') < 0;
  }

  /**
   * @throws ValidationException for an id no entity can have
   */
  public static String checked(String id) {
    if (!valid(id)) throw new ValidationException(List.of(Issue.at("not a valid identifier")));
    return id;
  }
}
