package io.periscope.http;

import static org.junit.Assert.assertEquals;

import io.periscope.entity.Refusal;
import java.util.EnumMap;
import java.util.Map;
import org.junit.Test;

/** Each kind of refusal is one status, and the answer carries the refusal's message as JSON. */
public class RefusalStatusTest {
  @Test
  public void everyKindHasItsStatusAndTheMessageIsTheError() {
    Map<Refusal.Kind, Integer> statuses = new EnumMap<>(Refusal.Kind.class);
    statuses.put(Refusal.Kind.NOT_FOUND, 404);
    statuses.put(Refusal.Kind.CONFLICT, 409);
    statuses.put(Refusal.Kind.FORBIDDEN, 403);
    statuses.put(Refusal.Kind.UNPROCESSABLE, 422);
    statuses.put(Refusal.Kind.UNAVAILABLE, 503);
    statuses.put(Refusal.Kind.UPSTREAM_FAILED, 502);
    statuses.put(Refusal.Kind.USED_UP, 429);
    assertEquals(Refusal.Kind.values().length, statuses.size());
    for (Refusal.Kind kind : Refusal.Kind.values()) {
      Reply answer =
          ErrorHandling.toReply(
              new java.util.concurrent.CompletionException(new Refusal(kind, "why " + kind)));
      assertEquals(kind.name(), (int) statuses.get(kind), answer.status().intValue());
      assertEquals("{\"error\":\"why " + kind + "\"}", io.periscope.json.Json.text(answer.body()));
    }
  }
}
