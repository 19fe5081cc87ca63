package io.periscope.http;

import io.periscope.auth.Principal;
import java.util.List;
import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * A group of the interface's routes: its endpoints, and what every request on its paths passes
 * first.
 */
public interface Routes {
  /**
   * Every route of the group, in any order (the most specific template that matches answers: {@code
   * Endpoint#MOST_SPECIFIC_FIRST}); read once.
   */
  List<Endpoint> endpoints();

  /**
   * The directives around the group's endpoints, such as a rate limit or a role that holds for
   * every path under a prefix, unknown ones included. They never answer a route of their own.
   *
   * @param caller null on the public routes
   */
  default Route around(Principal caller, Supplier<Route> endpoints) {
    return endpoints.get();
  }
}
