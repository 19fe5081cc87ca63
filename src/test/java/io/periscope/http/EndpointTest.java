package io.periscope.http;

import static org.apache.pekko.http.javadsl.model.HttpMethods.GET;
import static org.apache.pekko.http.javadsl.model.HttpMethods.POST;
import static org.apache.pekko.http.javadsl.server.Directives.complete;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.Test;

/**
 * How a template matches a request's path: segment by segment, the whole path, parameters decoded.
 */
public class EndpointTest {
  private static final Endpoint RUN =
      new Endpoint(GET, "/watches/{id}/runs/{runId}", (caller, p) -> complete("ok"));
  private static final Endpoint POOL =
      new Endpoint(
          GET,
          "/admin/keys/{pool}",
          Map.<String, Predicate<String>>of("pool", List.of("model", "search")::contains),
          (caller, p) -> complete("ok"));

  @Test
  public void literalsMatchWholeSegmentsAndParametersTakeTheirValue() {
    assertEquals(
        Map.of("id", "w1", "runId", "r 2"), RUN.match(List.of("watches", "w1", "runs", "r 2")));
    assertNull(RUN.match(List.of("watchesX", "w1", "runs", "r")));
    assertNull(RUN.match(List.of("watches", "w1", "run", "r")));
  }

  @Test
  public void thePathMustEndWhereTheTemplateDoes() {
    assertNull(RUN.match(List.of("watches", "w1", "runs")));
    assertNull(RUN.match(List.of("watches", "w1", "runs", "r", ""))); // a trailing slash
    assertNull(RUN.match(List.of("watches", "w1", "runs", "r", "more")));
  }

  @Test
  public void aParameterNeverMatchesAnEmptySegmentNorAValueItDoesNotAccept() {
    assertNull(RUN.match(List.of("watches", "", "runs", "r")));
    assertEquals(Map.of("pool", "model"), POOL.match(List.of("admin", "keys", "model")));
    assertNull(POOL.match(List.of("admin", "keys", "other")));
  }

  @Test
  public void theMostSpecificTemplateAnswersWhateverTheOrderTheyAreListedIn() {
    Endpoint literal = new Endpoint(POST, "/watches/run-all", (caller, p) -> complete("run-all"));
    Endpoint parameter = new Endpoint(POST, "/watches/{id}", (caller, p) -> complete("watch"));
    Endpoint deeper = new Endpoint(POST, "/watches/{id}/run", (caller, p) -> complete("run"));
    for (List<Endpoint> listed :
        List.of(List.of(literal, parameter, deeper), List.of(deeper, parameter, literal))) {
      assertEquals(Optional.of(literal), Endpoint.mostSpecific(listed, POST, "/watches/run-all"));
      assertEquals(Optional.of(parameter), Endpoint.mostSpecific(listed, POST, "/watches/w1"));
      assertEquals(Optional.of(deeper), Endpoint.mostSpecific(listed, POST, "/watches/w1/run"));
      assertEquals(Optional.empty(), Endpoint.mostSpecific(listed, GET, "/watches/w1"));
    }
  }

  @Test
  public void aLiteralSegmentIsMoreSpecificThanAParameterAtTheFirstPlaceTheyDiffer() {
    Endpoint early = new Endpoint(GET, "/a/{x}/{y}", (caller, p) -> complete("early"));
    Endpoint late = new Endpoint(GET, "/{x}/b/c", (caller, p) -> complete("late"));
    assertTrue(Endpoint.MOST_SPECIFIC_FIRST.compare(early, late) < 0);
    assertTrue(Endpoint.MOST_SPECIFIC_FIRST.compare(late, early) > 0);
    assertEquals(0, Endpoint.MOST_SPECIFIC_FIRST.compare(early, early));
  }
}
