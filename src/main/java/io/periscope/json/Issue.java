package io.periscope.json;

import java.util.List;

/** One validation problem: where in the body (field names and array indexes) and what is wrong. */
public record Issue(List<Object> path, String message) {
  public static Issue at(String message, Object... path) {
    return new Issue(List.of(path), message);
  }
}
